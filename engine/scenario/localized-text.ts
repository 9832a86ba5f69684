/**
 * A scenario's name and description as the file may write them: one text, in whatever language
 * its author wrote (shown as it is in every UI), or one text per language,
 * `{ en: "Word count", zh-CN: "单词计数" }`, English required because the CLI, the reports and a
 * UI in a language the file lacks fall back on it. The validated `Scenario` keeps the English (or
 * the only) text in `name` / `description`, so every reader that knows no languages reads on as
 * before, and the other languages in `translations`: each text lives once.
 */
import { quote } from '../config/value-description.ts';
import type { MessageLocale } from '../messages/message-codes.ts';
import { message } from '../messages/engine-message.ts';
import { didYouMean } from './did-you-mean.ts';
import { type ObjectReader, isPlainObject } from './field-reader.ts';

/** The languages a scenario's texts may carry: the UI's languages. */
export const SCENARIO_TEXT_LANGUAGES: readonly MessageLocale[] = ['en', 'zh-CN'];

/** The languages besides English, each the fallback-free translation of the English text. */
export type TranslatedLanguage = Exclude<MessageLocale, 'en'>;

/** The fields of a scenario that carry a text per language. */
export type LocalizedField = 'name' | 'description';

/** A scenario's texts in the languages other than English, by language. */
export type ScenarioTranslations = { readonly [L in TranslatedLanguage]?: { readonly [F in LocalizedField]?: string } };

/** A text as the file writes it. */
export type LocalizedTextDocument = string | { readonly [L in MessageLocale]?: string };

export interface LocalizedTextRead {
  /** the English text, or the only one */
  text: string;
  translations: { [L in TranslatedLanguage]?: string };
}

const NON_BLANK = /\S/;

/**
 * Reads `key` of `root` as a plain string or a map of texts by language. `blankAllowed` lets a
 * plain string be empty (a description may be); a language's text in a map never may: a map
 * written to carry a translation that says nothing is a slip.
 */
export function readLocalizedText(root: ObjectReader, key: string, options: { required: boolean; blankAllowed: boolean; default?: string }): LocalizedTextRead | undefined {
  const raw = root.raw(key);
  if (isPlainObject(raw)) return readTextsByLanguage(root, key);
  const text = root.string(key, {
    required: options.required,
    ...(options.default === undefined ? {} : { default: options.default }),
    ...(options.blankAllowed ? {} : { pattern: NON_BLANK }),
    allowed: message('phrase', { text: options.blankAllowed ? 'a string, or a map of texts by language: en (required) and zh-CN' : 'a non-empty string, or a map of texts by language: en (required) and zh-CN' }),
  });
  return text === undefined ? undefined : { text, translations: {} };
}

function readTextsByLanguage(root: ObjectReader, key: string): LocalizedTextRead | undefined {
  const texts = root.object(key, 'a map of texts by language');
  if (!texts) return undefined;
  const unknown = texts.keys().filter((language) => !SCENARIO_TEXT_LANGUAGES.includes(language as MessageLocale));
  for (const language of unknown) reportUnknownLanguage(texts, language);
  const allowed = message('phrase', { text: 'a non-empty string' });
  const english = texts.string('en', { required: true, pattern: NON_BLANK, allowed });
  const chinese = texts.string('zh-CN', { pattern: NON_BLANK, allowed });
  if (english === undefined || unknown.length > 0 || (texts.has('zh-CN') && chinese === undefined)) return undefined;
  return { text: english, translations: chinese === undefined ? {} : { 'zh-CN': chinese } };
}

/** `zh`, `zh_CN` or `cn` for `zh-CN`: the nearest language as the suggestion. */
function reportUnknownLanguage(texts: ObjectReader, language: string): void {
  const suggestion = didYouMean(language, SCENARIO_TEXT_LANGUAGES) ?? (/^(zh|cn)/i.test(language) ? 'zh-CN' : undefined);
  texts.issues.error(texts.pathOf(language), message('field.unknown-name', { what: message('phrase', { text: 'language' }), value: quote(language) }), {
    allowed: message('names', { names: SCENARIO_TEXT_LANGUAGES }),
    ...(suggestion === undefined ? {} : { suggestion }),
  });
}

/** What carries a scenario's texts: the scenario, or the picker's entry of a bundled one (name only). */
export interface ScenarioTexts {
  readonly name: string;
  readonly description?: string;
  readonly translations?: ScenarioTranslations;
}

/** The scenario's name or description in `language`: its translation, else the English (or only) text. */
export function scenarioTextIn(scenario: ScenarioTexts, field: LocalizedField, language: MessageLocale): string {
  return (language === 'en' ? undefined : scenario.translations?.[language]?.[field]) ?? scenario[field] ?? '';
}

/** A text as the file writes it: a plain string when it has no translation, else one text per language. */
export function localizedTextDocument(text: string, translations: ScenarioTranslations, field: LocalizedField): LocalizedTextDocument {
  const translated = Object.entries(translations).flatMap(([language, texts]) => (texts?.[field] === undefined ? [] : [[language, texts[field]] as const]));
  return translated.length === 0 ? text : { en: text, ...Object.fromEntries(translated) };
}

/** The translations of a scenario from its fields' reads, leaving out languages with none. */
export function scenarioTranslations(name: LocalizedTextRead, description: LocalizedTextRead): ScenarioTranslations {
  const languages = SCENARIO_TEXT_LANGUAGES.filter((l): l is TranslatedLanguage => l !== 'en');
  const entries = languages.flatMap((language) => {
    const texts = { ...optional('name', name.translations[language]), ...optional('description', description.translations[language]) };
    return Object.keys(texts).length === 0 ? [] : [[language, texts] as const];
  });
  return Object.fromEntries(entries);
}

const optional = <K extends string>(key: K, value: string | undefined): { [P in K]?: string } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: string }));

/**
 * The UI's tiny i18n layer: the current locale as reactive state, and `t(key, params)`.
 *
 * The locale follows the browser's preferred languages until the user picks one in the header;
 * that choice is remembered in localStorage so it survives a reload.
 *
 * English is always here; every other locale is a chunk of its own (locale.ts). Rendering stays
 * synchronous: a locale's chunk is loaded before the page switches to it, and a page that opens
 * in Chinese mounts after `ready()` (main.ts), so it never shows English first.
 */
import type { FlinkOption } from '../../engine/config/flink-options.ts';
import { type LocalizedField, type ScenarioTexts, scenarioTextIn } from '../../engine/scenario/localized-text.ts';
import { renderIn } from '../../engine/messages/engine-message.ts';
import { ENGLISH_CATALOGUE } from '../../engine/messages/english-messages.ts';
import type { EngineMessage } from '../../engine/messages/message-codes.ts';
import { LOCALE_LABELS, type Locale, type LocaleBundle } from './locale.ts';
import { en, type MessageKey, type Messages, type PageMessages } from './messages-en.ts';
import { formatMessage } from './message-format.ts';
import { groupedInteger } from './grouped-integer.ts';

const STORAGE_KEY = 'checkpoint-playground.locale';

/** The locales the page offers, with their names in their own language (the picker's options). */
export const locales: { readonly [L in Locale]: { readonly label: string } } = {
  en: { label: LOCALE_LABELS.en },
  'zh-CN': { label: LOCALE_LABELS['zh-CN'] },
};

/**
 * English is always here. The planner's and docs pages' own text is not among it until that page
 * adds it (addEnglish, before it mounts): the playground never shows those keys.
 */
let ENGLISH: LocaleBundle = { messages: en as Partial<Messages> as Messages, engineMessages: ENGLISH_CATALOGUE, optionDescriptions: {}, optionDefaultNotes: {} };

const LOADERS: { readonly [L in Locale]: () => Promise<LocaleBundle> } = {
  en: () => Promise.resolve(ENGLISH),
  'zh-CN': () => import('./zh-CN/locale-zh-cn.ts').then((module) => module.zhCNBundle),
};

const NUMBER_FORMATS: { [L in Locale]?: Intl.NumberFormat } = {};

function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && Object.hasOwn(locales, value);
}

/** Maps a BCP 47 tag to a supported locale: any Chinese tag → zh-CN (the only Chinese we have), English → en. */
export function matchLocale(tag: string): Locale | undefined {
  const lower = tag.toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-CN';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return undefined;
}

function preferredLocale(): Locale {
  if (typeof navigator === 'undefined') return 'en';
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const match = tag ? matchLocale(tag) : undefined;
    if (match) return match;
  }
  return 'en';
}

function storedLocale(): Locale | undefined {
  try {
    const value = globalThis.localStorage?.getItem(STORAGE_KEY);
    return isLocale(value) ? value : undefined;
  } catch {
    return undefined; // storage can be disabled; the browser's preference still applies
  }
}

class I18n {
  /** The user's explicit choice, if any; otherwise the locale tracks the browser. */
  #chosen = $state<Locale | undefined>(storedLocale());
  #preferred = $state<Locale>(preferredLocale());
  /** The locales whose chunk is in. */
  #bundles = $state.raw<{ readonly [L in Locale]?: LocaleBundle }>({ en: ENGLISH });
  #loading: { [L in Locale]?: Promise<LocaleBundle> } = {};
  /** Text a page keeps apart from the catalogues (the lessons' outline), loaded with each locale's chunk. */
  #translations: { [L in Locale]?: Array<() => Promise<void>> } = {};
  /** Counts locale switches, so that a slow chunk cannot undo a later choice. */
  #switches = 0;

  /** The locale asked for (the user's choice, else the browser's). */
  readonly requested: Locale = $derived(this.#chosen ?? this.#preferred);
  /** The locale the page renders in: the one asked for once its chunk is in, English until then. */
  readonly locale: Locale = $derived(this.#bundles[this.requested] ? this.requested : 'en');
  readonly #bundle: LocaleBundle = $derived(this.#bundles[this.locale] ?? ENGLISH);

  constructor() {
    // Started at once; the page entries wait for it (`ready()`) before they mount.
    void this.ready();
    globalThis.addEventListener?.('languagechange', () => {
      const preferred = preferredLocale();
      void this.load(preferred).finally(() => (this.#preferred = preferred));
    });
  }

  /** A page's own English text (the planner's, the docs page's), added before the page mounts. */
  addEnglish(messages: PageMessages): void {
    ENGLISH = { ...ENGLISH, messages: { ...ENGLISH.messages, ...messages } };
    this.#bundles = { ...this.#bundles, en: ENGLISH };
  }

  /**
   * Text of the page's own in `locale` that is not in its catalogue (the lessons' outline, whose
   * English is in the first chunk), added before the page mounts: `load` (idempotent) runs with the
   * locale's chunk, and the page switches to the locale only once both are in. Added after the
   * locale is in (a module loaded later), it loads at once.
   */
  addTranslations(locale: Locale, load: () => Promise<void>): void {
    (this.#translations[locale] ??= []).push(load);
    if (this.#bundles[locale]) void load().catch((error: unknown) => console.warn(`Some ${locale} text could not be loaded:`, error));
  }

  /** Loads the chunk of `locale` and its translations (once); a failed load can be retried. */
  async load(locale: Locale): Promise<void> {
    if (this.#bundles[locale]) return;
    const loading = (this.#loading[locale] ??= LOADERS[locale]());
    try {
      const bundle = await loading;
      // read after the chunk is in: the page entry adds its translations after this layer started loading
      await Promise.all((this.#translations[locale] ?? []).map((translations) => translations()));
      this.#bundles = { ...this.#bundles, [locale]: bundle };
    } catch (error) {
      delete this.#loading[locale];
      throw error;
    }
  }

  /** Loads the locale the page opens in; the page mounts after it. Resolves (in English) if the chunk cannot load. */
  ready(): Promise<void> {
    return this.load(this.requested).catch((error: unknown) => console.warn(`The ${this.requested} text could not be loaded; the page shows English:`, error));
  }

  /** Loads, in the background, the chunks of the locales the page is not in, so a switch is immediate. */
  prefetch(): void {
    for (const locale of Object.keys(locales) as Locale[]) void this.load(locale).catch(() => {});
  }

  /**
   * Switches the language once its text is in (at once when it already is); `remember` keeps
   * the choice across reloads (an embedded page does not).
   */
  setLocale(locale: Locale, remember = true): Promise<void> {
    const ticket = ++this.#switches;
    const apply = () => {
      if (ticket === this.#switches) this.#choose(locale, remember);
    };
    if (this.#bundles[locale]) return Promise.resolve(apply());
    return this.load(locale).then(apply, (error: unknown) => console.warn(`The ${locale} text could not be loaded; the page stays in ${this.locale}:`, error));
  }

  #choose(locale: Locale, remember: boolean): void {
    this.#chosen = locale;
    if (!remember) return;
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, locale);
    } catch {
      // not remembered across reloads, but the switch itself still works
    }
  }

  t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
    return formatMessage(this.#bundle.messages[key], params, this.locale);
  }

  /**
   * An engine message (a refusal, a fault's reason) in `locale`, the page's by default. The page
   * renders only in a locale whose chunk is in; asking for another is a bug, said as one.
   */
  engineText(text: EngineMessage | string, locale: Locale = this.locale): string {
    const bundle = this.#bundles[locale];
    if (!bundle) throw new Error(`The ${locale} text is not loaded (i18n.load('${locale}') first).`);
    return renderIn(text, bundle.engineMessages);
  }

  /** A number formatted for the current locale (grouping separators). */
  formatNumber(value: number): string {
    const grouped = groupedInteger(value);
    if (grouped !== undefined) return grouped;
    // One formatter per locale: toLocaleString builds a new one per call, a main-thread cost at every refresh.
    const format = (NUMBER_FORMATS[this.locale] ??= new Intl.NumberFormat(this.locale));
    return format.format(value);
  }

  /** A Flink option's one-line explanation; English (the engine's own) when not translated. */
  optionDescription(option: FlinkOption): string {
    return this.#bundle.optionDescriptions[option.key] ?? option.description;
  }

  /** Why an option's default is what it is (its default note, or the meaning of its sentinel value). */
  optionDefaultNote(option: FlinkOption): string | undefined {
    const english = option.defaultNote ?? (option.sentinel ? `${option.sentinel.value}: ${option.sentinel.meaning}` : undefined);
    if (english === undefined) return english;
    return this.#bundle.optionDefaultNotes[option.key] ?? english;
  }

  /**
   * A scenario's name or description in the page's language: the scenario's file carries its own
   * translations (localized-text.ts); a one-language scenario shows its text as written.
   */
  scenarioText(scenario: ScenarioTexts, field: LocalizedField): string {
    return scenarioTextIn(scenario, field, this.locale);
  }
}

export const i18n = new I18n();

/** Translates `key` in the current locale; reactive when called from markup or `$derived`. */
export function t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  return i18n.t(key, params);
}

export { type Locale, type MessageKey };

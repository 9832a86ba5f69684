/**
 * The UI's tiny i18n layer: the current locale as reactive state, and `t(key, params)`.
 *
 * The locale follows the browser's preferred languages until the user picks one in the header;
 * that choice is remembered in localStorage so it survives a reload.
 */
import type { FlinkOption } from '../../engine/config/flink-options.ts';
import { locales, scenarioNames, type Locale, type MessageKey } from './messages.ts';
import { optionDefaultNotes, optionDescriptions } from './option-descriptions.ts';
import { formatMessage } from './message-format.ts';

const STORAGE_KEY = 'checkpoint-playground.locale';

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

  readonly locale: Locale = $derived(this.#chosen ?? this.#preferred);

  constructor() {
    globalThis.addEventListener?.('languagechange', () => {
      this.#preferred = preferredLocale();
    });
  }

  /** Switches the language; `remember` keeps the choice across reloads (an embedded page does not). */
  setLocale(locale: Locale, remember = true): void {
    this.#chosen = locale;
    if (!remember) return;
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, locale);
    } catch {
      // not remembered across reloads, but the switch itself still works
    }
  }

  t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
    return formatMessage(locales[this.locale].messages[key], params, this.locale);
  }

  /** A number formatted for the current locale (grouping separators). */
  formatNumber(value: number): string {
    return value.toLocaleString(this.locale);
  }

  /** A Flink option's one-line explanation; English (the engine's own) when not translated. */
  optionDescription(option: FlinkOption): string {
    return this.locale === 'en' ? option.description : (optionDescriptions[this.locale][option.key] ?? option.description);
  }

  /** Why an option's default is what it is (its default note, or the meaning of its sentinel value). */
  optionDefaultNote(option: FlinkOption): string | undefined {
    const english = option.defaultNote ?? (option.sentinel ? `${option.sentinel.value}: ${option.sentinel.meaning}` : undefined);
    if (english === undefined || this.locale === 'en') return english;
    return optionDefaultNotes[this.locale][option.key] ?? english;
  }

  scenarioName(file: string, fallback: string): string {
    return scenarioNames[this.locale][file] ?? fallback;
  }
}

export const i18n = new I18n();

/** Translates `key` in the current locale; reactive when called from markup or `$derived`. */
export function t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  return i18n.t(key, params);
}

export { locales, type Locale, type MessageKey };

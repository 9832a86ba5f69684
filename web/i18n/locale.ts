/**
 * The locales the UI offers and what each brings. English is in the first page's chunk; every
 * other locale is a chunk of its own (zh-CN/locale-zh-cn.ts) that the i18n layer loads before
 * it switches to it (i18n.svelte.ts), so text never renders half in one language.
 */
import type { Catalogue } from '../../engine/messages/english-messages.ts';
import type { Messages } from './messages-en.ts';

/** Each locale's name in its own language: the language picker's options. */
export const LOCALE_LABELS = { en: 'English', 'zh-CN': '中文' } as const;

export type Locale = keyof typeof LOCALE_LABELS;

/** Everything a locale translates, loaded as one piece. */
export interface LocaleBundle {
  readonly messages: Messages;
  /** the engine's messages (the validator's, the JobMaster's refusals): the page renders their codes with it */
  readonly engineMessages: Catalogue;
  /** Flink options' one-line explanations by key; missing ones fall back to the engine's English */
  readonly optionDescriptions: Readonly<Record<string, string>>;
  /** why an option's default is what it is, by key; missing ones fall back to English */
  readonly optionDefaultNotes: Readonly<Record<string, string>>;
}

/**
 * Building and rendering the engine's messages. `message(code, params)` is how the engine says
 * something to a user; `renderIn` turns it into text with a language's catalogue. Every language
 * shares one walk over nested messages, so a noun inside a sentence is rendered in the sentence's
 * language.
 *
 * Only English is here: this module is in every bundle that holds engine code (the page's first
 * chunk included), and the page loads another language's catalogue with that language's text
 * (web/i18n/locale.ts). Code that has every language at hand (the CLI, tests) renders by locale
 * through message-catalogues.ts.
 */
import { ENGLISH_CATALOGUE, type Catalogue } from './english-messages.ts';
import type { EngineMessage, MessageCode, MessageLocale, MessageParams } from './message-codes.ts';

/** A language the messages render in: its locale (for the words around them) and its catalogue. */
export interface MessageLanguage {
  readonly locale: MessageLocale;
  readonly catalogue: Catalogue;
}

export const ENGLISH: MessageLanguage = { locale: 'en', catalogue: ENGLISH_CATALOGUE };

export function message<C extends MessageCode>(code: C, ...params: keyof MessageParams[C] extends never ? [] : [MessageParams[C]]): EngineMessage {
  return { code, params: params[0] ?? {} } as EngineMessage;
}

/** The message in the language of `catalogue`; a plain string (a parser's own words, never translated) comes back as it is. */
export function renderIn(text: EngineMessage | string, catalogue: Catalogue): string {
  if (typeof text === 'string') return text;
  const render = catalogue[text.code] as (params: unknown, render: (m: EngineMessage | string) => string) => string;
  return render(text.params, (nested) => renderIn(nested, catalogue));
}

/** The message in English: the CLI's and the Playground API's text. */
export function renderEnglish(text: EngineMessage | string): string {
  return renderIn(text, ENGLISH_CATALOGUE);
}

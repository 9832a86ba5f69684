/**
 * Building and rendering the engine's messages. `message(code, params)` is how the engine says
 * something to a user; `renderMessage` turns it into text in a language. Both languages share one
 * walk over nested messages, so a noun inside a sentence is rendered in the sentence's language.
 */
import { ENGLISH_CATALOGUE, type Catalogue } from './english-messages.ts';
import type { EngineMessage, MessageCode, MessageLocale, MessageParams } from './message-codes.ts';
import { CHINESE_CATALOGUE } from './zh-cn-messages.ts';

export const MESSAGE_LOCALES: readonly MessageLocale[] = ['en', 'zh-CN'];

export const CATALOGUES: { readonly [L in MessageLocale]: Catalogue } = { en: ENGLISH_CATALOGUE, 'zh-CN': CHINESE_CATALOGUE };

export function message<C extends MessageCode>(code: C, ...params: keyof MessageParams[C] extends never ? [] : [MessageParams[C]]): EngineMessage {
  return { code, params: params[0] ?? {} } as EngineMessage;
}

/** The message in `locale`; a plain string (a parser's own words, never translated) comes back as it is. */
export function renderMessage(text: EngineMessage | string, locale: MessageLocale): string {
  if (typeof text === 'string') return text;
  const render = CATALOGUES[locale][text.code] as (params: unknown, render: (m: EngineMessage | string) => string) => string;
  return render(text.params, (nested) => renderMessage(nested, locale));
}

/** The message in English: the CLI's and the Playground API's text. */
export function renderEnglish(text: EngineMessage | string): string {
  return renderMessage(text, 'en');
}

/**
 * Every language of the engine's messages at once, by locale: for the CLI (`--lang zh-CN`) and
 * tests, which have them all at hand. The page never imports this module's values: its first chunk
 * holds English only (engine-message.ts) and each other language's catalogue comes with that
 * language's chunk (web/i18n/zh-CN/locale-zh-cn.ts).
 */
import type { Catalogue } from './english-messages.ts';
import { ENGLISH_CATALOGUE } from './english-messages.ts';
import { renderIn, type MessageLanguage } from './engine-message.ts';
import type { EngineMessage, MessageLocale } from './message-codes.ts';
import { CHINESE_CATALOGUE } from './zh-cn-messages.ts';

export const MESSAGE_LOCALES: readonly MessageLocale[] = ['en', 'zh-CN'];

export const CATALOGUES: { readonly [L in MessageLocale]: Catalogue } = { en: ENGLISH_CATALOGUE, 'zh-CN': CHINESE_CATALOGUE };

export const LANGUAGES: { readonly [L in MessageLocale]: MessageLanguage } = {
  en: { locale: 'en', catalogue: ENGLISH_CATALOGUE },
  'zh-CN': { locale: 'zh-CN', catalogue: CHINESE_CATALOGUE },
};

/** The message in `locale`; a plain string (a parser's own words, never translated) comes back as it is. */
export function renderMessage(text: EngineMessage | string, locale: MessageLocale): string {
  return renderIn(text, CATALOGUES[locale]);
}

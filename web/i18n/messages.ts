/**
 * Every locale's UI text at once, for code that is not the page's first chunk (tests, tools).
 * The page itself never imports this module's values: English is in messages-en.ts and each other
 * locale is a chunk of its own, loaded by the i18n layer (i18n.svelte.ts) when the page needs it.
 */
import { LOCALE_LABELS, type Locale } from './locale.ts';
import { en as pageWideEn, type Messages } from './messages-en.ts';
import { docsEn } from './messages-docs.ts';
import { plannerEn } from './messages-planner.ts';
import { zhCN } from './zh-CN/messages.ts';

/** All English text: the page-wide messages and the planner's and docs pages' own. */
const en: Messages = { ...pageWideEn, ...plannerEn, ...docsEn };

export { en, zhCN };
export type { Locale };
export type { MessageKey, Messages } from './messages-en.ts';

export const locales = {
  en: { label: LOCALE_LABELS.en, messages: en },
  'zh-CN': { label: LOCALE_LABELS['zh-CN'], messages: zhCN },
} as const satisfies Record<Locale, { label: string; messages: Messages }>;

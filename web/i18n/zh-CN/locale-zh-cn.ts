/** The zh-CN locale as one chunk: the i18n layer imports it only when the page is (or turns) Chinese. */
import { CHINESE_CATALOGUE } from '../../../engine/messages/zh-cn-messages.ts';
import type { LocaleBundle } from '../locale.ts';
import { optionDefaultNotes, optionDescriptions } from '../option-descriptions.ts';
import { zhCN } from './messages.ts';

export const zhCNBundle: LocaleBundle = {
  messages: zhCN,
  engineMessages: CHINESE_CATALOGUE,
  optionDescriptions: optionDescriptions['zh-CN'],
  optionDefaultNotes: optionDefaultNotes['zh-CN'],
};

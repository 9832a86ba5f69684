/**
 * `--lang en|zh-CN`, as every ckpt-lab command that takes it reads it: the language of the
 * validator's errors and notes and of the doctor's findings. The rest of the output (summaries,
 * JSON) stays English, like Flink's own logs.
 */
import { MESSAGE_LOCALES } from '../messages/message-catalogues.ts';
import type { MessageLocale } from '../messages/message-codes.ts';

export const LANG_USAGE = `  --lang LANG         the language of the validator's errors and notes and of the doctor's findings: en (default) or zh-CN`;

/** The locale `value` names, or what is wrong with it. */
export function readLang(value: string | undefined): { locale: MessageLocale } | { problem: string } {
  const locale = MESSAGE_LOCALES.find((l) => l === value);
  if (locale !== undefined) return { locale };
  return { problem: `--lang must be one of ${MESSAGE_LOCALES.join(', ')}, got ${value === undefined ? 'nothing' : `"${value}"`}` };
}

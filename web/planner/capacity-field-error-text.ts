/**
 * A planner form problem in the learner's language: the field's label, what is wrong with it and
 * what it accepts. A parser's own message (Flink's duration or memory-size syntax) is a message
 * code, rendered as the scenario validator's are.
 */
import type { CapacityField, CapacityFieldError, CapacityProblem } from '../../engine/scale/capacity-question.ts';
import { formatMessage } from '../i18n/message-format.ts';
import { locales, type Locale, type MessageKey } from '../i18n/messages.ts';
import { localizeValidationNote } from '../i18n/validation-messages.ts';

const PROBLEM_KEYS: Readonly<Record<Exclude<CapacityProblem, 'unreadable'>, MessageKey>> = {
  empty: 'planner.problem.empty',
  'not-a-number': 'planner.problem.notANumber',
  'not-above-zero': 'planner.problem.notAboveZero',
  'below-minimum': 'planner.problem.belowMinimum',
  'above-maximum': 'planner.problem.aboveMaximum',
  'not-a-parallelism': 'planner.problem.notAParallelism',
  'too-many-parallelisms': 'planner.problem.tooMany',
};

export const fieldLabelKey = (field: CapacityField): MessageKey => `planner.field.${field}`;
export const fieldAllowedKey = (field: CapacityField): MessageKey => `planner.allowed.${field}`;

export function capacityFieldErrorText(error: CapacityFieldError, locale: Locale): string {
  const say = (key: MessageKey, params?: Record<string, string | number>) => formatMessage(locales[locale].messages[key], params, locale);
  const problem =
    error.problem === 'unreadable'
      ? error.parserProblem ? localizeValidationNote(error.parserProblem, locale) : (error.parserMessage ?? '')
      : say(PROBLEM_KEYS[error.problem], { limit: error.detail ?? '', item: error.detail ?? '' });
  return say('planner.error', { field: say(fieldLabelKey(error.field)), problem, allowed: say(fieldAllowedKey(error.field)) });
}

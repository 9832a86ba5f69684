/**
 * A trigger failure (web/dashboard/trigger-failures.ts) in the reader's language: "Checkpoint
 * trigger refused at 0:03.200: NOT_ALL_REQUIRED_TASKS_RUNNING — not all tasks were running …".
 * The reason stays Flink's constant; a reason the page has no explanation for is shown alone.
 */
import type { CheckpointFailureReason } from '../../engine/checkpoint/checkpoint-failure-reason.ts';
import { formatTimestamp } from '../dashboard/flink-format.ts';
import type { TriggerFailure } from '../dashboard/trigger-failures.ts';
import type { Translate } from './fault-text.ts';
import type { MessageKey } from './messages.ts';

/** The reasons a trigger can fail with in the playground, each with what it means for the learner. */
const EXPLANATIONS: Partial<Record<CheckpointFailureReason, MessageKey>> = {
  NOT_ALL_REQUIRED_TASKS_RUNNING: 'checkpoints.triggerFailures.why.NOT_ALL_REQUIRED_TASKS_RUNNING',
};

export const EXPLAINED_TRIGGER_FAILURE_REASONS = Object.keys(EXPLANATIONS) as CheckpointFailureReason[];

export function triggerFailureText(failure: TriggerFailure, translate: Translate): string {
  const why = EXPLANATIONS[failure.reason as CheckpointFailureReason];
  const reason = why ? translate('checkpoints.triggerFailures.explained', { reason: failure.reason, explanation: translate(why) }) : failure.reason;
  const key = failure.isSavepoint ? 'checkpoints.triggerFailures.savepoint' : 'checkpoints.triggerFailures.checkpoint';
  return translate(key, { time: formatTimestamp(failure.time), reason });
}

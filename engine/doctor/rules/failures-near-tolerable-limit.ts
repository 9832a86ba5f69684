/**
 * (g) Flink fails the job when more checkpoints fail in a row than
 * execution.checkpointing.tolerable-failed-checkpoints allows (CheckpointFailureManager counts
 * consecutive failures). Failures close to that limit call for a longer
 * execution.checkpointing.timeout (most failures are CHECKPOINT_EXPIRED) or a higher tolerance.
 */
import type { CheckpointStatisticsDocument } from '../../checkpoint/stats/rest-document-types.ts';
import { CHECKPOINT_FAILURE_REASONS } from '../../checkpoint/checkpoint-failure-reason.ts';
import { checkpointHistory, completedCheckpoints } from '../checkpoint-history.ts';
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';

/** "Near the limit": a run of consecutive failures of at least half the tolerable number (and at least one). */
const NEAR_LIMIT_SHARE = 0.5;
/**
 * Without the config the limit is unknown: two failures in a row are a pattern. Failures counted
 * in `counts.failed` but absent from the history (failed before they became checkpoints) are not
 * judged: the doctor cannot tell when they happened.
 */
const CONSECUTIVE_WITHOUT_LIMIT = 2;

export const failuresNearTolerableLimit: DoctorRule = {
  id: 'failures-near-tolerable-limit',
  diagnose(documents: DoctorDocuments): Finding[] {
    const history = checkpointHistory(documents);
    const consecutive = longestCountedRun(history);
    const tolerable = documents.checkpointConfig?.tolerable_failed_checkpoints;
    const limit = tolerable === undefined ? CONSECUTIVE_WITHOUT_LIMIT : Math.max(1, Math.ceil(NEAR_LIMIT_SHARE * tolerable));
    if (consecutive < limit) return [];
    const failed = [...history].reverse().find((c) => c.className === 'failed');
    const slowest = Math.max(-1, ...completedCheckpoints(documents).map((c) => c.end_to_end_duration));
    return [{
      code: 'failures-near-tolerable-limit',
      lesson: 'timeout-and-tolerable-failures',
      params: {
        consecutive,
        tolerable: tolerable ?? -1,
        timeoutMs: documents.checkpointConfig?.timeout ?? -1,
        slowestCompletedMs: slowest,
        reason: failed?.className === 'failed' ? (failed.failure_message ?? '') : '',
      },
    }];
  },
};

/**
 * Flink's continuous failure counter: a completed checkpoint resets it, a failure counts unless
 * its reason is one Flink does not count (a failover suspending the coordinator, a subsumed
 * checkpoint…), and those neither count nor reset. The history only has the failure message: one
 * that starts with no known reason's message (a real job's exception text) is counted.
 */
function longestCountedRun(history: readonly CheckpointStatisticsDocument[]): number {
  let longest = 0;
  let run = 0;
  for (const checkpoint of history) {
    if (checkpoint.className === 'completed') run = 0;
    else if (checkpoint.className === 'failed' && isCounted(checkpoint.failure_message)) run++;
    longest = Math.max(longest, run);
  }
  return longest;
}

const UNCOUNTED_MESSAGES = Object.values(CHECKPOINT_FAILURE_REASONS).filter((r) => !r.counted).map((r) => r.message);

function isCounted(message: string | null): boolean {
  return message === null || !UNCOUNTED_MESSAGES.some((uncounted) => message.startsWith(uncounted));
}

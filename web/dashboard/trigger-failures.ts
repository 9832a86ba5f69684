/**
 * The checkpoints that failed before they were created, for the Overview: a trigger the
 * coordinator refused (e.g. NOT_ALL_REQUIRED_TASKS_RUNNING while the job restarts). Flink counts
 * each in Triggered and Failed (reportFailedCheckpointsWithoutInProgress) but, without an id, it
 * has no history entry and its dashboard shows it nowhere; the page lists them with their reason
 * so the counts add up. Requests the decider merely dropped (min pause, a full queue) are not
 * failed checkpoints and are not listed. Pure: web/i18n/trigger-failure-text.ts says them.
 */
import { isFailedCheckpointWithoutId } from '../../engine/checkpoint/checkpoint-request-decider.ts';
import type { JobEvent } from '../../engine/run/job-events.ts';

export interface TriggerFailure {
  time: number;
  reason: string;
  isSavepoint: boolean;
}

/** Newest first, as the history lists checkpoints. */
export function triggerFailures(events: readonly JobEvent[]): TriggerFailure[] {
  const failures: TriggerFailure[] = [];
  for (const e of events) {
    if (e.type === 'checkpoint-request-dropped' && isFailedCheckpointWithoutId(e.reason)) {
      failures.push({ time: e.time, reason: e.reason, isSavepoint: e.isSavepoint ?? false });
    }
  }
  return failures.reverse();
}

/**
 * What the backlog chart marks after each failure, the second article's 容量规划 (lesson 10): when
 * the job failed, when it ran again, and when the sources' pendingRecords was caught up. The times
 * are the run's own (engine/run/catch-up-time.ts, as stats() reports `catchUpMs` and the
 * `catch-up-time` expectation judges it), in the chart's unit, seconds of job time.
 */
import { failureTimes, type CatchUp } from '../../engine/run/catch-up-time.ts';
import type { JobEvent, RestoreRecord } from '../../engine/run/job-events.ts';

export interface CatchUpMarker {
  /** s: the job left RUNNING */
  failedAt: number;
  /** s: RUNNING again, restored */
  restoredAt: number;
  /** s: the backlog back at its level before the failure; null while it is not yet */
  caughtUpAt: number | null;
  /** the catch-up time, ms from the restore until caught up; null while not caught up */
  catchUpMs: number | null;
}

/** `catchUps`: one per restore, in order (the driver's catchUps()). */
export function catchUpMarkers(restores: readonly Pick<RestoreRecord, 'time'>[], events: readonly JobEvent[], catchUps: readonly CatchUp[]): CatchUpMarker[] {
  const failures = failureTimes(restores, events);
  return restores.flatMap((restore, i): CatchUpMarker[] => {
    const catchUp = catchUps[i];
    if (!catchUp) return [];
    const caughtUpAt = catchUp.catchUpMs === null ? null : (restore.time + catchUp.catchUpMs) / 1000;
    return [{ failedAt: failures[i]! / 1000, restoredAt: restore.time / 1000, caughtUpAt, catchUpMs: catchUp.catchUpMs }];
  });
}

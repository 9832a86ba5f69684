/**
 * How long the job took after each restore to catch up with its sources, the second article's
 * point on capacity planning: "在发生故障后，需要足够的资源追上（catch up）输入数据流". A restore is
 * caught up from the first backlog sample after which the sources' pendingRecords stays at its
 * level before the failure (or about 0) until the next failure: a dip while records merely moved
 * into network buffers is not caught up yet.
 */
import type { BacklogSample } from '../metrics/source-backlog.ts';
import type { JobEvent, RestoreRecord } from './job-events.ts';

/** One restore's catch-up, as `restores[]` in the run report carries it. */
export interface CatchUp {
  /** job time from RUNNING again (the restore) until caught up; null while not caught up */
  catchUpMs: number | null;
  /** job time since the restore, up to now or the next failure: a lower bound while not caught up */
  elapsedMs: number;
}

/** How far back from the failure the backlog's usual level is read. */
const LEVEL_WINDOW_MS = 5000;
/** "About 0": a backlog this small is caught up even when it was lower before the failure. */
const CAUGHT_UP_RECORDS = 10;

export function catchUpTimes(restores: readonly RestoreRecord[], events: readonly JobEvent[], samples: readonly BacklogSample[], now: number): CatchUp[] {
  const failures = failureTimes(restores, events);
  return restores.map((restore, i) => {
    const end = i + 1 < restores.length ? failures[i + 1]! : now;
    return catchUpOf(restore.time, end, backlogLevel(samples, failures[i]!), samples);
  });
}

/**
 * Per restore, when the job left RUNNING before it (the failure it recovers from): where its
 * backlog's level is read, and where the backlog chart marks the failure.
 */
export function failureTimes(restores: readonly Pick<RestoreRecord, 'time'>[], events: readonly JobEvent[]): number[] {
  return restores.map((r, i) => failureTime(events, r.time, i === 0 ? -Infinity : restores[i - 1]!.time));
}

/** When the job left RUNNING before the restore at `running` (after the restore before it); the restore's own time if it never did. */
function failureTime(events: readonly JobEvent[], running: number, previousRunning: number): number {
  const left = events.find((e) => e.type === 'job-status' && e.status !== 'RUNNING' && e.time > previousRunning && e.time <= running);
  return left?.time ?? running;
}

/** The highest backlog in the seconds before the failure, or about 0. */
function backlogLevel(samples: readonly BacklogSample[], failure: number): number {
  let level = CAUGHT_UP_RECORDS;
  for (const s of samples) if (s.time >= failure - LEVEL_WINDOW_MS && s.time < failure) level = Math.max(level, s.pendingRecords);
  return level;
}

/** The first sample in [running, end] from which the backlog stays at `level`; null if it rises above it at the last one (or none came yet). */
function catchUpOf(running: number, end: number, level: number, samples: readonly BacklogSample[]): CatchUp {
  const elapsedMs = Math.max(0, end - running);
  let caughtUpAt: number | null = null;
  for (const s of samples) {
    if (s.time < running || s.time > end) continue;
    if (s.pendingRecords > level) caughtUpAt = null;
    else caughtUpAt ??= s.time;
  }
  return { catchUpMs: caughtUpAt === null ? null : caughtUpAt - running, elapsedMs };
}

/**
 * What a run showed of its checkpoints, in the figures the seed articles tell a learner to watch:
 * the pause between consecutive checkpoints (the first article's "compare the start times of two
 * consecutive checkpoints"), how many were in progress at once, how long they took, why they
 * failed, and how long barrier alignment took (the second article's alignment duration). The
 * `statistic` expectations and the lessons' "seen it" checks read these; everything comes from
 * the job events and Flink's checkpoint statistics, as a user sees them.
 */
import type { CheckpointStatsTracker } from '../checkpoint/stats/checkpoint-stats-tracker.ts';
import type { JobEvent } from './job-events.ts';

export interface CheckpointObservations {
  /**
   * per checkpoint triggered after an earlier one completed: ms from the latest completion to its
   * trigger; 0 when another checkpoint was still in progress when it was triggered
   */
  pausesMs: number[];
  /** per completed checkpoint (savepoints left out): trigger to completion, ms */
  endToEndMs: number[];
  /** per checkpoint trigger: how many were in progress just after it, itself included */
  concurrent: number[];
  /** per failed checkpoint: Flink's CheckpointFailureReason */
  failureReasons: string[];
  /**
   * per completed checkpoint still in the statistics' history (`web.checkpoints.history`): the
   * longest alignment of any subtask, ms
   */
  alignmentMs: number[];
  /** likewise, the longest start delay of any subtask (trigger to its first barrier), ms */
  startDelayMs: number[];
  /** likewise, the in-flight bytes the checkpoint persisted (unaligned checkpoints) */
  persistedBytes: number[];
  /** likewise, its checkpointed size over its full state size: 1 for a full checkpoint, less for an incremental one */
  checkpointedFractions: number[];
  /** likewise, the bytes it checkpointed (uploaded) */
  checkpointedBytes: number[];
  /** likewise, the longest synchronous phase of any subtask, ms (the task processes no records meanwhile) */
  syncMs: number[];
}

export const NO_CHECKPOINT_OBSERVATIONS: CheckpointObservations = {
  pausesMs: [],
  endToEndMs: [],
  concurrent: [],
  failureReasons: [],
  alignmentMs: [],
  startDelayMs: [],
  persistedBytes: [],
  checkpointedFractions: [],
  checkpointedBytes: [],
  syncMs: [],
};

type EventObservations = Pick<CheckpointObservations, 'pausesMs' | 'endToEndMs' | 'concurrent' | 'failureReasons'>;
type StatisticsObservations = Pick<
  CheckpointObservations,
  'alignmentMs' | 'startDelayMs' | 'persistedBytes' | 'checkpointedFractions' | 'checkpointedBytes' | 'syncMs'
>;

/** The observations of a run so far, from its job events and its statistics tracker. */
export function observeCheckpoints(events: readonly JobEvent[], stats: CheckpointStatsTracker): CheckpointObservations {
  return { ...observeEvents(events), ...observeStatistics(stats) };
}

function observeEvents(events: readonly JobEvent[]): EventObservations {
  const seen: EventObservations = { pausesMs: [], endToEndMs: [], concurrent: [], failureReasons: [] };
  /** in-progress checkpoints (savepoints are not periodic checkpoints: left out) → trigger time */
  const pending = new Map<number, number>();
  let lastCompletion: number | undefined;
  for (const e of events) {
    if (e.type === 'checkpoint-triggered' && !e.isSavepoint) {
      if (lastCompletion !== undefined) seen.pausesMs.push(pending.size > 0 ? 0 : elapsedMs(lastCompletion, e.time));
      pending.set(e.checkpointId, e.time);
      seen.concurrent.push(pending.size);
    } else if (e.type === 'checkpoint-completed' && !e.isSavepoint) {
      const trigger = pending.get(e.checkpointId);
      if (trigger !== undefined) seen.endToEndMs.push(elapsedMs(trigger, e.time));
      pending.delete(e.checkpointId);
      lastCompletion = e.time;
    } else if (e.type === 'checkpoint-failed') {
      pending.delete(e.checkpointId);
      seen.failureReasons.push(e.reason);
    } else if (e.type === 'job-status' && e.status !== 'RUNNING') {
      // A failover or the end of the job aborts whatever was in progress.
      pending.clear();
    }
  }
  return seen;
}

/**
 * The time from `from` to `to`, to the nanosecond. Job times are fractional milliseconds, so a
 * trigger scheduled exactly min-pause after a completion can subtract to 499.99999999999955 ms;
 * rounding the difference keeps such float noise from breaking an expectation of "at least 500 ms".
 */
function elapsedMs(from: number, to: number): number {
  return Math.round((to - from) * 1e6) / 1e6;
}

/** Per completed checkpoint in the history (the dashboard's): the longest alignment and start delay of any subtask, the persisted and checkpointed bytes, the checkpointed share of the state, the longest sync phase. */
function observeStatistics(stats: CheckpointStatsTracker): StatisticsObservations {
  const seen: StatisticsObservations = { alignmentMs: [], startDelayMs: [], persistedBytes: [], checkpointedFractions: [], checkpointedBytes: [], syncMs: [] };
  for (const entry of stats.checkpointingStatistics().history) {
    if (entry.status !== 'COMPLETED' || entry.is_savepoint) continue;
    let alignment = 0;
    let startDelay = 0;
    let sync = 0;
    for (const vertex of Object.keys(stats.checkpointDetails(entry.id)?.tasks ?? {})) {
      const summary = stats.taskCheckpointStatistics(entry.id, vertex)?.summary;
      alignment = Math.max(alignment, summary?.alignment.duration.max ?? 0);
      startDelay = Math.max(startDelay, summary?.start_delay.max ?? 0);
      sync = Math.max(sync, summary?.checkpoint_duration.sync.max ?? 0);
    }
    seen.alignmentMs.push(alignment);
    seen.startDelayMs.push(startDelay);
    seen.persistedBytes.push(entry.persisted_data);
    seen.checkpointedBytes.push(entry.checkpointed_size);
    seen.syncMs.push(sync);
    if (entry.state_size > 0) seen.checkpointedFractions.push(entry.checkpointed_size / entry.state_size);
  }
  return seen;
}

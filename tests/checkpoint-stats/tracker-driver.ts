/** Helpers that drive a CheckpointStatsTracker the way the checkpoint coordinator does. */
import { CheckpointStatsTracker, type SubtaskCheckpointStats } from '../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';

export const SOURCE = 'bc764cd8ddf7a0cff126f51c16239658';
export const WINDOW = '0a448493b4782967b150582570326227';

/** A source with parallelism 2 and a window operator with parallelism 3. */
export const TWO_VERTICES = [
  { vertexId: SOURCE, parallelism: 2 },
  { vertexId: WINDOW, parallelism: 3 },
];

export function newTracker(historySize = 10, vertices = TWO_VERTICES): CheckpointStatsTracker {
  return new CheckpointStatsTracker({ historySize, vertices });
}

export function subtaskStats(overrides: Partial<SubtaskCheckpointStats> = {}): SubtaskCheckpointStats {
  return {
    subtaskIndex: 0,
    ackTimestamp: 1_000,
    stateSize: 100,
    checkpointedSize: 40,
    syncDurationMs: 2,
    asyncDurationMs: 5,
    alignmentDurationMs: 3,
    startDelayMs: 1,
    processedDataBytes: 0,
    persistedDataBytes: 0,
    unalignedCheckpoint: false,
    aborted: false,
    ...overrides,
  };
}

/**
 * Every subtask of every vertex acknowledges, one after the other, 1 ms apart from `firstAckAt`.
 * @returns the timestamp of the last acknowledgement
 */
export function acknowledgeAll(
  tracker: CheckpointStatsTracker,
  id: number,
  firstAckAt: number,
  overrides: Partial<SubtaskCheckpointStats> = {},
  vertices = TWO_VERTICES,
): number {
  let ackTimestamp = firstAckAt;
  for (const { vertexId, parallelism } of vertices) {
    for (let subtaskIndex = 0; subtaskIndex < parallelism; subtaskIndex++) {
      tracker.reportSubtaskStats(id, vertexId, subtaskStats({ ...overrides, subtaskIndex, ackTimestamp }));
      ackTimestamp++;
    }
  }
  return ackTimestamp - 1;
}

/** Trigger, acknowledge everything, complete: a checkpoint as it normally goes. */
export function completeCheckpoint(
  tracker: CheckpointStatsTracker,
  id: number,
  triggerTimestamp: number,
  overrides: Partial<SubtaskCheckpointStats> = {},
): void {
  tracker.reportPendingCheckpoint(id, triggerTimestamp, 'CHECKPOINT');
  acknowledgeAll(tracker, id, triggerTimestamp + 10, overrides);
  tracker.reportCompletedCheckpoint(id, `file:///checkpoints/job/chk-${id}`);
}

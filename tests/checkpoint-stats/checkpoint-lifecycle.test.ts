import { describe, expect, it } from 'vitest';
import { CheckpointStatsTracker } from '../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import { acknowledgeAll, completeCheckpoint, newTracker, SOURCE, subtaskStats, WINDOW } from './tracker-driver.ts';

const historyEntry = (tracker: CheckpointStatsTracker, id: number) => {
  const entry = tracker.checkpointingStatistics().history.find((e) => e.id === id);
  if (entry === undefined) throw new Error(`checkpoint ${id} is not in the history`);
  return entry;
};

describe('a checkpoint in progress', () => {
  it('reports -1 as latest_ack_timestamp and end_to_end_duration before the first acknowledgement', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 5_000, 'CHECKPOINT');
    const entry = historyEntry(tracker, 1);
    expect(entry).toMatchObject({ className: 'in_progress', status: 'IN_PROGRESS', latest_ack_timestamp: -1, end_to_end_duration: -1 });
    expect(entry).toMatchObject({ num_subtasks: 5, num_acknowledged_subtasks: 0, checkpointed_size: 0, state_size: 0 });
  });

  it('counts as triggered and in progress', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 5_000, 'CHECKPOINT');
    expect(tracker.checkpointingStatistics().counts).toEqual({ restored: 0, total: 1, in_progress: 1, completed: 0, failed: 0 });
  });

  it('adds up acknowledgements as they arrive, measuring to the latest one', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 5_000, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 0, ackTimestamp: 5_020, stateSize: 100, checkpointedSize: 40 }));
    tracker.reportSubtaskStats(1, WINDOW, subtaskStats({ subtaskIndex: 2, ackTimestamp: 5_035, stateSize: 300, checkpointedSize: 70 }));
    expect(historyEntry(tracker, 1)).toMatchObject({
      latest_ack_timestamp: 5_035,
      end_to_end_duration: 35,
      num_acknowledged_subtasks: 2,
      state_size: 400,
      checkpointed_size: 110,
    });
  });

  it('takes the acknowledgement reported last as the latest, even with an earlier timestamp', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 5_000, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 0, ackTimestamp: 5_050 }));
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 1, ackTimestamp: 5_010 }));
    expect(historyEntry(tracker, 1)).toMatchObject({ latest_ack_timestamp: 5_010, end_to_end_duration: 10 });
  });

  it('sums only positive in-flight data, which unaligned subtasks persist', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, WINDOW, subtaskStats({ subtaskIndex: 0, processedDataBytes: 4_096, persistedDataBytes: 1_024 }));
    tracker.reportSubtaskStats(1, WINDOW, subtaskStats({ subtaskIndex: 1, processedDataBytes: -1, persistedDataBytes: -1 }));
    expect(historyEntry(tracker, 1)).toMatchObject({ processed_data: 4_096, persisted_data: 1_024, alignment_buffered: 0 });
  });

  it('ignores a second report for the same subtask, unknown vertices and indices beyond the parallelism', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 0, stateSize: 100 }));
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 0, stateSize: 999 }));
    tracker.reportSubtaskStats(1, 'no-such-vertex', subtaskStats({ subtaskIndex: 0 }));
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 2 }));
    expect(historyEntry(tracker, 1)).toMatchObject({ num_acknowledged_subtasks: 1, state_size: 100 });
  });

  it('ignores reports for checkpoint ids it never saw triggered', () => {
    const tracker = newTracker();
    tracker.reportSubtaskStats(7, SOURCE, subtaskStats());
    tracker.reportCompletedCheckpoint(7, 'file:///chk-7');
    tracker.reportFailedCheckpoint(7, 10, 'expired');
    expect(tracker.checkpointingStatistics().counts).toEqual({ restored: 0, total: 0, in_progress: 0, completed: 0, failed: 0 });
  });

  it('lists an aborted subtask without counting it as an acknowledgement', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 0, aborted: true, ackTimestamp: 50, stateSize: 10 }));
    expect(historyEntry(tracker, 1)).toMatchObject({ num_acknowledged_subtasks: 0, latest_ack_timestamp: -1, state_size: 10 });
  });
});

describe('figures as Java longs', () => {
  it('truncates fractional milliseconds and bytes before any arithmetic, as Flink only has longs', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 417.9, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 0, ackTimestamp: 467.49, stateSize: 99.5, syncDurationMs: 0.7 }));
    tracker.reportFailedCheckpoint(1, 10_000.221, 'Checkpoint Coordinator is suspending.');
    expect(historyEntry(tracker, 1)).toMatchObject({
      trigger_timestamp: 417,
      latest_ack_timestamp: 467,
      end_to_end_duration: 9_583,
      state_size: 99,
      failure_timestamp: 10_000,
    });
    expect(tracker.taskCheckpointStatistics(1, SOURCE)?.subtasks[0]).toMatchObject({ end_to_end_duration: 50, checkpoint: { sync: 0 } });
  });

  it('rejects a timestamp that is not a finite number with a RangeError', () => {
    const tracker = newTracker();
    expect(() => tracker.reportPendingCheckpoint(1, Number.NaN, 'CHECKPOINT')).toThrow(/triggerTimestamp must be a finite number/);
    tracker.reportPendingCheckpoint(2, 0, 'CHECKPOINT');
    expect(() => tracker.reportSubtaskStats(2, SOURCE, subtaskStats({ ackTimestamp: Infinity }))).toThrow(RangeError);
  });
});

describe('checkpoint_type', () => {
  it('shows a checkpoint as UNALIGNED_CHECKPOINT once a subtask reports it unaligned', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'UNALIGNED_CHECKPOINT');
    expect(historyEntry(tracker, 1).checkpoint_type).toBe('CHECKPOINT');
    tracker.reportSubtaskStats(1, WINDOW, subtaskStats({ subtaskIndex: 0, unalignedCheckpoint: true }));
    expect(historyEntry(tracker, 1).checkpoint_type).toBe('UNALIGNED_CHECKPOINT');
  });

  it('keeps an aligned-timeout checkpoint whose subtasks all stayed aligned a CHECKPOINT', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'UNALIGNED_CHECKPOINT');
    acknowledgeAll(tracker, 1, 10, { unalignedCheckpoint: false });
    tracker.reportCompletedCheckpoint(1, 'file:///chk-1');
    expect(historyEntry(tracker, 1).checkpoint_type).toBe('CHECKPOINT');
  });

  it('marks savepoints SAVEPOINT, with their format, and checkpoints with a null format', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'SAVEPOINT');
    tracker.reportPendingCheckpoint(2, 0, 'SAVEPOINT', 'NATIVE');
    tracker.reportPendingCheckpoint(3, 0, 'CHECKPOINT');
    expect(historyEntry(tracker, 1)).toMatchObject({ is_savepoint: true, savepointFormat: 'CANONICAL', checkpoint_type: 'SAVEPOINT' });
    expect(historyEntry(tracker, 2)).toMatchObject({ savepointFormat: 'NATIVE' });
    expect(historyEntry(tracker, 3)).toMatchObject({ is_savepoint: false, savepointFormat: null });
  });
});

describe('a completed checkpoint', () => {
  it('becomes className completed with its path, measured from trigger to the latest acknowledgement', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 5_000, 'CHECKPOINT');
    const lastAck = acknowledgeAll(tracker, 1, 5_100);
    tracker.reportCompletedCheckpoint(1, 'file:///checkpoints/job/chk-1');
    expect(historyEntry(tracker, 1)).toMatchObject({
      className: 'completed',
      status: 'COMPLETED',
      latest_ack_timestamp: lastAck,
      end_to_end_duration: lastAck - 5_000,
      num_acknowledged_subtasks: 5,
      external_path: 'file:///checkpoints/job/chk-1',
      discarded: false,
    });
  });

  it('moves from in progress to completed in the counts', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0);
    expect(tracker.checkpointingStatistics().counts).toEqual({ restored: 0, total: 1, in_progress: 0, completed: 1, failed: 0 });
  });

  it('takes no more subtask reports once completed', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 0, stateSize: 100 }));
    tracker.reportCompletedCheckpoint(1, 'file:///chk-1');
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 1, stateSize: 100 }));
    expect(historyEntry(tracker, 1).state_size).toBe(100);
  });

  it('reports every subtask as acknowledged, as Flink only completes fully acknowledged checkpoints', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 0 }));
    tracker.reportCompletedCheckpoint(1, 'file:///chk-1');
    expect(historyEntry(tracker, 1)).toMatchObject({ num_subtasks: 5, num_acknowledged_subtasks: 5 });
  });

  it('shows discarded once it is subsumed', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0);
    completeCheckpoint(tracker, 2, 1_000);
    tracker.reportDiscarded(1);
    expect(historyEntry(tracker, 1)).toMatchObject({ discarded: true });
    expect(historyEntry(tracker, 2)).toMatchObject({ discarded: false });
  });

  it('ignores a discard report for a checkpoint that did not complete', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportDiscarded(1);
    tracker.reportCompletedCheckpoint(1, 'file:///chk-1');
    expect(historyEntry(tracker, 1)).toMatchObject({ discarded: false });
  });
});

describe('a failed checkpoint', () => {
  it('becomes className failed, measured from trigger to failure', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(3, 10_000, 'CHECKPOINT');
    tracker.reportSubtaskStats(3, SOURCE, subtaskStats({ subtaskIndex: 0, ackTimestamp: 10_040 }));
    tracker.reportFailedCheckpoint(3, 70_000, 'Checkpoint expired before completing.');
    expect(historyEntry(tracker, 3)).toMatchObject({
      className: 'failed',
      status: 'FAILED',
      latest_ack_timestamp: 10_040,
      end_to_end_duration: 60_000,
      num_acknowledged_subtasks: 1,
      failure_timestamp: 70_000,
      failure_message: 'Checkpoint expired before completing.',
    });
  });

  it('moves from in progress to failed in the counts', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportFailedCheckpoint(1, 10, 'declined');
    expect(tracker.checkpointingStatistics().counts).toEqual({ restored: 0, total: 1, in_progress: 0, completed: 0, failed: 1 });
  });

  it('counts a failure before triggering in total and failed, without a history entry', () => {
    const tracker = newTracker();
    tracker.reportFailedCheckpointsWithoutInProgress();
    const statistics = tracker.checkpointingStatistics();
    expect(statistics.counts).toEqual({ restored: 0, total: 1, in_progress: 0, completed: 0, failed: 1 });
    expect(statistics.history).toEqual([]);
    expect(statistics.latest.failed).toBeNull();
  });

  it('cannot complete after it failed', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportFailedCheckpoint(1, 10, 'declined');
    tracker.reportCompletedCheckpoint(1, 'file:///chk-1');
    expect(historyEntry(tracker, 1).status).toBe('FAILED');
    expect(tracker.checkpointingStatistics().counts.completed).toBe(0);
  });
});

describe('the history', () => {
  it('lists the newest checkpoint first, in-progress ones included', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0);
    tracker.reportPendingCheckpoint(2, 1_000, 'CHECKPOINT');
    tracker.reportFailedCheckpoint(2, 1_500, 'declined');
    tracker.reportPendingCheckpoint(3, 2_000, 'CHECKPOINT');
    expect(tracker.checkpointingStatistics().history.map((e) => [e.id, e.className])).toEqual([
      [3, 'in_progress'],
      [2, 'failed'],
      [1, 'completed'],
    ]);
  });

  it('keeps only the last web.checkpoints.history entries', () => {
    const tracker = newTracker(10);
    for (let id = 1; id <= 13; id++) completeCheckpoint(tracker, id, id * 1_000);
    const history = tracker.checkpointingStatistics().history;
    expect(history.map((e) => e.id)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);
    expect(tracker.checkpointingStatistics().counts).toMatchObject({ total: 13, completed: 13 });
  });

  it('orders entries by trigger, not by id', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(5, 0, 'CHECKPOINT');
    tracker.reportPendingCheckpoint(4, 10, 'SAVEPOINT');
    expect(tracker.checkpointingStatistics().history.map((e) => e.id)).toEqual([4, 5]);
  });

  it('keeps tracking a checkpoint that left the history while in progress', () => {
    const tracker = newTracker(1);
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportPendingCheckpoint(2, 10, 'CHECKPOINT');
    acknowledgeAll(tracker, 1, 20);
    tracker.reportCompletedCheckpoint(1, 'file:///chk-1');
    const statistics = tracker.checkpointingStatistics();
    expect(statistics.history.map((e) => e.id)).toEqual([2]);
    expect(statistics.latest.completed?.id).toBe(1);
    expect(statistics.counts).toMatchObject({ in_progress: 1, completed: 1 });
  });

  it('stays empty with a history size of 0 while still counting', () => {
    const tracker = newTracker(0);
    completeCheckpoint(tracker, 1, 0);
    const statistics = tracker.checkpointingStatistics();
    expect(statistics.history).toEqual([]);
    expect(statistics.latest.completed?.id).toBe(1);
  });

  it('has no tasks in the overview entries', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0);
    expect(historyEntry(tracker, 1).tasks).toEqual({});
  });
});

describe('latest', () => {
  it('is all null before anything happened', () => {
    expect(newTracker().checkpointingStatistics().latest).toEqual({ completed: null, savepoint: null, failed: null, restored: null });
  });

  it('keeps savepoints apart from completed checkpoints', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0);
    tracker.reportPendingCheckpoint(2, 1_000, 'SAVEPOINT');
    acknowledgeAll(tracker, 2, 1_010);
    tracker.reportCompletedCheckpoint(2, 'file:///savepoints/savepoint-2');
    const latest = tracker.checkpointingStatistics().latest;
    expect(latest.completed).toMatchObject({ id: 1, is_savepoint: false, tasks: {} });
    expect(latest.savepoint).toMatchObject({ id: 2, is_savepoint: true, external_path: 'file:///savepoints/savepoint-2' });
  });

  it('picks the highest id, not the last to finish', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportPendingCheckpoint(2, 10, 'CHECKPOINT');
    for (const id of [2, 1]) {
      acknowledgeAll(tracker, id, 100);
      tracker.reportCompletedCheckpoint(id, `file:///chk-${id}`);
    }
    tracker.reportPendingCheckpoint(3, 200, 'CHECKPOINT');
    tracker.reportPendingCheckpoint(4, 210, 'CHECKPOINT');
    tracker.reportFailedCheckpoint(4, 300, 'declined');
    tracker.reportFailedCheckpoint(3, 310, 'subsumed');
    const latest = tracker.checkpointingStatistics().latest;
    expect(latest.completed?.id).toBe(2);
    expect(latest.failed?.id).toBe(4);
  });

  it('lets an older savepoint that finishes late take the completed slot, as Flink does', () => {
    // CheckpointStatsHistory.replacePendingCheckpointById falls through to the completed-checkpoint
    // branch when a savepoint does not beat the latest savepoint.
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'SAVEPOINT');
    tracker.reportPendingCheckpoint(2, 10, 'SAVEPOINT');
    for (const id of [2, 1]) {
      acknowledgeAll(tracker, id, 100);
      tracker.reportCompletedCheckpoint(id, `file:///savepoint-${id}`);
    }
    const latest = tracker.checkpointingStatistics().latest;
    expect(latest.savepoint?.id).toBe(2);
    expect(latest.completed).toMatchObject({ id: 1, is_savepoint: true });
  });

  it('reports the latest restore and counts every restore', () => {
    const tracker = newTracker();
    tracker.reportRestoredCheckpoint(4, 90_000, false, 'file:///checkpoints/job/chk-4');
    tracker.reportRestoredCheckpoint(6, 120_000, true, null);
    const statistics = tracker.checkpointingStatistics();
    expect(statistics.counts.restored).toBe(2);
    expect(statistics.latest.restored).toEqual({ id: 6, restore_timestamp: 120_000, is_savepoint: true, external_path: null });
  });
});

describe('vertices', () => {
  it('uses the vertices given after a rescale for checkpoints triggered from then on', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.updateVertices([{ vertexId: SOURCE, parallelism: 4 }]);
    tracker.reportPendingCheckpoint(2, 10, 'CHECKPOINT');
    expect(historyEntry(tracker, 1).num_subtasks).toBe(5);
    expect(historyEntry(tracker, 2).num_subtasks).toBe(4);
    expect(Object.keys(tracker.checkpointDetails(2)?.tasks ?? {})).toEqual([SOURCE]);
  });

  it('rejects a vertex without subtasks or listed twice with a RangeError', () => {
    expect(() => newTracker(10, [{ vertexId: SOURCE, parallelism: 0 }])).toThrow(RangeError);
    expect(() => newTracker(10, [{ vertexId: SOURCE, parallelism: 1 }, { vertexId: SOURCE, parallelism: 2 }])).toThrow(/listed twice/);
  });

  it('rejects a negative history size with a RangeError', () => {
    expect(() => newTracker(-1)).toThrow(RangeError);
  });
});

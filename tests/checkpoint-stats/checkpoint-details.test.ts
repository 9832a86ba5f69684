import { describe, expect, it } from 'vitest';
import { acknowledgeAll, completeCheckpoint, newTracker, SOURCE, subtaskStats, WINDOW } from './tracker-driver.ts';

const NAN_PERCENTILES = { p50: 'NaN', p90: 'NaN', p95: 'NaN', p99: 'NaN', p999: 'NaN' };

describe('GET /jobs/:jobid/checkpoints/details/:checkpointid', () => {
  it('is the history entry with one TaskCheckpointStatistics per vertex', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 1_000, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, WINDOW, subtaskStats({ subtaskIndex: 1, ackTimestamp: 1_030, stateSize: 300, checkpointedSize: 30, processedDataBytes: 64 }));
    const details = tracker.checkpointDetails(1);
    expect(details).toMatchObject({ className: 'in_progress', id: 1, num_acknowledged_subtasks: 1 });
    expect(details?.tasks).toEqual({
      [SOURCE]: {
        id: 1, status: 'IN_PROGRESS', latest_ack_timestamp: -1, checkpointed_size: 0, state_size: 0,
        end_to_end_duration: -1, alignment_buffered: 0, processed_data: 0, persisted_data: 0,
        num_subtasks: 2, num_acknowledged_subtasks: 0,
      },
      [WINDOW]: {
        id: 1, status: 'IN_PROGRESS', latest_ack_timestamp: 1_030, checkpointed_size: 30, state_size: 300,
        end_to_end_duration: 30, alignment_buffered: 0, processed_data: 64, persisted_data: 0,
        num_subtasks: 3, num_acknowledged_subtasks: 1,
      },
    });
  });

  it('gives each task the status of its checkpoint', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'CHECKPOINT');
    tracker.reportFailedCheckpoint(1, 50, 'declined');
    const tasks = Object.values(tracker.checkpointDetails(1)?.tasks ?? {});
    expect(tasks.map((t) => t.status)).toEqual(['FAILED', 'FAILED']);
  });

  it('answers for the latest completed checkpoint after it left the history, and not for others', () => {
    const tracker = newTracker(2);
    for (let id = 1; id <= 3; id++) completeCheckpoint(tracker, id, id * 1_000);
    tracker.reportPendingCheckpoint(4, 4_000, 'CHECKPOINT');
    tracker.reportPendingCheckpoint(5, 5_000, 'CHECKPOINT');
    expect(tracker.checkpointingStatistics().history.map((e) => e.id)).toEqual([5, 4]);
    expect(tracker.checkpointDetails(3)).toMatchObject({ id: 3, className: 'completed' });
    expect(tracker.checkpointDetails(2)).toBeUndefined();
    expect(Object.keys(tracker.allCheckpointDetails())).toEqual(['3', '4', '5']);
  });

  it('is undefined for ids it never saw', () => {
    expect(newTracker().checkpointDetails(42)).toBeUndefined();
  });
});

describe('GET /jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid', () => {
  it('lists acknowledged subtasks as completed and the others as pending_or_failed', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(7, 10_000, 'CHECKPOINT');
    tracker.reportSubtaskStats(7, WINDOW, subtaskStats({
      subtaskIndex: 1, ackTimestamp: 10_040, checkpointedSize: 12, stateSize: 120, syncDurationMs: 3, asyncDurationMs: 21,
      alignmentDurationMs: 8, startDelayMs: 4, processedDataBytes: 2_048, persistedDataBytes: 512, unalignedCheckpoint: true,
    }));
    const details = tracker.taskCheckpointStatistics(7, WINDOW);
    expect(details?.subtasks).toEqual([
      { className: 'pending', index: 0, status: 'pending_or_failed' },
      {
        className: 'completed', index: 1, status: 'completed', ack_timestamp: 10_040, end_to_end_duration: 40,
        checkpointed_size: 12, state_size: 120, checkpoint: { sync: 3, async: 21 },
        alignment: { buffered: 0, processed: 2_048, persisted: 512, duration: 8 }, start_delay: 4,
        unaligned_checkpoint: true, aborted: false,
      },
      { className: 'pending', index: 2, status: 'pending_or_failed' },
    ]);
  });

  it('carries the task figures of the details endpoint', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0);
    const details = tracker.taskCheckpointStatistics(1, SOURCE);
    expect(details).toMatchObject({
      id: 1, status: 'COMPLETED', latest_ack_timestamp: 11, checkpointed_size: 80, state_size: 200,
      end_to_end_duration: 11, alignment_buffered: 0, num_subtasks: 2, num_acknowledged_subtasks: 2,
    });
    expect(Object.keys(details ?? {}).slice(-2)).toEqual(['summary', 'subtasks']);
  });

  it('summarises subtasks with min/max/avg and "NaN" percentiles, as Flink keeps no per-task histogram', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 1_000, 'CHECKPOINT');
    acknowledgeAll(tracker, 1, 1_010, { syncDurationMs: 4, asyncDurationMs: 9, alignmentDurationMs: 6, startDelayMs: 2 });
    const summary = tracker.taskCheckpointStatistics(1, WINDOW)?.summary;
    // WINDOW subtasks acknowledge at 1012, 1013, 1014.
    expect(summary?.end_to_end_duration).toEqual({ min: 12, max: 14, avg: 13, ...NAN_PERCENTILES });
    expect(summary?.state_size).toEqual({ min: 100, max: 100, avg: 100, ...NAN_PERCENTILES });
    expect(summary?.checkpoint_duration.sync).toMatchObject({ min: 4, max: 4, avg: 4 });
    expect(summary?.checkpoint_duration.async).toMatchObject({ min: 9, max: 9, avg: 9 });
    expect(summary?.alignment.duration).toMatchObject({ min: 6, max: 6, avg: 6 });
    expect(summary?.start_delay).toMatchObject({ min: 2, max: 2, avg: 2 });
    expect(summary?.alignment.buffered).toEqual({ min: 0, max: 0, avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0 });
  });

  it('reports a 0 duration summary while no subtask acknowledged', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 1_000, 'CHECKPOINT');
    expect(tracker.taskCheckpointStatistics(1, SOURCE)?.summary.end_to_end_duration).toMatchObject({ min: 0, max: 0, avg: 0 });
  });

  it('shows an aborted subtask as completed with aborted true, outside the duration summary', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 1_000, 'CHECKPOINT');
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 0, ackTimestamp: 1_900, aborted: true }));
    tracker.reportSubtaskStats(1, SOURCE, subtaskStats({ subtaskIndex: 1, ackTimestamp: 1_020 }));
    const details = tracker.taskCheckpointStatistics(1, SOURCE);
    expect(details?.subtasks[0]).toMatchObject({ className: 'completed', aborted: true, end_to_end_duration: 900 });
    expect(details).toMatchObject({ num_acknowledged_subtasks: 1, latest_ack_timestamp: 1_020 });
    expect(details?.summary.end_to_end_duration).toMatchObject({ min: 20, max: 20 });
  });

  it('is undefined for an unknown vertex or checkpoint', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0);
    expect(tracker.taskCheckpointStatistics(1, 'no-such-vertex')).toBeUndefined();
    expect(tracker.taskCheckpointStatistics(2, SOURCE)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { acknowledgeAll, completeCheckpoint, newTracker, SOURCE, subtaskStats } from './tracker-driver.ts';

const EMPTY = { min: 0, max: 0, avg: 0, p50: 'NaN', p90: 'NaN', p95: 'NaN', p99: 'NaN', p999: 'NaN' };
const ZEROS = { min: 0, max: 0, avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0 };

describe('summary of GET /jobs/:jobid/checkpoints', () => {
  it('reports 0 for min/max/avg and "NaN" percentiles before the first completed checkpoint', () => {
    // StatsSummary starts at 0; the empty histogram's percentile is NaN, which Jackson writes as "NaN".
    const summary = newTracker().checkpointingStatistics().summary;
    expect(summary).toEqual({
      checkpointed_size: EMPTY,
      state_size: EMPTY,
      end_to_end_duration: EMPTY,
      alignment_buffered: ZEROS,
      processed_data: EMPTY,
      persisted_data: EMPTY,
    });
  });

  it('always reports alignment_buffered as zeros, percentiles included', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0, { processedDataBytes: 500 });
    expect(tracker.checkpointingStatistics().summary.alignment_buffered).toEqual(ZEROS);
  });

  it('summarises completed checkpoints only', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0, { stateSize: 100 });
    tracker.reportPendingCheckpoint(2, 1_000, 'CHECKPOINT');
    acknowledgeAll(tracker, 2, 1_010, { stateSize: 10_000 });
    tracker.reportFailedCheckpoint(2, 2_000, 'declined');
    tracker.reportPendingCheckpoint(3, 3_000, 'CHECKPOINT');
    tracker.reportSubtaskStats(3, SOURCE, subtaskStats({ stateSize: 50_000 }));
    expect(tracker.checkpointingStatistics().summary.state_size).toEqual({
      min: 500, max: 500, avg: 500, p50: 500, p90: 500, p95: 500, p99: 500, p999: 500,
    });
  });

  it('includes completed savepoints', () => {
    const tracker = newTracker();
    tracker.reportPendingCheckpoint(1, 0, 'SAVEPOINT');
    acknowledgeAll(tracker, 1, 100);
    tracker.reportCompletedCheckpoint(1, 'file:///savepoint-1');
    expect(tracker.checkpointingStatistics().summary.end_to_end_duration).toMatchObject({ min: 104, max: 104, avg: 104 });
  });

  it('computes min, max, integer average and commons-math percentiles over end-to-end durations', () => {
    const tracker = newTracker();
    // Acks land 10..14 ms after the trigger, so durations are 14 + delay.
    const delays = [0, 100, 7, 33];
    delays.forEach((delay, i) => {
      const trigger = (i + 1) * 10_000;
      tracker.reportPendingCheckpoint(i + 1, trigger, 'CHECKPOINT');
      acknowledgeAll(tracker, i + 1, trigger + 10 + delay);
      tracker.reportCompletedCheckpoint(i + 1, `file:///chk-${i + 1}`);
    });
    // durations 14, 114, 21, 47 → sorted 14, 21, 47, 114; p50 at position 2.5, p90 at 4.5 (≥ n).
    expect(tracker.checkpointingStatistics().summary.end_to_end_duration).toEqual({
      min: 14, max: 114, avg: 49, p50: 34, p90: 114, p95: 114, p99: 114, p999: 114,
    });
  });

  it('sums sizes over all subtasks per checkpoint before summarising', () => {
    const tracker = newTracker();
    completeCheckpoint(tracker, 1, 0, { checkpointedSize: 10, stateSize: 100, persistedDataBytes: 3 });
    completeCheckpoint(tracker, 2, 1_000, { checkpointedSize: 20, stateSize: 100, persistedDataBytes: 0 });
    const summary = tracker.checkpointingStatistics().summary;
    expect(summary.checkpointed_size).toMatchObject({ min: 50, max: 100, avg: 75, p50: 75 });
    expect(summary.state_size).toMatchObject({ min: 500, max: 500 });
    expect(summary.persisted_data).toMatchObject({ min: 0, max: 15, avg: 7, p50: 7.5 });
  });
});

import { describe, expect, it } from 'vitest';
import { CheckpointStatsCounts } from '../../engine/checkpoint/stats/checkpoint-stats-counts.ts';
import { isFailedCheckpointWithoutId } from '../../engine/checkpoint/checkpoint-request-decider.ts';
import type { CheckpointFailureReason } from '../../engine/checkpoint/checkpoint-failure-reason.ts';

/** Flink's CheckpointStatsCountsTest#testCounts, one call per row, with the counts after it. */
type Call = 'restored' | 'triggered' | 'completed' | 'failed' | 'failedWithoutInProgress';
const call = (counts: CheckpointStatsCounts, c: Call) => {
  if (c === 'restored') return counts.checkpointRestored();
  if (c === 'triggered') return counts.checkpointTriggered();
  if (c === 'completed') return counts.checkpointCompleted();
  if (c === 'failed') return counts.checkpointFailed();
  return counts.failedWithoutInProgress();
};

describe('CheckpointStatsCounts (Flink CheckpointStatsCountsTest)', () => {
  //               call                       restored total inProgress completed failed
  const steps: Array<[Call, number, number, number, number, number]> = [
    ['restored', /*                       */ 1, 0, 0, 0, 0],
    ['triggered', /*                      */ 1, 1, 1, 0, 0],
    ['completed', /*                      */ 1, 1, 0, 1, 0],
    ['triggered', /*                      */ 1, 2, 1, 1, 0],
    ['failed', /*                         */ 1, 2, 0, 1, 1],
    // a checkpoint that failed before it was created is one of the total, and a failed one
    ['failedWithoutInProgress', /*        */ 1, 3, 0, 1, 2],
    ['failedWithoutInProgress', /*        */ 1, 4, 0, 1, 3],
  ];

  it('counts each call as Flink does, so that total = in progress + completed + failed', () => {
    const counts = new CheckpointStatsCounts();
    for (const [c, restored, total, inProgress, completed, failed] of steps) {
      call(counts, c);
      expect({ ...counts }, c).toEqual({ restored, total, inProgress, completed, failed });
      expect(counts.inProgress + counts.completed + counts.failed).toBe(counts.total);
    }
  });

  it.each<Call>(['completed', 'failed'])('never lets in progress go negative when %s comes without a trigger', (c) => {
    const counts = new CheckpointStatsCounts();
    call(counts, c);
    expect(counts.inProgress).toBe(0);
  });
});

describe('which requests that end before becoming a checkpoint are failed checkpoints', () => {
  const rows: Array<[CheckpointFailureReason, boolean]> = [
    // Flink's onTriggerFailure: reportFailedCheckpointsWithoutInProgress
    ['NOT_ALL_REQUIRED_TASKS_RUNNING', true],
    // the decider's drops and abortAll only fail the request's future
    ['MINIMUM_TIME_BETWEEN_CHECKPOINTS', false],
    ['TOO_MANY_CHECKPOINT_REQUESTS', false],
    ['CHECKPOINT_COORDINATOR_SUSPEND', false],
    ['CHECKPOINT_COORDINATOR_SHUTDOWN', false],
  ];
  it.each(rows)('%s → %s', (reason, failed) => {
    expect(isFailedCheckpointWithoutId(reason)).toBe(failed);
  });
});

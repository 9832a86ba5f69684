import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_FAILURE_REASONS,
  checkpointFailureMessage,
  isCheckpointFailureReason,
  isCountedAgainstFailureThreshold,
  isPreFlightFailure,
  type CheckpointFailureReason,
} from '../../engine/checkpoint/checkpoint-failure-reason.ts';

// Expected values copied from Flink's CheckpointFailureReason.java (current master).
describe('checkpointFailureMessage', () => {
  it.each<[CheckpointFailureReason, string]>([
    ['CHECKPOINT_EXPIRED', 'Checkpoint expired before completing.'],
    [
      'MINIMUM_TIME_BETWEEN_CHECKPOINTS',
      'The minimum time between checkpoints is still pending. Checkpoint will be triggered after the minimum time.',
    ],
    ['TOO_MANY_CHECKPOINT_REQUESTS', 'The maximum number of queued checkpoint requests exceeded'],
    ['IO_EXCEPTION', 'An Exception occurred while triggering the checkpoint. IO-problem detected.'],
    ['CHECKPOINT_DECLINED_TASK_NOT_READY', 'Checkpoint was declined (tasks not ready)'],
    ['CHECKPOINT_COORDINATOR_SHUTDOWN', 'CheckpointCoordinator shutdown.'],
    ['FINALIZE_CHECKPOINT_FAILURE', 'Failure to finalize checkpoint.'],
  ])('gives %s Flink\'s exact message', (reason, message) => {
    expect(checkpointFailureMessage(reason)).toBe(message);
  });
});

describe('CHECKPOINT_FAILURE_REASONS', () => {
  it('lists the 24 reasons of the current Flink enum', () => {
    expect(Object.keys(CHECKPOINT_FAILURE_REASONS)).toHaveLength(24);
  });

  it('marks exactly the reasons raised before a checkpoint reaches the tasks as pre-flight', () => {
    const preFlight = Object.keys(CHECKPOINT_FAILURE_REASONS).filter((r) =>
      isPreFlightFailure(r as CheckpointFailureReason),
    );
    expect(preFlight).toEqual([
      'PERIODIC_SCHEDULER_SHUTDOWN',
      'TOO_MANY_CHECKPOINT_REQUESTS',
      'MINIMUM_TIME_BETWEEN_CHECKPOINTS',
      'NOT_ALL_REQUIRED_TASKS_RUNNING',
      'IO_EXCEPTION',
      'BLOCKING_OUTPUT_EXIST',
    ]);
  });

  it('counts exactly the five reasons Flink counts against the tolerable failures', () => {
    const counted = Object.keys(CHECKPOINT_FAILURE_REASONS).filter((r) =>
      isCountedAgainstFailureThreshold(r as CheckpointFailureReason),
    );
    expect(counted).toEqual([
      'IO_EXCEPTION',
      'CHECKPOINT_ASYNC_EXCEPTION',
      'CHECKPOINT_EXPIRED',
      'CHECKPOINT_DECLINED',
      'FINALIZE_CHECKPOINT_FAILURE',
    ]);
  });
});

describe('isCheckpointFailureReason', () => {
  it.each<[string, boolean]>([
    ['CHECKPOINT_DECLINED_SUBSUMED', true],
    ['IO_EXCEPTION', true],
    // a job event's fallback text, and a reason older Flink versions had
    ['unknown', false],
    ['CHECKPOINT_DECLINED_TASK_NOT_CHECKPOINTING', false],
    // a property every object has is no reason
    ['toString', false],
  ])('tells a recorded reason %s apart: %s', (value, known) => {
    expect(isCheckpointFailureReason(value)).toBe(known);
  });
});

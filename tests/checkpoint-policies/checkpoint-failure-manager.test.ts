import { describe, expect, it } from 'vitest';
import {
  CheckpointFailureManager,
  UNLIMITED_TOLERABLE_FAILURE_NUMBER,
  exceededThresholdMessage,
  type CheckpointFailureOptions,
} from '../../engine/checkpoint/checkpoint-failure-manager.ts';
import {
  CHECKPOINT_FAILURE_REASONS,
  type CheckpointFailureReason,
} from '../../engine/checkpoint/checkpoint-failure-reason.ts';

const COUNTED: readonly CheckpointFailureReason[] = [
  'IO_EXCEPTION',
  'CHECKPOINT_ASYNC_EXCEPTION',
  'CHECKPOINT_DECLINED',
  'CHECKPOINT_EXPIRED',
  'FINALIZE_CHECKPOINT_FAILURE',
];

const ALL_REASONS = Object.keys(CHECKPOINT_FAILURE_REASONS) as CheckpointFailureReason[];

type Step =
  | { fail: CheckpointFailureReason; id: number | undefined; options?: CheckpointFailureOptions }
  | { succeed: number };

/** Runs the steps and returns, per step, the job-failure message, '-' for "keep running", or 'ok' for a success. */
function run(tolerable: number, steps: Step[]): { outcomes: string[]; count: number } {
  const manager = new CheckpointFailureManager(tolerable);
  const outcomes = steps.map((step) => {
    if ('succeed' in step) {
      manager.handleCheckpointSuccess(step.succeed);
      return 'ok';
    }
    const outcome = manager.handleCheckpointFailure(step.fail, step.id, step.options);
    return outcome.failJob ? outcome.message : '-';
  });
  return { outcomes, count: manager.continuousFailureCount };
}

const EXPIRED_MESSAGE =
  'Exceeded checkpoint tolerable failure threshold. The latest checkpoint failed due to Checkpoint expired ' +
  'before completing., view the Checkpoint History tab or the Job Manager log to find out why continuous ' +
  'checkpoints failed.';

describe('CheckpointFailureManager counting', () => {
  it.each(ALL_REASONS.map((reason) => [reason, COUNTED.includes(reason)] as const))(
    '%s counts against the tolerable failures: %s',
    (reason, counted) => {
      const { outcomes, count } = run(0, [{ fail: reason, id: 1 }]);
      expect(outcomes[0] !== '-').toBe(counted);
      expect(count).toBe(0); // either never counted, or cleared when the job was failed
      expect(run(1, [{ fail: reason, id: 1 }]).count).toBe(counted ? 1 : 0);
    },
  );

  it.each<[string, number, Step[], string[], number]>([
    [
      'fails the job on the first counted failure with tolerable 0',
      0,
      [{ fail: 'CHECKPOINT_EXPIRED', id: 1 }],
      [EXPIRED_MESSAGE],
      0,
    ],
    [
      'tolerates N failures and fails the job on failure N + 1',
      2,
      [
        { fail: 'CHECKPOINT_EXPIRED', id: 1 },
        { fail: 'CHECKPOINT_EXPIRED', id: 2 },
        { fail: 'CHECKPOINT_EXPIRED', id: 3 },
      ],
      ['-', '-', EXPIRED_MESSAGE],
      0,
    ],
    [
      'counts each checkpoint id once',
      1,
      [
        { fail: 'CHECKPOINT_DECLINED', id: 5, options: { jobLevel: false } },
        { fail: 'CHECKPOINT_DECLINED', id: 5, options: { jobLevel: false } },
        { fail: 'CHECKPOINT_EXPIRED', id: 5 },
      ],
      ['-', '-', '-'],
      1,
    ],
    [
      'counts every failure without an id (pre-flight)',
      1,
      [
        { fail: 'IO_EXCEPTION', id: undefined },
        { fail: 'IO_EXCEPTION', id: undefined },
      ],
      ['-', exceededThresholdMessage('IO_EXCEPTION')],
      0,
    ],
    [
      'ignores reasons that are not counted between counted ones',
      1,
      [
        { fail: 'CHECKPOINT_EXPIRED', id: 1 },
        { fail: 'CHECKPOINT_SUBSUMED', id: 2 },
        { fail: 'MINIMUM_TIME_BETWEEN_CHECKPOINTS', id: undefined },
        { fail: 'CHECKPOINT_ASYNC_EXCEPTION', id: 3, options: { jobLevel: false } },
      ],
      ['-', '-', '-', exceededThresholdMessage('CHECKPOINT_ASYNC_EXCEPTION')],
      0,
    ],
    [
      'resets on a success with a higher id',
      1,
      [
        { fail: 'CHECKPOINT_EXPIRED', id: 1 },
        { succeed: 2 },
        { fail: 'CHECKPOINT_EXPIRED', id: 3 },
      ],
      ['-', 'ok', '-'],
      1,
    ],
    [
      'does not reset on a success with a lower id than an earlier success',
      1,
      [{ succeed: 5 }, { fail: 'CHECKPOINT_EXPIRED', id: 6 }, { succeed: 4 }, { fail: 'CHECKPOINT_EXPIRED', id: 7 }],
      ['ok', '-', 'ok', EXPIRED_MESSAGE],
      0,
    ],
    [
      'ignores failures of ids at or below the last success',
      0,
      [{ succeed: 5 }, { fail: 'CHECKPOINT_EXPIRED', id: 4 }, { fail: 'CHECKPOINT_EXPIRED', id: 5 }],
      ['ok', '-', '-'],
      0,
    ],
    [
      'counts an id again after the count was cleared by a job failure',
      0,
      [
        { fail: 'CHECKPOINT_EXPIRED', id: 3 },
        { fail: 'CHECKPOINT_EXPIRED', id: 3 },
      ],
      [EXPIRED_MESSAGE, EXPIRED_MESSAGE],
      0,
    ],
    [
      'never fails the job with unlimited tolerable failures',
      UNLIMITED_TOLERABLE_FAILURE_NUMBER,
      [
        { fail: 'CHECKPOINT_EXPIRED', id: 1 },
        { fail: 'IO_EXCEPTION', id: undefined },
      ],
      ['-', '-'],
      0,
    ],
  ])('%s', (_name, tolerable, steps, expected, count) => {
    expect(run(tolerable, steps)).toEqual({ outcomes: expected, count });
  });
});

describe('CheckpointFailureManager savepoints', () => {
  const SYNC_SAVEPOINT_DECLINED = 'Checkpoint was declined (tasks not ready)';

  it.each<[string, Step, string, number]>([
    ['never counts a job-level savepoint failure', { fail: 'CHECKPOINT_EXPIRED', id: 1, options: { isSavepoint: true } }, '-', 0],
    [
      'treats a pre-flight savepoint failure as job-level even when a task is named',
      { fail: 'IO_EXCEPTION', id: 1, options: { isSavepoint: true, jobLevel: false } },
      '-',
      0,
    ],
    [
      'counts a task-level failure of a normal savepoint',
      { fail: 'CHECKPOINT_DECLINED', id: 1, options: { isSavepoint: true, jobLevel: false } },
      '-',
      1,
    ],
    [
      'always fails the job for a task-level failure of a synchronous savepoint, with the reason\'s message',
      {
        fail: 'CHECKPOINT_DECLINED_TASK_NOT_READY',
        id: 1,
        options: { isSavepoint: true, isSynchronous: true, jobLevel: false },
      },
      SYNC_SAVEPOINT_DECLINED,
      0,
    ],
    [
      'does not fail the job for a job-level failure of a synchronous savepoint',
      { fail: 'CHECKPOINT_EXPIRED', id: 1, options: { isSavepoint: true, isSynchronous: true } },
      '-',
      0,
    ],
  ])('%s', (_name, step, expected, count) => {
    expect(run(1, [step])).toEqual({ outcomes: [expected], count });
  });
});

describe('CheckpointFailureManager misc', () => {
  it('builds Flink\'s threshold message around the latest reason', () => {
    expect(exceededThresholdMessage('CHECKPOINT_EXPIRED')).toBe(EXPIRED_MESSAGE);
  });

  it('fails over on a task sync-phase failure without touching the count', () => {
    const manager = new CheckpointFailureManager(3);
    manager.handleCheckpointFailure('CHECKPOINT_EXPIRED', 1);
    expect(manager.handleTaskSyncPhaseFailure()).toBe(true);
    expect(manager.continuousFailureCount).toBe(1);
  });

  it('rejects a negative tolerable number with Flink\'s message', () => {
    expect(() => new CheckpointFailureManager(-1)).toThrow(
      'The tolerable checkpoint failure number is illegal, it must be greater than or equal to 0 .',
    );
  });
});

/**
 * Counts consecutive checkpoint failures and says when the job must fail:
 * Flink's `CheckpointFailureManager`
 * (flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointFailureManager.java).
 *
 * Flink calls a `FailJobCallback`; here the decision is returned as a value. Flink's two callbacks
 * (`failJob` for JobManager-side failures, `failJobDueToTaskFailure` for task-reported ones) both
 * fail the whole job, so they collapse into one `{ failJob: true }`.
 */

import {
  checkpointFailureMessage,
  isCountedAgainstFailureThreshold,
  isPreFlightFailure,
  type CheckpointFailureReason,
} from './checkpoint-failure-reason.ts';

/** Flink's `CheckpointFailureManager.EXCEEDED_CHECKPOINT_TOLERABLE_FAILURE_MESSAGE`. */
export const EXCEEDED_CHECKPOINT_TOLERABLE_FAILURE_MESSAGE = 'Exceeded checkpoint tolerable failure threshold.';

/** Flink's `UNLIMITED_TOLERABLE_FAILURE_NUMBER` (`Integer.MAX_VALUE`): nothing is ever counted. */
export const UNLIMITED_TOLERABLE_FAILURE_NUMBER = 2_147_483_647;

export type CheckpointFailureOutcome = { failJob: false } | { failJob: true; message: string };

export interface CheckpointFailureOptions {
  isSavepoint?: boolean;
  /** a synchronous savepoint (stop-with-savepoint): a task-level failure of one always fails the job */
  isSynchronous?: boolean;
  /**
   * The JobManager itself failed the checkpoint (Flink: no `executionAttemptID`), e.g. expiry,
   * finalize or trigger failures. Default true; pass false for a task's decline. Pre-flight
   * reasons and failures without a checkpoint id are job-level regardless, as in Flink's
   * `isJobManagerFailure`.
   */
  jobLevel?: boolean;
}

/**
 * Flink's `checkFailureAgainstCounter` message (FLINK-29969): the threshold text plus the latest
 * failure's reason.
 */
export function exceededThresholdMessage(reason: CheckpointFailureReason): string {
  return (
    `${EXCEEDED_CHECKPOINT_TOLERABLE_FAILURE_MESSAGE} The latest checkpoint failed due to ` +
    `${checkpointFailureMessage(reason)}, view the Checkpoint History tab or the Job Manager log ` +
    'to find out why continuous checkpoints failed.'
  );
}

export class CheckpointFailureManager {
  private readonly tolerableFailedCheckpoints: number;
  private continuousFailureCounter = 0;
  /** Flink's `countedCheckpointIds`: each checkpoint id counts at most once. */
  private readonly countedCheckpointIds = new Set<number>();
  /** Flink starts at `Long.MIN_VALUE`. */
  private lastSucceededCheckpointId = Number.NEGATIVE_INFINITY;

  constructor(tolerableFailedCheckpoints: number) {
    // Flink's constructor: checkArgument(tolerableCpFailureNumber >= 0, …).
    if (!(tolerableFailedCheckpoints >= 0)) {
      throw new RangeError(
        'The tolerable checkpoint failure number is illegal, it must be greater than or equal to 0 .',
      );
    }
    this.tolerableFailedCheckpoints = tolerableFailedCheckpoints;
  }

  /**
   * A checkpoint failed (checkpointId undefined = failed before it got an id, pre-flight).
   * Returns a job failure message when the count exceeds the tolerable number.
   * Flink's `handleCheckpointException`.
   */
  handleCheckpointFailure(
    reason: CheckpointFailureReason,
    checkpointId: number | undefined,
    options: CheckpointFailureOptions = {},
  ): CheckpointFailureOutcome {
    const jobLevel = isPreFlightFailure(reason) || (options.jobLevel ?? true) || checkpointId === undefined;
    return jobLevel
      ? this.handleJobLevelFailure(reason, checkpointId, options)
      : this.handleTaskLevelFailure(reason, checkpointId, options);
  }

  /**
   * A task's synchronous snapshot phase threw. Flink never counts this: the exception escapes
   * `SubtaskCheckpointCoordinatorImpl.checkpointState` (`cleanup(…); throw ex;`), so the task
   * fails and the job fails over ("Failures originating from the sync phase on the Task Managers
   * are always forcing failover of an affected task", checkpointing docs). Returns true = fail over.
   */
  handleTaskSyncPhaseFailure(): true {
    return true;
  }

  /** Flink's `handleCheckpointSuccess`: a newer success resets the count; older ones are ignored. */
  handleCheckpointSuccess(checkpointId: number): void {
    if (checkpointId > this.lastSucceededCheckpointId) {
      this.lastSucceededCheckpointId = checkpointId;
      this.clearCount();
    }
  }

  get continuousFailureCount(): number {
    return this.continuousFailureCounter;
  }

  /** Flink's `handleJobLevelCheckpointException`: savepoints are manual, a failover would not help. */
  private handleJobLevelFailure(
    reason: CheckpointFailureReason,
    checkpointId: number | undefined,
    options: CheckpointFailureOptions,
  ): CheckpointFailureOutcome {
    if (options.isSavepoint) return { failJob: false };
    return this.checkFailureAgainstCounter(reason, checkpointId);
  }

  /**
   * Flink's `handleTaskLevelCheckpointException`: a failed synchronous savepoint always fails the
   * job (else job cancellation could wait forever for it); with the CheckpointException's own
   * message, which is the reason's message.
   */
  private handleTaskLevelFailure(
    reason: CheckpointFailureReason,
    checkpointId: number | undefined,
    options: CheckpointFailureOptions,
  ): CheckpointFailureOutcome {
    if (options.isSavepoint && options.isSynchronous) {
      return { failJob: true, message: checkpointFailureMessage(reason) };
    }
    return this.checkFailureAgainstCounter(reason, checkpointId);
  }

  /** Flink's `checkFailureAgainstCounter`: failures of ids at or below the last success are stale. */
  private checkFailureAgainstCounter(
    reason: CheckpointFailureReason,
    checkpointId: number | undefined,
  ): CheckpointFailureOutcome {
    if (checkpointId !== undefined && checkpointId <= this.lastSucceededCheckpointId) return { failJob: false };
    this.checkFailureCounter(reason, checkpointId);
    if (this.continuousFailureCounter <= this.tolerableFailedCheckpoints) return { failJob: false };
    this.clearCount();
    return { failJob: true, message: exceededThresholdMessage(reason) };
  }

  /** Flink's `checkFailureCounter`: only counted reasons, each known id once, unknown ids always. */
  private checkFailureCounter(reason: CheckpointFailureReason, checkpointId: number | undefined): void {
    if (this.tolerableFailedCheckpoints === UNLIMITED_TOLERABLE_FAILURE_NUMBER) return;
    if (!isCountedAgainstFailureThreshold(reason)) return;
    if (checkpointId === undefined || !this.countedCheckpointIds.has(checkpointId)) {
      if (checkpointId !== undefined) this.countedCheckpointIds.add(checkpointId);
      this.continuousFailureCounter += 1;
    }
  }

  private clearCount(): void {
    this.continuousFailureCounter = 0;
    this.countedCheckpointIds.clear();
  }
}

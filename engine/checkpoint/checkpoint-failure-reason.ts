/**
 * Why a checkpoint failed: Flink's `CheckpointFailureReason` enum
 * (flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointFailureReason.java,
 * current master), with each constant's `preFlight` flag and `message()` text copied verbatim.
 *
 * `counted` is Flink's `isCountedAgainstFailureThreshold()`: the same switch that
 * `CheckpointFailureManager.checkFailureCounter` uses to decide which failures go against
 * `execution.checkpointing.tolerable-failed-checkpoints`.
 *
 * Reasons that older Flink versions had and current master no longer has (EXCEPTION, JOB_FAILURE,
 * TOO_MANY_CONCURRENT_CHECKPOINTS, ALREADY_QUEUED, CHECKPOINT_DECLINED_TASK_NOT_CHECKPOINTING,
 * CHECKPOINT_DECLINED_ALIGNMENT_LIMIT_EXCEEDED) are deliberately absent.
 */

export type CheckpointFailureReason =
  | 'PERIODIC_SCHEDULER_SHUTDOWN'
  | 'TOO_MANY_CHECKPOINT_REQUESTS'
  | 'MINIMUM_TIME_BETWEEN_CHECKPOINTS'
  | 'NOT_ALL_REQUIRED_TASKS_RUNNING'
  | 'IO_EXCEPTION'
  | 'BLOCKING_OUTPUT_EXIST'
  | 'CHECKPOINT_ASYNC_EXCEPTION'
  | 'CHANNEL_STATE_SHARED_STREAM_EXCEPTION'
  | 'CHECKPOINT_EXPIRED'
  | 'CHECKPOINT_SUBSUMED'
  | 'CHECKPOINT_DECLINED'
  | 'CHECKPOINT_DECLINED_TASK_NOT_READY'
  | 'CHECKPOINT_DECLINED_TASK_CLOSING'
  | 'CHECKPOINT_DECLINED_SUBSUMED'
  | 'CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER'
  | 'CHECKPOINT_DECLINED_INPUT_END_OF_STREAM'
  | 'CHECKPOINT_COORDINATOR_SHUTDOWN'
  | 'CHECKPOINT_COORDINATOR_SUSPEND'
  | 'JOB_FAILOVER_REGION'
  | 'TASK_FAILURE'
  | 'TASK_CHECKPOINT_FAILURE'
  | 'UNKNOWN_TASK_CHECKPOINT_NOTIFICATION_FAILURE'
  | 'FINALIZE_CHECKPOINT_FAILURE'
  | 'TRIGGER_CHECKPOINT_FAILURE';

export interface CheckpointFailureReasonInfo {
  /** Flink's `message()`, verbatim (some of Flink's texts have no final period). */
  readonly message: string;
  /** Flink's `isPreFlight()`: the failure happened before the checkpoint reached any task. */
  readonly preFlight: boolean;
  /** Flink's `isCountedAgainstFailureThreshold()`. */
  readonly counted: boolean;
}

/** In Flink's declaration order. */
export const CHECKPOINT_FAILURE_REASONS: Readonly<Record<CheckpointFailureReason, CheckpointFailureReasonInfo>> = {
  PERIODIC_SCHEDULER_SHUTDOWN: {
    message: 'Periodic checkpoint scheduler is shut down.',
    preFlight: true,
    counted: false,
  },
  TOO_MANY_CHECKPOINT_REQUESTS: {
    message: 'The maximum number of queued checkpoint requests exceeded',
    preFlight: true,
    counted: false,
  },
  MINIMUM_TIME_BETWEEN_CHECKPOINTS: {
    message:
      'The minimum time between checkpoints is still pending. Checkpoint will be triggered after the minimum time.',
    preFlight: true,
    counted: false,
  },
  NOT_ALL_REQUIRED_TASKS_RUNNING: {
    message: 'Not all required tasks are currently running.',
    preFlight: true,
    counted: false,
  },
  IO_EXCEPTION: {
    message: 'An Exception occurred while triggering the checkpoint. IO-problem detected.',
    preFlight: true,
    counted: true,
  },
  BLOCKING_OUTPUT_EXIST: {
    message: 'Blocking output edge exists in running tasks.',
    preFlight: true,
    counted: false,
  },
  CHECKPOINT_ASYNC_EXCEPTION: {
    message: 'Asynchronous task checkpoint failed.',
    preFlight: false,
    counted: true,
  },
  CHANNEL_STATE_SHARED_STREAM_EXCEPTION: {
    message: 'The checkpoint was aborted due to exception of other subtasks sharing the ChannelState file.',
    preFlight: false,
    counted: false,
  },
  CHECKPOINT_EXPIRED: { message: 'Checkpoint expired before completing.', preFlight: false, counted: true },
  CHECKPOINT_SUBSUMED: { message: 'Checkpoint has been subsumed.', preFlight: false, counted: false },
  CHECKPOINT_DECLINED: { message: 'Checkpoint was declined.', preFlight: false, counted: true },
  CHECKPOINT_DECLINED_TASK_NOT_READY: {
    message: 'Checkpoint was declined (tasks not ready)',
    preFlight: false,
    counted: false,
  },
  CHECKPOINT_DECLINED_TASK_CLOSING: {
    message: 'Checkpoint was declined (task is closing)',
    preFlight: false,
    counted: false,
  },
  CHECKPOINT_DECLINED_SUBSUMED: {
    message: 'Checkpoint was canceled because a barrier from newer checkpoint was received.',
    preFlight: false,
    counted: false,
  },
  CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER: {
    message: 'Task received cancellation from one of its inputs',
    preFlight: false,
    counted: false,
  },
  CHECKPOINT_DECLINED_INPUT_END_OF_STREAM: {
    message: 'Checkpoint was declined because one input stream is finished',
    preFlight: false,
    counted: false,
  },
  CHECKPOINT_COORDINATOR_SHUTDOWN: { message: 'CheckpointCoordinator shutdown.', preFlight: false, counted: false },
  CHECKPOINT_COORDINATOR_SUSPEND: {
    message: 'Checkpoint Coordinator is suspending.',
    preFlight: false,
    counted: false,
  },
  JOB_FAILOVER_REGION: { message: 'FailoverRegion is restarting.', preFlight: false, counted: false },
  TASK_FAILURE: { message: 'Task has failed.', preFlight: false, counted: false },
  TASK_CHECKPOINT_FAILURE: { message: 'Task local checkpoint failure.', preFlight: false, counted: false },
  UNKNOWN_TASK_CHECKPOINT_NOTIFICATION_FAILURE: {
    message: 'Unknown task for the checkpoint to notify.',
    preFlight: false,
    counted: false,
  },
  FINALIZE_CHECKPOINT_FAILURE: { message: 'Failure to finalize checkpoint.', preFlight: false, counted: true },
  TRIGGER_CHECKPOINT_FAILURE: { message: 'Trigger checkpoint failure.', preFlight: false, counted: false },
};

/** True for a constant of Flink's enum: a reason read back as text (a recording) is checked with this. */
export function isCheckpointFailureReason(value: string): value is CheckpointFailureReason {
  return Object.hasOwn(CHECKPOINT_FAILURE_REASONS, value);
}

/** Flink's `CheckpointFailureReason.message()`. */
export function checkpointFailureMessage(reason: CheckpointFailureReason): string {
  return CHECKPOINT_FAILURE_REASONS[reason].message;
}

/** Flink's `CheckpointFailureReason.isPreFlight()`. */
export function isPreFlightFailure(reason: CheckpointFailureReason): boolean {
  return CHECKPOINT_FAILURE_REASONS[reason].preFlight;
}

/** Flink's `CheckpointFailureReason.isCountedAgainstFailureThreshold()`. */
export function isCountedAgainstFailureThreshold(reason: CheckpointFailureReason): boolean {
  return CHECKPOINT_FAILURE_REASONS[reason].counted;
}

/** Every constant of the enum, in declaration order (an expectation names one). */
export const CHECKPOINT_FAILURE_REASON_NAMES = Object.keys(CHECKPOINT_FAILURE_REASONS) as CheckpointFailureReason[];

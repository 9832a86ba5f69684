/**
 * Decides whether a checkpoint trigger request runs now, waits in the queue, or is dropped:
 * Flink's `CheckpointRequestDecider`
 * (flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointRequestDecider.java).
 *
 * Differences from Flink, all in the interface rather than the rules:
 * - Flink enqueues and chooses in one call (`chooseRequestToExecute(newRequest, …)`); here that is
 *   `enqueue` followed by `chooseRequestToExecute`, which is also Flink's
 *   `chooseQueuedRequestToExecute`.
 * - Flink fails dropped requests' futures and calls `rescheduleTrigger`; here both are returned
 *   as values and the coordinator acts on them.
 * - Flink reads time, pending and cleaning counts from suppliers; here the caller passes them in.
 * - Flink breaks ties with `identityHashCode` (arbitrary); here with `seq`, so the order is stable.
 */

import type { StopMode } from '../protocol.ts';
import type { CheckpointFailureReason } from './checkpoint-failure-reason.ts';

export interface CheckpointTriggerRequest {
  /** sequence number, for stable ordering */
  seq: number;
  /** when it was requested (ms) */
  timestamp: number;
  isPeriodic: boolean;
  isSavepoint: boolean;
  /** savepoints are forced when unaligned checkpoints are off (the coordinator decides and passes it) */
  isForce: boolean;
  /** manual trigger's type; periodic ones are CONFIGURED */
  checkpointType: 'CONFIGURED' | 'FULL';
  /** a synchronous savepoint (stop-with-savepoint, Flink's CheckpointProperties.isSynchronous) */
  stopMode?: StopMode;
}

/**
 * The reasons a request ends with when the decider lets it go: dropped for the min pause, pushed
 * out of a full queue, or failed by abortAll as the scheduler stops (suspend, shutdown).
 */
const DECIDER_DROP_REASONS: ReadonlySet<string> = new Set<CheckpointFailureReason>([
  'MINIMUM_TIME_BETWEEN_CHECKPOINTS',
  'TOO_MANY_CHECKPOINT_REQUESTS',
  'CHECKPOINT_COORDINATOR_SUSPEND',
  'CHECKPOINT_COORDINATOR_SHUTDOWN',
]);

/**
 * Whether a request that ended with `reason` before it became a checkpoint is a failed
 * checkpoint in the statistics. Flink only fails the future of a request the decider drops (no
 * statistics, no failure counting); any other failure on the way to a pending checkpoint goes
 * through CheckpointCoordinator#onTriggerFailure, which reports it with
 * reportFailedCheckpointsWithoutInProgress: one more in counts.total and counts.failed, with no
 * id and no history entry.
 */
export function isFailedCheckpointWithoutId(reason: string): boolean {
  return !DECIDER_DROP_REASONS.has(reason);
}

export type DeciderOutcome =
  | { type: 'execute'; request: CheckpointTriggerRequest }
  | {
      type: 'drop';
      request: CheckpointTriggerRequest;
      reason: Extract<CheckpointFailureReason, 'MINIMUM_TIME_BETWEEN_CHECKPOINTS'>;
      rescheduleInMs: number;
    }
  /** nothing to do now (empty queue, waiting on max-concurrent, or a trigger in progress) */
  | { type: 'none' };

export interface CheckpointRequestDeciderOptions {
  maxConcurrentCheckpoints: number;
  minPauseMs: number;
  /** Flink's `DEFAULT_MAX_QUEUED_REQUESTS` is 1000 */
  maxQueuedRequests?: number;
}

export interface DeciderState {
  /** a previous request is still being set up (Flink's `isTriggering`) */
  isTriggering: boolean;
  pendingCheckpoints: number;
  /** -Infinity before any checkpoint completed */
  lastCompletionTime: number;
  now: number;
  /** checkpoints whose files are still being deleted; omit (0) if the simulation does not model it */
  numberOfCleaningCheckpoints?: number;
}

const DEFAULT_MAX_QUEUED_REQUESTS = 1000;

/**
 * Flink's `checkpointTriggerRequestsComparator`: savepoints first, then forced, then
 * non-periodic (user) before periodic, then the older timestamp. Negative = `a` runs first.
 */
export function compareCheckpointTriggerRequests(a: CheckpointTriggerRequest, b: CheckpointTriggerRequest): number {
  if (a.isSavepoint !== b.isSavepoint) return a.isSavepoint ? -1 : 1;
  if (a.isForce !== b.isForce) return a.isForce ? -1 : 1;
  if (a.isPeriodic !== b.isPeriodic) return a.isPeriodic ? 1 : -1;
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
  return a.seq - b.seq;
}

export class CheckpointRequestDecider {
  private readonly maxConcurrentCheckpoints: number;
  private readonly minPauseMs: number;
  private readonly maxQueuedRequests: number;
  /** Flink's `TreeSet`: kept sorted by `compareCheckpointTriggerRequests`, head first. */
  private readonly queue: CheckpointTriggerRequest[] = [];

  constructor(options: CheckpointRequestDeciderOptions) {
    const maxQueued = options.maxQueuedRequests ?? DEFAULT_MAX_QUEUED_REQUESTS;
    // Flink's constructor: checkArgument(maxConcurrentCheckpointAttempts > 0), (maxQueuedRequests > 0).
    if (!(options.maxConcurrentCheckpoints > 0) || !(maxQueued > 0)) {
      throw new RangeError(
        `maxConcurrentCheckpoints and maxQueuedRequests must be > 0, got ${options.maxConcurrentCheckpoints} and ${maxQueued}`,
      );
    }
    this.maxConcurrentCheckpoints = options.maxConcurrentCheckpoints;
    this.minPauseMs = options.minPauseMs;
    this.maxQueuedRequests = maxQueued;
  }

  /**
   * Enqueues; returns the requests that failed because the queue was full
   * (TOO_MANY_CHECKPOINT_REQUESTS): the new one (if all queued are non-periodic) or the
   * lowest-priority one evicted. Mirrors the first half of Flink's
   * `chooseRequestToExecute(newRequest, …)`.
   */
  enqueue(request: CheckpointTriggerRequest): CheckpointTriggerRequest[] {
    const last = this.queue[this.queue.length - 1];
    if (this.queue.length >= this.maxQueuedRequests && last !== undefined && !last.isPeriodic) {
      // Only user-submitted requests are queued: Flink keeps them and fails the newcomer.
      return [request];
    }
    this.insertSorted(request);
    if (this.queue.length > this.maxQueuedRequests) {
      // The evicted one may be the newcomer itself, when it sorts last (Flink's pollLast).
      return [this.queue.pop()!];
    }
    return [];
  }

  /**
   * Flink's `chooseRequestToExecute(isTriggering, lastCompletionMs)`: call after every enqueue,
   * trigger success/failure, completion or abort. Decides for the head of the queue only; after a
   * drop, Flink does not look at the next request until the next call.
   */
  chooseRequestToExecute(state: DeciderState): DeciderOutcome {
    const head = this.queue[0];
    if (head === undefined || state.isTriggering || this.tooManyCleaning(state)) return { type: 'none' };
    if (state.pendingCheckpoints >= this.maxConcurrentCheckpoints) {
      // At max-concurrent only a forced request (a savepoint with UC off) may start.
      return head.isForce ? this.execute() : { type: 'none' };
    }
    if (!head.isForce && head.isPeriodic) {
      const delay = this.nextTriggerDelayMillis(state);
      if (delay > 0) {
        this.queue.shift();
        return { type: 'drop', request: head, reason: 'MINIMUM_TIME_BETWEEN_CHECKPOINTS', rescheduleInMs: delay };
      }
    }
    return this.execute();
  }

  /** Fails every queued request (e.g. the job is restarting); returns them, head first. */
  abortAll(): CheckpointTriggerRequest[] {
    return this.queue.splice(0, this.queue.length);
  }

  get numQueuedRequests(): number {
    return this.queue.length;
  }

  /** The queued requests in execution order (a copy), for the UI and tests. */
  get queuedRequests(): readonly CheckpointTriggerRequest[] {
    return [...this.queue];
  }

  private execute(): DeciderOutcome {
    return { type: 'execute', request: this.queue.shift()! };
  }

  /** Flink waits while more checkpoints are being cleaned up than may run concurrently. */
  private tooManyCleaning(state: DeciderState): boolean {
    return (state.numberOfCleaningCheckpoints ?? 0) > this.maxConcurrentCheckpoints;
  }

  /**
   * Flink's `nextTriggerDelayMillis`: lastCompletion − now + minPause. Flink adds longs; the
   * simulation's clock is fractional, so the pause end is summed first and compared with now:
   * a trigger re-armed for exactly that time must not see a rounding residue and drop again.
   */
  private nextTriggerDelayMillis(state: DeciderState): number {
    const pauseEnd = state.lastCompletionTime + this.minPauseMs;
    return pauseEnd > state.now ? pauseEnd - state.now : 0;
  }

  /** `TreeSet.add`: a request equal to a queued one (same `seq` and flags) is not added twice. */
  private insertSorted(request: CheckpointTriggerRequest): void {
    let low = 0;
    let high = this.queue.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareCheckpointTriggerRequests(this.queue[mid]!, request) <= 0) low = mid + 1;
      else high = mid;
    }
    const previous = this.queue[low - 1];
    if (previous !== undefined && compareCheckpointTriggerRequests(previous, request) === 0) return;
    this.queue.splice(low, 0, request);
  }
}

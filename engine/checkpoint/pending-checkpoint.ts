import { createMachine, type StateMachine } from '@xstate/fsm';
import type { CheckpointBarrier, SubtaskCheckpointMetrics, SubtaskId, TaskStateSnapshot } from '../protocol.ts';
import { subtaskKey, type CompletedCheckpoint } from './completed-checkpoint.ts';

/** Flink's PendingCheckpoint.TaskAcknowledgeResult: an expected outcome, not an exception. */
export type TaskAcknowledgeResult = 'success' | 'duplicate' | 'unknown' | 'discarded';

type Context = Record<string, never>;
type Lifecycle = 'pending' | 'finalizing' | 'completed' | 'failed';
type Event = { type: 'FINALIZE' } | { type: 'COMPLETE' } | { type: 'FAIL' };

/**
 * pending → completed | failed; or, where `_metadata` is written asynchronously (the live
 * runtime), pending → finalizing → completed | failed. Nothing leaves a final state.
 */
const pendingCheckpointMachine = createMachine<Context, Event, { value: Lifecycle; context: Context }>({
  id: 'pending-checkpoint',
  initial: 'pending',
  context: {},
  states: {
    pending: { on: { FINALIZE: 'finalizing', COMPLETE: 'completed', FAIL: 'failed' } },
    finalizing: { on: { COMPLETE: 'completed', FAIL: 'failed' } },
    completed: {},
    failed: {},
  },
});

/** One acknowledgement: the subtask's snapshot and its figures. */
export interface SubtaskAcknowledgement {
  snapshot: TaskStateSnapshot;
  metrics: SubtaskCheckpointMetrics & { asyncDurationMs: number; ackTimestamp: number };
}

/**
 * A checkpoint that was triggered and waits for every subtask in its plan to acknowledge
 * (Flink's PendingCheckpoint). Finished subtasks take part with the state they finished with.
 */
export class PendingCheckpoint {
  #state: StateMachine.State<Context, Event, { value: Lifecycle; context: Context }> = pendingCheckpointMachine.initialState;
  readonly #notYetAcknowledged: Set<string>;
  readonly #acknowledged = new Map<string, SubtaskAcknowledgement>();
  readonly #finished = new Map<string, TaskStateSnapshot>();

  constructor(
    readonly id: number,
    readonly barrier: CheckpointBarrier,
    readonly isSavepoint: boolean,
    tasksToAck: readonly SubtaskId[],
    finishedTasks: readonly TaskStateSnapshot[],
    readonly parallelism: Record<string, number>,
  ) {
    this.#notYetAcknowledged = new Set(tasksToAck.map(subtaskKey));
    for (const f of finishedTasks) this.#finished.set(subtaskKey(f.subtask), f);
  }

  get triggerTimestamp(): number {
    return this.barrier.timestamp;
  }

  get status(): Lifecycle {
    return this.#state.value;
  }

  get isDisposed(): boolean {
    return this.#state.value !== 'pending';
  }

  get isFullyAcknowledged(): boolean {
    return this.#notYetAcknowledged.size === 0;
  }

  get numAcknowledged(): number {
    return this.#acknowledged.size;
  }

  get acknowledgements(): ReadonlyMap<string, SubtaskAcknowledgement> {
    return this.#acknowledged;
  }

  acknowledgeTask(subtask: SubtaskId, ack: SubtaskAcknowledgement): TaskAcknowledgeResult {
    if (this.isDisposed) return 'discarded';
    const key = subtaskKey(subtask);
    if (!this.#notYetAcknowledged.delete(key)) return this.#acknowledged.has(key) ? 'duplicate' : 'unknown';
    this.#acknowledged.set(key, ack);
    return 'success';
  }

  /** Finalizes into a completed checkpoint (Flink writes `_metadata` here). */
  finalize(completionTimestamp: number, externalPath: string): CompletedCheckpoint {
    this.#state = pendingCheckpointMachine.transition(this.#state, { type: 'COMPLETE' });
    return this.completedCheckpoint(completionTimestamp, externalPath);
  }

  /**
   * Fully acknowledged, its `_metadata` being written by the driver: it stays pending for the
   * request decider (it still counts against max-concurrent), but takes no more acknowledgements.
   */
  startFinalizing(): void {
    this.#state = pendingCheckpointMachine.transition(this.#state, { type: 'FINALIZE' });
  }

  get isFinalizing(): boolean {
    return this.#state.value === 'finalizing';
  }

  /** What `_metadata` describes: every subtask's snapshot, with the totals. */
  completedCheckpoint(completionTimestamp: number, externalPath: string): CompletedCheckpoint {
    const taskStates = new Map(this.#finished);
    let stateSize = 0;
    let checkpointedSize = 0;
    for (const [key, ack] of this.#acknowledged) {
      taskStates.set(key, ack.snapshot);
      stateSize += ack.snapshot.stateSize;
      checkpointedSize += ack.snapshot.checkpointedSize;
    }
    return {
      id: this.id,
      isSavepoint: this.isSavepoint,
      triggerTimestamp: this.triggerTimestamp,
      completionTimestamp,
      externalPath,
      taskStates,
      parallelism: { ...this.parallelism },
      stateSize,
      checkpointedSize,
    };
  }

  abort(): void {
    this.#state = pendingCheckpointMachine.transition(this.#state, { type: 'FAIL' });
  }
}

import type { SinkTransaction, StreamRecord } from '../protocol.ts';

/**
 * The prefix of a sink subtask's transaction ids: unique per subtask, execution attempt and
 * JobManager run, so a new transaction never reuses an id the external system committed.
 */
export function transactionPrefix(vertexId: string, subtaskIndex: number, deployment: { attempt: number; executionGraphId?: string }): string {
  const run = deployment.executionGraphId === undefined ? '' : `/${deployment.executionGraphId}`;
  return `${vertexId}#${subtaskIndex}@${deployment.attempt}${run}`;
}

/**
 * A two-phase-commit sink, as Flink's TwoPhaseCommitSinkFunction:
 * - records go into the current transaction, invisible to readers of the external system;
 * - on a snapshot the current transaction is pre-committed, kept as pending under the
 *   checkpoint id, and a new one begins;
 * - when checkpoint N is known complete, every pending transaction of a checkpoint ≤ N is
 *   committed (notifications may be lost or merged, so "commit everything ≤ N");
 * - on restore, the pending transactions in the restored state are committed again
 *   (recoverAndCommit; the external system ignores ids it has committed) and the transaction
 *   that was open at the failure is simply dropped (recoverAndAbort);
 * - when the input ends nothing is committed (FLIP-147): the task's final checkpoint pre-commits
 *   the last transaction and its completion commits it, so a failover before that completion
 *   replays records that were never committed, and one after it finds them in the restored state.
 *   Only when no final checkpoint can come (periodic checkpointing off) does the sink commit
 *   everything at the end of its input, as Flink's CommitterOperator#endInput does.
 */
export class TwoPhaseCommitSink {
  #current: StreamRecord[] = [];
  #pending: SinkTransaction[] = [];
  #nextSeq = 0;

  constructor(
    /** unique per subtask and execution attempt, so new transactions never reuse a committed id */
    private readonly transactionPrefix: string,
  ) {}

  write(record: StreamRecord): void {
    this.#current.push(record);
  }

  /** Pre-commits the current transaction for `checkpointId`; returns the pending set for the snapshot. */
  snapshot(checkpointId: number): SinkTransaction[] {
    this.#pending.push({ id: `${this.transactionPrefix}-${this.#nextSeq++}`, checkpointId, records: this.#current });
    this.#current = [];
    return this.#pending.slice();
  }

  /** Checkpoint `checkpointId` completed: the transactions to commit now. */
  notifyCheckpointComplete(checkpointId: number): SinkTransaction[] {
    const commit = this.#pending.filter((t) => t.checkpointId <= checkpointId);
    this.#pending = this.#pending.filter((t) => t.checkpointId > checkpointId);
    return commit;
  }

  /** Restored state: these were pre-committed in a completed checkpoint, so they are committed again. */
  recoverAndCommit(restored: readonly SinkTransaction[]): SinkTransaction[] {
    return restored.slice();
  }

  /**
   * End of input without checkpointing: pre-commit and commit everything now ("There will be no
   * final checkpoint, all committables should be committed here", CommitterOperator#endInput).
   * Not exactly-once: a failover afterwards replays and commits these records again.
   */
  commitOnEndOfInput(checkpointId: number): SinkTransaction[] {
    this.snapshot(checkpointId);
    const all = this.#pending;
    this.#pending = [];
    return all;
  }

  get pendingTransactions(): number {
    return this.#pending.length;
  }

  get uncommittedRecords(): number {
    return this.#current.length + this.#pending.reduce((n, t) => n + t.records.length, 0);
  }
}

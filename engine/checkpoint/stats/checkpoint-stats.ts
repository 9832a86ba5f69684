import type {
  CheckpointStatsStatus,
  CheckpointStatsType,
  SavepointFormat,
  SubtaskCheckpointStats,
  VertexParallelism,
} from './checkpoint-stats-types.ts';
import { TaskStateStats } from './task-state-stats.ts';

/** What Flink's REST API calls the kind of a snapshot (CheckpointStatistics.RestAPICheckpointType). */
export type RestCheckpointType = 'CHECKPOINT' | 'UNALIGNED_CHECKPOINT' | 'SAVEPOINT' | 'SYNC_SAVEPOINT';

/**
 * The statistics of one checkpoint or savepoint through its life: Flink's PendingCheckpointStats,
 * which becomes a CompletedCheckpointStats or a FailedCheckpointStats. Flink swaps objects; here one
 * object changes status, and stops taking subtask reports once it is no longer in progress.
 */
export class CheckpointStats {
  readonly tasks: ReadonlyMap<string, TaskStateStats>;
  readonly numSubtasks: number;
  readonly savepointFormat: SavepointFormat | null;
  #status: CheckpointStatsStatus = 'IN_PROGRESS';
  #numAcknowledged = 0;
  #checkpointedSize = 0;
  #stateSize = 0;
  #processedData = 0;
  #persistedData = 0;
  #unaligned = false;
  #latestAcknowledged: SubtaskCheckpointStats | undefined;
  #externalPath: string | null = null;
  #discarded = false;
  #failureTimestamp = 0;
  #failureMessage: string | null = null;

  constructor(
    readonly id: number,
    readonly triggerTimestamp: number,
    readonly type: CheckpointStatsType,
    vertices: readonly VertexParallelism[],
    savepointFormat?: SavepointFormat,
  ) {
    this.tasks = new Map(vertices.map((v) => [v.vertexId, new TaskStateStats(v.vertexId, v.parallelism)]));
    this.numSubtasks = vertices.reduce((sum, v) => sum + v.parallelism, 0);
    this.savepointFormat = type === 'SAVEPOINT' || type === 'SYNC_SAVEPOINT' ? (savepointFormat ?? 'CANONICAL') : null;
  }

  get status(): CheckpointStatsStatus {
    return this.#status;
  }

  get isSavepoint(): boolean {
    return this.type === 'SAVEPOINT' || this.type === 'SYNC_SAVEPOINT';
  }

  /** @returns whether the report was taken (in progress, known vertex, new subtask index) */
  reportSubtaskStats(vertexId: string, subtask: SubtaskCheckpointStats): boolean {
    if (this.#status !== 'IN_PROGRESS') return false;
    const task = this.tasks.get(vertexId);
    if (task === undefined || !task.report(subtask)) return false;
    if (!subtask.aborted) {
      this.#numAcknowledged++;
      this.#latestAcknowledged = subtask;
    }
    this.#checkpointedSize += subtask.checkpointedSize;
    this.#stateSize += subtask.stateSize;
    // Flink only adds positive in-flight figures: metrics use -1 for "not measured".
    if (subtask.processedDataBytes > 0) this.#processedData += subtask.processedDataBytes;
    if (subtask.persistedDataBytes > 0) this.#persistedData += subtask.persistedDataBytes;
    this.#unaligned ||= subtask.unalignedCheckpoint;
    return true;
  }

  complete(externalPath: string): void {
    this.#status = 'COMPLETED';
    this.#externalPath = externalPath;
  }

  fail(failureTimestamp: number, failureMessage: string): void {
    this.#status = 'FAILED';
    this.#failureTimestamp = failureTimestamp;
    this.#failureMessage = failureMessage;
  }

  /** A completed checkpoint was subsumed or otherwise deleted. */
  markDiscarded(): void {
    this.#discarded = true;
  }

  /**
   * Flink's CompletedCheckpointStats reports every subtask as acknowledged (it may only exist once
   * all have), so a completed checkpoint counts num_subtasks here whatever was reported.
   */
  get numAcknowledgedSubtasks(): number {
    return this.#status === 'COMPLETED' ? this.numSubtasks : this.#numAcknowledged;
  }

  get checkpointedSize(): number {
    return this.#checkpointedSize;
  }

  get stateSize(): number {
    return this.#stateSize;
  }

  get processedData(): number {
    return this.#processedData;
  }

  get persistedData(): number {
    return this.#persistedData;
  }

  /** The acknowledgement reported last, -1 before any (AbstractCheckpointStats). */
  get latestAckTimestamp(): number {
    return this.#latestAcknowledged?.ackTimestamp ?? -1;
  }

  /**
   * Trigger to latest acknowledgement, -1 before any; a failed checkpoint counts up to its failure
   * instead (FailedCheckpointStats.getEndToEndDuration).
   */
  get endToEndDuration(): number {
    if (this.#status === 'FAILED') return Math.max(0, this.#failureTimestamp - this.triggerTimestamp);
    const latest = this.#latestAcknowledged;
    return latest === undefined ? -1 : Math.max(0, latest.ackTimestamp - this.triggerTimestamp);
  }

  /** Savepoints are SAVEPOINT (stop-with-savepoint's SYNC_SAVEPOINT); a checkpoint is unaligned once any subtask reported it so. */
  get restCheckpointType(): RestCheckpointType {
    if (this.isSavepoint) return this.type === 'SYNC_SAVEPOINT' ? 'SYNC_SAVEPOINT' : 'SAVEPOINT';
    return this.#unaligned ? 'UNALIGNED_CHECKPOINT' : 'CHECKPOINT';
  }

  get externalPath(): string | null {
    return this.#externalPath;
  }

  get discarded(): boolean {
    return this.#discarded;
  }

  get failureTimestamp(): number {
    return this.#failureTimestamp;
  }

  get failureMessage(): string | null {
    return this.#failureMessage;
  }
}

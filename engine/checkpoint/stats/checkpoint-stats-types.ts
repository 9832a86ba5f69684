/**
 * What the checkpoint coordinator reports to the statistics tracker (Flink's
 * CheckpointStatsTracker callbacks), in the playground's terms.
 */

/**
 * The kind of snapshot the coordinator triggered. Only SAVEPOINT versus the rest matters for the
 * statistics: as in Flink (FLINK-31959), a checkpoint shows as UNALIGNED_CHECKPOINT once one of its
 * subtasks reports `unalignedCheckpoint`, so an aligned-timeout checkpoint that stayed aligned
 * shows as CHECKPOINT even when it was triggered as UNALIGNED_CHECKPOINT.
 */
export type CheckpointStatsType = 'CHECKPOINT' | 'UNALIGNED_CHECKPOINT' | 'SAVEPOINT' | 'SYNC_SAVEPOINT';

/** Flink's SavepointFormatType; CANONICAL is Flink's default. */
export type SavepointFormat = 'CANONICAL' | 'NATIVE';

/** Flink's CheckpointStatsStatus. */
export type CheckpointStatsStatus = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

/** What a subtask's acknowledgement reports (Flink's SubtaskStateStats, from CheckpointMetrics). */
export interface SubtaskCheckpointStats {
  subtaskIndex: number;
  /** ms (virtual time since the job started; treated as epoch ms) */
  ackTimestamp: number;
  /** bytes, full state */
  stateSize: number;
  /** bytes persisted by this checkpoint (the delta when incremental) */
  checkpointedSize: number;
  syncDurationMs: number;
  asyncDurationMs: number;
  alignmentDurationMs: number;
  startDelayMs: number;
  /** bytes processed during alignment */
  processedDataBytes: number;
  /** in-flight bytes persisted (unaligned) */
  persistedDataBytes: number;
  unalignedCheckpoint: boolean;
  /**
   * The subtask did not complete its part (Flink's SubtaskStateStats with completed = false): it is
   * listed, and its sizes count, but it is not an acknowledgement.
   */
  aborted: boolean;
}

/** A job vertex and how many subtasks it runs with. */
export interface VertexParallelism {
  vertexId: string;
  parallelism: number;
}

/** The checkpoint or savepoint the job last restored from (Flink's RestoredCheckpointStats). */
export interface RestoredCheckpointStats {
  id: number;
  restoreTimestamp: number;
  isSavepoint: boolean;
  externalPath: string | null;
}

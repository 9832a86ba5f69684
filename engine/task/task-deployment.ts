import type { Partitioning, VertexSpec } from '../scenario/scenario-types.ts';
import type { KeyGroupRange } from '../state/key-group-range.ts';
import type { CheckpointingMode } from '../config/flink-config.ts';

/** One output edge of a subtask: its partitioning and a channel per downstream subtask. */
export interface OutputDeployment {
  partitioning: Partitioning;
  /** channel ids, indexed by downstream subtask (one entry for a forward edge) */
  channelIds: number[];
  downstreamParallelism: number;
  downstreamMaxParallelism: number;
}

/**
 * Everything a subtask needs to run (Flink's TaskDeploymentDescriptor): what operator, where its
 * inputs come from and outputs go, and the network sizing.
 */
export interface TaskDeployment {
  vertex: VertexSpec;
  subtaskIndex: number;
  maxParallelism: number;
  keyGroupRange: KeyGroupRange;
  /** one gate per input edge, in input order; each the channel ids from the upstream subtasks */
  inputGates: number[][];
  outputs: OutputDeployment[];
  /** records that fit in one network buffer (segment size / record size) */
  recordsPerBuffer: number;
  recordSizeBytes: number;
  /** buffers an input channel can hold: the credit it announces to its sender */
  creditsPerChannel: number;
  /** execution.buffer-timeout.interval, ms */
  bufferTimeout: number;
  /** pipeline.auto-watermark-interval, ms */
  autoWatermarkInterval: number;
  /** the job's seed, for sources that draw random records */
  seed: number;
  /** execution attempt of the job (0 first, +1 per restart): makes sink transaction ids unique */
  attempt: number;
  /**
   * Which JobManager run deployed it, when the job did not start from nothing (Flink's
   * ExecutionGraphID, new with every JobManager): a job resumed from a checkpoint counts its
   * attempts from 0 again, and its sink transaction ids must not be ones an earlier run committed.
   */
  executionGraphId?: string;
  /** execution.checkpointing.incremental, for backends that support it (rocksdb) */
  incrementalCheckpoints: boolean;
  /** execution.checkpointing.snapshot-compression: full snapshots are snappy-compressed per key group */
  snapshotCompression: boolean;
  /** execution.checkpointing.mode: EXACTLY_ONCE aligns barriers, AT_LEAST_ONCE only tracks them */
  checkpointingMode: CheckpointingMode;
  /** execution.checkpointing.checkpoints-after-tasks-finish (FLIP-147) */
  checkpointsAfterTasksFinish: boolean;
  /** periodic checkpointing is on (execution.checkpointing.interval is set): Flink's StreamConfig#isCheckpointingEnabled */
  checkpointingEnabled: boolean;
}

/**
 * The Flink configuration as the engine reads it: every option the playground knows, with Flink's
 * default filled in. Built by `readConfig` (flink-options.ts) from a scenario's `config`.
 *
 * Units: every duration is in milliseconds, every memory size in bytes (fields end in `Bytes`).
 */

export type CheckpointingMode = 'EXACTLY_ONCE' | 'AT_LEAST_ONCE';

export type ExternalizedCheckpointRetention =
  | 'NO_EXTERNALIZED_CHECKPOINTS'
  | 'DELETE_ON_CANCELLATION'
  | 'RETAIN_ON_CANCELLATION';

export type StateBackendType = 'hashmap' | 'rocksdb';

export type RecoveryClaimMode = 'NO_CLAIM' | 'CLAIM';

export type TimerServiceFactory = 'ROCKSDB' | 'HEAP';

export type CheckpointStorageType = 'jobmanager' | 'filesystem';

/** Flink's restart strategies that the playground models, with their resolved settings. */
export type RestartStrategyConfig =
  | { type: 'none' }
  | { type: 'fixed-delay'; attempts: number; delay: number }
  | {
      type: 'exponential-delay';
      initialBackoff: number;
      maxBackoff: number;
      backoffMultiplier: number;
      resetBackoffThreshold: number;
      jitterFactor: number;
      attemptsBeforeResetBackoff: number;
    };

export interface FlinkConfig {
  // interval-and-pause
  /** undefined when periodic checkpoints are off: not configured, or below 10 ms as in Flink */
  checkpointInterval: number | undefined;
  minPause: number;
  maxConcurrentCheckpoints: number;
  checkpointsAfterTasksFinish: boolean;

  // mode-and-alignment
  checkpointingMode: CheckpointingMode;
  unalignedEnabled: boolean;
  alignedCheckpointTimeout: number;

  // timeout-and-failures
  checkpointTimeout: number;
  tolerableFailedCheckpoints: number;
  heartbeatInterval: number;
  heartbeatTimeout: number;

  // retention
  numRetained: number;
  externalizedRetention: ExternalizedCheckpointRetention;
  checkpointStorage: CheckpointStorageType | undefined;
  checkpointDir: string | undefined;
  savepointDir: string | undefined;
  /** `execution.checkpointing.data-inline-threshold`: a subtask's state file of at most this many bytes goes inline into `_metadata` */
  dataInlineThresholdBytes: number;
  claimMode: RecoveryClaimMode;
  checkpointsHistory: number;

  // state-backend
  stateBackend: StateBackendType;
  incremental: boolean;
  rocksdbTransferThreadNum: number;

  // rocksdb-memory
  rocksdbMemoryManaged: boolean;
  rocksdbFixedMemoryPerSlotBytes: number | undefined;
  rocksdbWriteBufferRatio: number;
  rocksdbHighPriorityPoolRatio: number;
  rocksdbWriteBufferSizeBytes: number;
  rocksdbWriteBufferCount: number;
  rocksdbThreadNum: number;
  /**
   * Flushes take the local disk's time on `rocksdbThreadNum` threads (and writes can stall) only
   * when the scenario sets state.backend.rocksdb.thread.num; otherwise they are inline, so
   * scenarios written before timed flushes keep their figures.
   */
  rocksdbFlushesTimed: boolean;
  rocksdbBlockCacheSizeBytes: number;
  managedMemoryFraction: number;
  managedMemorySizeBytes: number | undefined;

  // timers
  timerServiceFactory: TimerServiceFactory;
  autoWatermarkInterval: number;

  // compression
  snapshotCompression: boolean;

  // local-recovery
  /** `execution.checkpointing.local-backup.enabled`: write a local copy of each snapshot */
  localBackupEnabled: boolean;
  /** `execution.state-recovery.from-local`: restore from the local copy when there is one */
  localRecovery: boolean;

  // restart-strategy
  restartStrategy: RestartStrategyConfig;

  // network
  buffersPerChannel: number;
  floatingBuffersPerGate: number;
  segmentSizeBytes: number;
  bufferTimeout: number;

  // parallelism
  defaultParallelism: number;
  /** -1 means Flink's default rule (see `pipeline.max-parallelism`) */
  maxParallelism: number;
  numberOfTaskSlots: number;
}

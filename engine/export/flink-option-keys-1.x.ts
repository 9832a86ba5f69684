/**
 * Option keys of Flink 1.x's `flink-conf.yaml` in the spellings every release from 1.15 to 1.20
 * reads: 1.17 to 1.20 introduced newer names (`state.backend.type`, `restart-strategy.type`,
 * `execution.buffer-timeout.interval`, and 1.20's FLINK-34482 renames such as
 * `execution.checkpointing.incremental`) but kept reading these as deprecated keys. Every key the
 * 1.x export writes must be one of these; tests/export checks it.
 *
 * Source: the Flink 1.15 to 1.19 configuration pages,
 * https://nightlies.apache.org/flink/flink-docs-release-1.19/docs/deployment/config/
 * (and the deprecated keys `CheckpointingOptions` of 1.20 still lists:
 * https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/).
 * One key is newer than 1.15: `restart-strategy.exponential-delay.attempts-before-reset-backoff`
 * (1.19, FLIP-364); older releases ignore it, as flink-conf.yaml ignores any unknown key.
 */
export const FLINK_1X_OPTION_KEYS: ReadonlySet<string> = new Set([
  // ExecutionCheckpointingOptions (1.x)
  'execution.checkpointing.interval',
  'execution.checkpointing.min-pause',
  'execution.checkpointing.max-concurrent-checkpoints',
  'execution.checkpointing.timeout',
  'execution.checkpointing.tolerable-failed-checkpoints',
  'execution.checkpointing.mode',
  'execution.checkpointing.unaligned',
  'execution.checkpointing.aligned-checkpoint-timeout',
  'execution.checkpointing.checkpoints-after-tasks-finish.enabled',
  'execution.checkpointing.externalized-checkpoint-retention',
  'execution.checkpointing.snapshot-compression',
  // CheckpointingOptions (1.x)
  'state.backend',
  'state.backend.incremental',
  'state.backend.local-recovery',
  'state.checkpoint-storage',
  'state.checkpoints.dir',
  'state.checkpoints.num-retained',
  'state.savepoints.dir',
  'state.storage.fs.memory-threshold',
  'taskmanager.state.local.root-dirs',
  // SavepointConfigOptions
  'execution.savepoint.path',
  'execution.savepoint.ignore-unclaimed-state',
  'execution.savepoint-restore-mode',
  // RocksDBOptions, RocksDBConfigurableOptions
  'state.backend.rocksdb.checkpoint.transfer.thread.num',
  'state.backend.rocksdb.localdir',
  'state.backend.rocksdb.timer-service.factory',
  'state.backend.rocksdb.predefined-options',
  'state.backend.rocksdb.memory.managed',
  'state.backend.rocksdb.memory.fixed-per-slot',
  'state.backend.rocksdb.memory.write-buffer-ratio',
  'state.backend.rocksdb.memory.high-prio-pool-ratio',
  'state.backend.rocksdb.memory.partitioned-index-filters',
  'state.backend.rocksdb.writebuffer.size',
  'state.backend.rocksdb.writebuffer.count',
  'state.backend.rocksdb.writebuffer.number-to-merge',
  'state.backend.rocksdb.thread.num',
  'state.backend.rocksdb.block.cache-size',
  'state.backend.rocksdb.block.blocksize',
  // RestartStrategyOptions
  'restart-strategy',
  'restart-strategy.fixed-delay.attempts',
  'restart-strategy.fixed-delay.delay',
  'restart-strategy.failure-rate.max-failures-per-interval',
  'restart-strategy.failure-rate.failure-rate-interval',
  'restart-strategy.failure-rate.delay',
  'restart-strategy.exponential-delay.initial-backoff',
  'restart-strategy.exponential-delay.max-backoff',
  'restart-strategy.exponential-delay.backoff-multiplier',
  'restart-strategy.exponential-delay.reset-backoff-threshold',
  'restart-strategy.exponential-delay.jitter-factor',
  'restart-strategy.exponential-delay.attempts-before-reset-backoff',
  // HeartbeatManagerOptions
  'heartbeat.interval',
  'heartbeat.timeout',
  // TaskManagerOptions, NettyShuffleEnvironmentOptions
  'taskmanager.numberOfTaskSlots',
  'taskmanager.memory.process.size',
  'taskmanager.memory.flink.size',
  'taskmanager.memory.managed.fraction',
  'taskmanager.memory.managed.size',
  'taskmanager.memory.segment-size',
  'taskmanager.network.memory.buffers-per-channel',
  'taskmanager.network.memory.floating-buffers-per-gate',
  'taskmanager.network.memory.buffer-debloat.enabled',
  // ExecutionOptions, PipelineOptions, CoreOptions, WebOptions
  'execution.runtime-mode',
  'execution.buffer-timeout',
  'pipeline.name',
  'pipeline.max-parallelism',
  'pipeline.auto-watermark-interval',
  'parallelism.default',
  'web.checkpoints.history',
]);

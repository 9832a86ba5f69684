import type { ExternalizedCheckpointRetention, FlinkConfig } from '../../config/flink-config.ts';
import type { CheckpointConfigDocument } from './rest-document-types.ts';

/**
 * Java's Long.MAX_VALUE (2^63 − 1) as JSON.parse reads it from Flink's response: the nearest double,
 * 2^63. Flink reports it as the interval when periodic checkpoints are off; its dashboard compares
 * against '0x7fffffffffffffff' and prints "Periodic checkpoints disabled".
 */
export const LONG_MAX_VALUE = 2 ** 63;

/** Flink's default `state.changelog.periodic-materialize.interval` (10 min), in ms. */
const DEFAULT_PERIODIC_MATERIALIZATION_INTERVAL_MS = 600_000;

/** The FlinkConfig fields the config endpoint reports. */
export type CheckpointConfigSource = Pick<
  FlinkConfig,
  | 'checkpointInterval'
  | 'checkpointingMode'
  | 'checkpointTimeout'
  | 'minPause'
  | 'maxConcurrentCheckpoints'
  | 'externalizedRetention'
  | 'stateBackend'
  | 'checkpointStorage'
  | 'checkpointDir'
  | 'unalignedEnabled'
  | 'tolerableFailedCheckpoints'
  | 'alignedCheckpointTimeout'
  | 'checkpointsAfterTasksFinish'
>;

/**
 * CheckpointConfigHandler: GET /jobs/:jobid/checkpoints/config (CheckpointConfigInfo).
 *
 * Flink answers 404 only when a job has no checkpoint coordinator configuration at all (batch jobs).
 * A streaming job always has one, even with periodic checkpoints off (savepoints still need it), and
 * then reports an interval of Long.MAX_VALUE. The playground only runs streaming jobs, so this
 * always returns a document.
 */
export function checkpointConfigDocument(config: CheckpointConfigSource): CheckpointConfigDocument {
  return {
    mode: config.checkpointingMode === 'EXACTLY_ONCE' ? 'exactly_once' : 'at_least_once',
    interval: config.checkpointInterval ?? LONG_MAX_VALUE,
    timeout: config.checkpointTimeout,
    min_pause: config.minPause,
    max_concurrent: config.maxConcurrentCheckpoints,
    externalization: externalization(config.externalizedRetention),
    state_backend: config.stateBackend === 'rocksdb' ? 'EmbeddedRocksDBStateBackend' : 'HashMapStateBackend',
    checkpoint_storage: checkpointStorageName(config),
    unaligned_checkpoints: config.unalignedEnabled,
    tolerable_failed_checkpoints: config.tolerableFailedCheckpoints,
    aligned_checkpoint_timeout: config.alignedCheckpointTimeout,
    checkpoints_after_tasks_finish: config.checkpointsAfterTasksFinish,
    state_changelog_enabled: false,
    changelog_periodic_materialization_interval: DEFAULT_PERIODIC_MATERIALIZATION_INTERVAL_MS,
    changelog_storage: 'memory',
  };
}

/**
 * The retention option maps to a CheckpointRetentionPolicy; the handler reports
 * enabled = policy ≠ NEVER_RETAIN_AFTER_TERMINATION and delete = policy ≠ RETAIN_ON_CANCELLATION.
 */
function externalization(retention: ExternalizedCheckpointRetention): CheckpointConfigDocument['externalization'] {
  return {
    enabled: retention !== 'NO_EXTERNALIZED_CHECKPOINTS',
    delete_on_cancellation: retention !== 'RETAIN_ON_CANCELLATION',
  };
}

/** The storage's class simple name; unset storage follows Flink: a checkpoint directory means files. */
function checkpointStorageName(config: CheckpointConfigSource): string {
  const storage = config.checkpointStorage ?? (config.checkpointDir !== undefined ? 'filesystem' : 'jobmanager');
  return storage === 'filesystem' ? 'FileSystemCheckpointStorage' : 'JobManagerCheckpointStorage';
}

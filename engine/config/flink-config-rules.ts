/**
 * Flink's rules that involve more than one option. Each rule is a small function; an `error` is
 * something Flink rejects (or the playground cannot run), a `note` is something a Flink user would
 * want pointed out because it has no effect or silently turns a feature off.
 */

import { formatDuration } from './duration.ts';
import type { FlinkConfig } from './flink-config.ts';
import { MINIMAL_CHECKPOINT_INTERVAL_MS } from './flink-options.ts';

export interface ConfigFinding {
  /** the option the finding is reported on */
  key: string;
  severity: 'error' | 'note';
  message: string;
  allowed?: string;
}

/** `given` holds the keys the user set explicitly (current keys). */
type Rule = (config: FlinkConfig, given: ReadonlySet<string>) => ConfigFinding | undefined;

const UNALIGNED = 'execution.checkpointing.unaligned.enabled';
const INTERVAL = 'execution.checkpointing.interval';

/** `CheckpointCoordinatorConfiguration`: unaligned checkpoints need EXACTLY_ONCE. */
const unalignedNeedsExactlyOnce: Rule = (c) =>
  c.unalignedEnabled && c.checkpointingMode !== 'EXACTLY_ONCE'
    ? {
        key: UNALIGNED,
        severity: 'error',
        message: `unaligned checkpoints need execution.checkpointing.mode EXACTLY_ONCE, but it is ${c.checkpointingMode}`,
        allowed: 'false, or set execution.checkpointing.mode to EXACTLY_ONCE',
      }
    : undefined;

/** `CheckpointCoordinatorConfiguration`: "maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled". */
const unalignedNeedsOneConcurrent: Rule = (c) =>
  c.unalignedEnabled && c.maxConcurrentCheckpoints > 1
    ? {
        key: UNALIGNED,
        severity: 'error',
        message: `unaligned checkpoints need execution.checkpointing.max-concurrent-checkpoints 1, but it is ${c.maxConcurrentCheckpoints}`,
        allowed: 'false, or set execution.checkpointing.max-concurrent-checkpoints to 1',
      }
    : undefined;

/** `HeartbeatServices`: "The heartbeat timeout should be larger or equal than the heartbeat interval." */
const heartbeatTimeoutCoversInterval: Rule = (c) =>
  c.heartbeatTimeout < c.heartbeatInterval
    ? {
        key: 'heartbeat.timeout',
        severity: 'error',
        message: `heartbeat timeout ${formatDuration(c.heartbeatTimeout)} is shorter than heartbeat.interval ${formatDuration(c.heartbeatInterval)}`,
        allowed: `at least ${formatDuration(c.heartbeatInterval)}`,
      }
    : undefined;

/** `RocksDBMemoryConfiguration.validate`, checked only when both ratios are set, as Flink does. */
const rocksdbRatiosFit: Rule = (c, given) =>
  given.has('state.backend.rocksdb.memory.write-buffer-ratio') &&
  given.has('state.backend.rocksdb.memory.high-prio-pool-ratio') &&
  c.rocksdbWriteBufferRatio + c.rocksdbHighPriorityPoolRatio > 1
    ? {
        key: 'state.backend.rocksdb.memory.high-prio-pool-ratio',
        severity: 'error',
        message: `write-buffer-ratio ${c.rocksdbWriteBufferRatio} plus high-prio-pool-ratio ${c.rocksdbHighPriorityPoolRatio} is more than 1`,
        allowed: `at most ${round(1 - c.rocksdbWriteBufferRatio)}`,
      }
    : undefined;

/** The playground's own limit: a channel with no buffer at all could never receive a record. */
const channelsHaveABuffer: Rule = (c) =>
  c.buffersPerChannel === 0 && c.floatingBuffersPerGate === 0
    ? {
        key: 'taskmanager.network.memory.buffers-per-channel',
        severity: 'error',
        message: 'with no exclusive and no floating buffers an input channel can never receive a record',
        allowed: 'at least 1 here or in taskmanager.network.memory.floating-buffers-per-gate',
      }
    : undefined;

const checkpointingOff: Rule = (c, given) => {
  if (c.checkpointInterval !== undefined) return undefined;
  const message = given.has(INTERVAL)
    ? `an interval below ${MINIMAL_CHECKPOINT_INTERVAL_MS} ms turns periodic checkpoints off, as in Flink`
    : 'periodic checkpoints are off because execution.checkpointing.interval is not set';
  return { key: INTERVAL, severity: 'note', message };
};

const alignedTimeoutWithoutUnaligned: Rule = (c, given) =>
  given.has('execution.checkpointing.aligned-checkpoint-timeout') && !c.unalignedEnabled
    ? {
        key: 'execution.checkpointing.aligned-checkpoint-timeout',
        severity: 'note',
        message: `has no effect unless ${UNALIGNED} is true`,
      }
    : undefined;

const incrementalNeedsRocksdb: Rule = (c) =>
  c.incremental && c.stateBackend !== 'rocksdb'
    ? {
        key: 'execution.checkpointing.incremental',
        severity: 'note',
        message: 'the hashmap state backend ignores it; only state.backend.type rocksdb takes incremental checkpoints',
      }
    : undefined;

const rocksdbOptionsNeedRocksdb: Rule = (c, given) => {
  const key = [...given].find((k) => k.startsWith('state.backend.rocksdb.'));
  return key !== undefined && c.stateBackend !== 'rocksdb'
    ? { key, severity: 'note', message: 'RocksDB options have no effect with state.backend.type hashmap' }
    : undefined;
};

/** Flink's large_state_tuning: incremental RocksDB files are already snappy-compressed. */
const compressionWithIncrementalRocksdb: Rule = (c) =>
  c.snapshotCompression && c.incremental && c.stateBackend === 'rocksdb'
    ? {
        key: 'execution.checkpointing.snapshot-compression',
        severity: 'note',
        message: 'has no effect on incremental RocksDB checkpoints, whose files are already compressed',
      }
    : undefined;

const localRecoveryWithoutBackup: Rule = (c) =>
  c.localRecovery && !c.localBackupEnabled
    ? {
        key: 'execution.state-recovery.from-local',
        severity: 'note',
        message: 'execution.checkpointing.local-backup.enabled is false, so there is no local copy to recover from',
      }
    : undefined;

const RULES: readonly Rule[] = [
  unalignedNeedsExactlyOnce,
  unalignedNeedsOneConcurrent,
  heartbeatTimeoutCoversInterval,
  rocksdbRatiosFit,
  channelsHaveABuffer,
  checkpointingOff,
  alignedTimeoutWithoutUnaligned,
  incrementalNeedsRocksdb,
  rocksdbOptionsNeedRocksdb,
  compressionWithIncrementalRocksdb,
  localRecoveryWithoutBackup,
];

export function checkConfigRules(config: FlinkConfig, given: ReadonlySet<string>): ConfigFinding[] {
  return RULES.map((rule) => rule(config, given)).filter((f): f is ConfigFinding => f !== undefined);
}

function round(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

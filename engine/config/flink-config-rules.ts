/**
 * Flink's rules that involve more than one option. Each rule is a small function; an `error` is
 * something Flink rejects (or the playground cannot run), a `note` is something a Flink user would
 * want pointed out because it has no effect or silently turns a feature off.
 */

import { message, renderEnglish } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';
import { formatDuration } from './duration.ts';
import type { FlinkConfig } from './flink-config.ts';
import { MINIMAL_CHECKPOINT_INTERVAL_MS } from './flink-options.ts';

export interface ConfigFinding {
  /** the option the finding is reported on */
  key: string;
  severity: 'error' | 'note';
  problem: EngineMessage;
  allowedMessage?: EngineMessage;
  /** English renderings of `problem` and `allowedMessage` */
  message: string;
  allowed?: string;
}

/** What a rule finds; the English texts are filled in once, by `checkConfigRules`. */
type RuleFinding = Omit<ConfigFinding, 'message' | 'allowed'>;

/** `given` holds the keys the user set explicitly (current keys). */
type Rule = (config: FlinkConfig, given: ReadonlySet<string>) => RuleFinding | undefined;

const UNALIGNED = 'execution.checkpointing.unaligned.enabled';
const INTERVAL = 'execution.checkpointing.interval';

/** `CheckpointCoordinatorConfiguration`: unaligned checkpoints need EXACTLY_ONCE. */
const unalignedNeedsExactlyOnce: Rule = (c) =>
  c.unalignedEnabled && c.checkpointingMode !== 'EXACTLY_ONCE'
    ? {
        key: UNALIGNED,
        severity: 'error',
        problem: message('rule.unaligned-needs', { key: 'execution.checkpointing.mode', wanted: 'EXACTLY_ONCE', actual: c.checkpointingMode }),
        allowedMessage: message('allowed.false-or-set', { key: 'execution.checkpointing.mode', value: 'EXACTLY_ONCE' }),
      }
    : undefined;

/** `CheckpointCoordinatorConfiguration`: "maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled". */
const unalignedNeedsOneConcurrent: Rule = (c) =>
  c.unalignedEnabled && c.maxConcurrentCheckpoints > 1
    ? {
        key: UNALIGNED,
        severity: 'error',
        problem: message('rule.unaligned-needs', {
          key: 'execution.checkpointing.max-concurrent-checkpoints',
          wanted: '1',
          actual: String(c.maxConcurrentCheckpoints),
        }),
        allowedMessage: message('allowed.false-or-set', { key: 'execution.checkpointing.max-concurrent-checkpoints', value: '1' }),
      }
    : undefined;

/** `HeartbeatServices`: "The heartbeat timeout should be larger or equal than the heartbeat interval." */
const heartbeatTimeoutCoversInterval: Rule = (c) =>
  c.heartbeatTimeout < c.heartbeatInterval
    ? {
        key: 'heartbeat.timeout',
        severity: 'error',
        problem: message('rule.heartbeat', { timeout: formatDuration(c.heartbeatTimeout), interval: formatDuration(c.heartbeatInterval) }),
        allowedMessage: message('bounds', { bounds: [{ word: 'at least', value: formatDuration(c.heartbeatInterval) }] }),
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
        problem: message('rule.rocksdb-ratios', { writeBuffer: c.rocksdbWriteBufferRatio, highPriority: c.rocksdbHighPriorityPoolRatio }),
        allowedMessage: message('bounds', { bounds: [{ word: 'at most', value: String(round(1 - c.rocksdbWriteBufferRatio)) }] }),
      }
    : undefined;

/** The playground's own limit: a channel with no buffer at all could never receive a record. */
const channelsHaveABuffer: Rule = (c) =>
  c.buffersPerChannel === 0 && c.floatingBuffersPerGate === 0
    ? {
        key: 'taskmanager.network.memory.buffers-per-channel',
        severity: 'error',
        problem: message('rule.no-buffers'),
        allowedMessage: message('phrase', { text: 'at least 1 here or in taskmanager.network.memory.floating-buffers-per-gate' }),
      }
    : undefined;

const checkpointingOff: Rule = (c, given) => {
  if (c.checkpointInterval !== undefined) return undefined;
  const problem = given.has(INTERVAL)
    ? message('rule.interval-off', { min: MINIMAL_CHECKPOINT_INTERVAL_MS })
    : message('rule.interval-unset', { key: INTERVAL });
  return { key: INTERVAL, severity: 'note', problem };
};

const alignedTimeoutWithoutUnaligned: Rule = (c, given) =>
  given.has('execution.checkpointing.aligned-checkpoint-timeout') && !c.unalignedEnabled
    ? {
        key: 'execution.checkpointing.aligned-checkpoint-timeout',
        severity: 'note',
        problem: message('rule.needs-true', { key: UNALIGNED }),
      }
    : undefined;

const incrementalNeedsRocksdb: Rule = (c) =>
  c.incremental && c.stateBackend !== 'rocksdb'
    ? {
        key: 'execution.checkpointing.incremental',
        severity: 'note',
        problem: message('rule.incremental-needs-rocksdb'),
      }
    : undefined;

const rocksdbOptionsNeedRocksdb: Rule = (c, given) => {
  const key = [...given].find((k) => k.startsWith('state.backend.rocksdb.'));
  return key !== undefined && c.stateBackend !== 'rocksdb'
    ? { key, severity: 'note', problem: message('rule.rocksdb-options-on-hashmap') }
    : undefined;
};

/** Flink's large_state_tuning: incremental RocksDB files are already snappy-compressed. */
const compressionWithIncrementalRocksdb: Rule = (c) =>
  c.snapshotCompression && c.incremental && c.stateBackend === 'rocksdb'
    ? {
        key: 'execution.checkpointing.snapshot-compression',
        severity: 'note',
        problem: message('rule.compression-incremental'),
      }
    : undefined;

const localRecoveryWithoutBackup: Rule = (c) =>
  c.localRecovery && !c.localBackupEnabled
    ? {
        key: 'execution.state-recovery.from-local',
        severity: 'note',
        problem: message('rule.local-without-backup'),
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
  return RULES.map((rule) => rule(config, given))
    .filter((f): f is RuleFinding => f !== undefined)
    .map((f) => ({ ...f, message: renderEnglish(f.problem), ...(f.allowedMessage ? { allowed: renderEnglish(f.allowedMessage) } : {}) }));
}

function round(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

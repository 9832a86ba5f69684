/**
 * Every Flink option the playground knows: its key (Flink 2.x), value type, Flink's default, the
 * values and range Flink accepts, the keys it replaced, and how the UI shows it.
 *
 * Defaults follow Flink 2.x (`CheckpointingOptions`, `StateRecoveryOptions`, `RocksDBOptions`,
 * `RocksDBConfigurableOptions`, `RestartStrategyOptions`, `NettyShuffleEnvironmentOptions`,
 * `TaskManagerOptions`, `PipelineOptions`, `HeartbeatManagerOptions`, `WebOptions`); see
 * shared/notes/flink-semantics.md. Assumptions are noted where an option is declared.
 *
 * `readConfig` turns a scenario's `config` into a fully defaulted `FlinkConfig`.
 */

import type { ConfigValue } from '../scenario/scenario-types.ts';
import type {
  CheckpointingMode,
  CheckpointStorageType,
  ExternalizedCheckpointRetention,
  FlinkConfig,
  RecoveryClaimMode,
  RestartStrategyConfig,
  StateBackendType,
  TimerServiceFactory,
} from './flink-config.ts';
import { parseOptionValue } from './option-value.ts';
import { message } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

export type OptionType = 'duration' | 'memory' | 'integer' | 'boolean' | 'enum' | 'double' | 'string';

/** Sections of the UI's configuration panel. */
export const OPTION_GROUPS = [
  'interval-and-pause',
  'mode-and-alignment',
  'timeout-and-failures',
  'retention',
  'state-backend',
  'rocksdb-memory',
  'timers',
  'compression',
  'local-recovery',
  'restart-strategy',
  'network',
  'parallelism',
] as const;

export type OptionGroup = (typeof OPTION_GROUPS)[number];

/** Bounds on a numeric value, in the parsed unit (ms for durations, bytes for memory). */
export interface NumericRange {
  min?: number;
  max?: number;
  minExclusive?: boolean;
  maxExclusive?: boolean;
}

export interface FlinkOption {
  key: string;
  type: OptionType;
  /** Flink's default in parsed form (ms, bytes, canonical enum spelling); undefined when Flink has none */
  default: ConfigValue | undefined;
  /** why the default is what it is, when it is not a plain value (shown in the UI) */
  defaultNote?: string;
  /** enum values, spelled as Flink prints them; matching is case-insensitive as in Flink */
  values?: readonly string[];
  /** other spellings Flink accepts for an enum value: [alias, value] */
  aliases?: ReadonlyArray<readonly [string, string]>;
  range?: NumericRange;
  /** a value allowed outside `range`, with its meaning (e.g. -1 = Flink's default rule) */
  sentinel?: { value: number; meaning: string };
  /** an extra Flink check that a range cannot express; returns the problem, if any */
  check?: (value: number, shown: string) => EngineMessage | undefined;
  /** keys Flink still reads for this option, oldest spelling last */
  deprecatedKeys?: readonly string[];
  /** keys whose value Flink uses when this one is not set */
  fallbackKeys?: readonly string[];
  description: string;
  group: OptionGroup;
}

const INT_MAX = 2_147_483_647;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const KB = 1024;
const MB = 1024 * KB;

export const FLINK_OPTIONS: readonly FlinkOption[] = [
  // interval-and-pause
  {
    key: 'execution.checkpointing.interval',
    type: 'duration',
    default: undefined,
    defaultNote: 'not set: periodic checkpoints are off; below 10 ms they are off too (Flink\'s MINIMAL_CHECKPOINT_TIME)',
    range: { min: 0 },
    description: 'How often the checkpoint coordinator triggers a periodic checkpoint.',
    group: 'interval-and-pause',
  },
  {
    key: 'execution.checkpointing.min-pause',
    type: 'duration',
    default: 0,
    range: { min: 0 },
    description: 'Least time between the end of the last completed checkpoint and the start of the next periodic one.',
    group: 'interval-and-pause',
  },
  {
    key: 'execution.checkpointing.max-concurrent-checkpoints',
    type: 'integer',
    default: 1,
    range: { min: 1, max: INT_MAX },
    description: 'How many checkpoints may be in progress at once; a periodic trigger waits while this many are pending.',
    group: 'interval-and-pause',
  },
  {
    key: 'execution.checkpointing.checkpoints-after-tasks-finish',
    type: 'boolean',
    default: true,
    deprecatedKeys: ['execution.checkpointing.checkpoints-after-tasks-finish.enabled'],
    description: 'Keep checkpointing after some tasks (e.g. bounded sources) have finished.',
    group: 'interval-and-pause',
  },

  // mode-and-alignment
  {
    key: 'execution.checkpointing.mode',
    type: 'enum',
    default: 'EXACTLY_ONCE',
    values: ['EXACTLY_ONCE', 'AT_LEAST_ONCE'],
    description: 'EXACTLY_ONCE aligns barriers (or uses unaligned checkpoints); AT_LEAST_ONCE never blocks an input.',
    group: 'mode-and-alignment',
  },
  {
    key: 'execution.checkpointing.unaligned.enabled',
    type: 'boolean',
    default: false,
    deprecatedKeys: ['execution.checkpointing.unaligned'],
    description: 'Let barriers overtake in-flight buffers, which are stored with the checkpoint, so backpressure does not delay it.',
    group: 'mode-and-alignment',
  },
  {
    key: 'execution.checkpointing.aligned-checkpoint-timeout',
    type: 'duration',
    default: 0,
    range: { min: 0 },
    deprecatedKeys: ['execution.checkpointing.alignment-timeout'],
    description: 'With unaligned checkpoints on: start aligned and switch to unaligned after this long (0 = always unaligned).',
    group: 'mode-and-alignment',
  },

  // timeout-and-failures
  {
    key: 'execution.checkpointing.timeout',
    type: 'duration',
    default: 10 * MINUTE,
    range: { min: 10 },
    description: 'A checkpoint that has not completed after this long expires and counts as failed.',
    group: 'timeout-and-failures',
  },
  {
    key: 'execution.checkpointing.tolerable-failed-checkpoints',
    type: 'integer',
    default: 0,
    range: { min: 0, max: INT_MAX },
    description: 'How many consecutive checkpoint failures the job tolerates before it fails over.',
    group: 'timeout-and-failures',
  },
  {
    key: 'heartbeat.interval',
    type: 'duration',
    default: 10 * SECOND,
    range: { min: 0, minExclusive: true },
    description: 'How often the JobManager and TaskManagers exchange heartbeats.',
    group: 'timeout-and-failures',
  },
  {
    key: 'heartbeat.timeout',
    type: 'duration',
    default: 50 * SECOND,
    range: { min: 0, minExclusive: true },
    description: 'A TaskManager silent for this long is considered lost and its tasks fail over.',
    group: 'timeout-and-failures',
  },

  // retention
  {
    key: 'execution.checkpointing.num-retained',
    type: 'integer',
    default: 1,
    range: { min: 1, max: INT_MAX },
    deprecatedKeys: ['state.checkpoints.num-retained'],
    description: 'How many completed checkpoints are kept; older ones are subsumed and their files deleted.',
    group: 'retention',
  },
  {
    key: 'execution.checkpointing.externalized-checkpoint-retention',
    type: 'enum',
    default: 'NO_EXTERNALIZED_CHECKPOINTS',
    values: ['NO_EXTERNALIZED_CHECKPOINTS', 'DELETE_ON_CANCELLATION', 'RETAIN_ON_CANCELLATION'],
    description: 'Whether completed checkpoints survive the job being cancelled or failing for good.',
    group: 'retention',
  },
  {
    key: 'execution.checkpointing.storage',
    type: 'enum',
    default: undefined,
    defaultNote: 'not set: Flink picks filesystem when a checkpoint directory is set, jobmanager otherwise; the playground always writes to its simulated remote store',
    values: ['jobmanager', 'filesystem'],
    deprecatedKeys: ['state.checkpoint-storage'],
    description: 'Where checkpoints are written (shown in the checkpoint configuration).',
    group: 'retention',
  },
  {
    key: 'execution.checkpointing.dir',
    type: 'string',
    default: undefined,
    deprecatedKeys: ['state.checkpoints.dir', 'state.backend.fs.checkpointdir'],
    description: 'Directory for checkpoint data and metadata (a label in the playground\'s remote store).',
    group: 'retention',
  },
  {
    key: 'execution.checkpointing.savepoint-dir',
    type: 'string',
    default: undefined,
    deprecatedKeys: ['state.savepoints.dir', 'savepoints.state.backend.fs.dir'],
    description: 'Default directory for savepoints.',
    group: 'retention',
  },
  {
    key: 'execution.checkpointing.data-inline-threshold',
    type: 'memory',
    default: 20 * KB,
    // FsCheckpointStorageAccess refuses more than 1 mb (MAX_FILE_STATE_THRESHOLD)
    range: { min: 0, max: MB },
    deprecatedKeys: ['state.storage.fs.memory-threshold', 'state.backend.fs.memory-threshold'],
    description: 'State chunks of at most this size are stored inline in the checkpoint\'s _metadata file instead of in files of their own (at most 1 mb).',
    group: 'retention',
  },
  {
    key: 'execution.state-recovery.claim-mode',
    type: 'enum',
    default: 'NO_CLAIM',
    values: ['NO_CLAIM', 'CLAIM'],
    deprecatedKeys: ['execution.savepoint-restore-mode'],
    description: 'Whether a job restored from a snapshot takes ownership of its files (CLAIM) or leaves them alone.',
    group: 'retention',
  },
  {
    key: 'web.checkpoints.history',
    type: 'integer',
    default: 10,
    range: { min: 0, max: INT_MAX },
    description: 'How many recent checkpoints the statistics history keeps.',
    group: 'retention',
  },

  // state-backend
  {
    key: 'state.backend.type',
    type: 'enum',
    default: 'hashmap',
    values: ['hashmap', 'rocksdb'],
    deprecatedKeys: ['state.backend'],
    description: 'hashmap keeps state as objects on the heap; rocksdb keeps it in an LSM tree built on wa-sqlite (SQLite in WebAssembly) that stands in for RocksDB, and can snapshot incrementally.',
    group: 'state-backend',
  },
  {
    key: 'execution.checkpointing.incremental',
    type: 'boolean',
    default: false,
    deprecatedKeys: ['state.backend.incremental'],
    description: 'Upload only the files that changed since the last completed checkpoint (rocksdb only).',
    group: 'state-backend',
  },
  {
    key: 'state.backend.rocksdb.checkpoint.transfer.thread.num',
    type: 'integer',
    default: 4,
    range: { min: 1, max: INT_MAX },
    description: 'Threads that upload and download state files per stateful subtask.',
    group: 'state-backend',
  },

  // rocksdb-memory
  {
    key: 'state.backend.rocksdb.memory.managed',
    type: 'boolean',
    default: true,
    description: 'Size RocksDB\'s shared block cache and write buffers from the slot\'s managed memory.',
    group: 'rocksdb-memory',
  },
  {
    key: 'state.backend.rocksdb.memory.fixed-per-slot',
    type: 'memory',
    default: undefined,
    defaultNote: 'not set: the slot\'s managed memory is used',
    description: 'A fixed RocksDB memory budget per slot; overrides managed memory.',
    group: 'rocksdb-memory',
  },
  {
    key: 'state.backend.rocksdb.memory.write-buffer-ratio',
    type: 'double',
    default: 0.5,
    range: { min: 0, max: 1, minExclusive: true, maxExclusive: true },
    description: 'Share of RocksDB memory for memtables (write buffers).',
    group: 'rocksdb-memory',
  },
  {
    key: 'state.backend.rocksdb.memory.high-prio-pool-ratio',
    type: 'double',
    default: 0.1,
    range: { min: 0, max: 1, minExclusive: true, maxExclusive: true },
    description: 'Share of the block cache reserved for index and filter blocks.',
    group: 'rocksdb-memory',
  },
  {
    key: 'state.backend.rocksdb.writebuffer.size',
    type: 'memory',
    default: 64 * MB,
    range: { min: 1 },
    description: 'Size of one memtable before it is flushed to a sorted file.',
    group: 'rocksdb-memory',
  },
  {
    key: 'state.backend.rocksdb.writebuffer.count',
    type: 'integer',
    default: 2,
    range: { min: 1, max: INT_MAX },
    description: 'How many memtables may exist before writes stall.',
    group: 'rocksdb-memory',
  },
  {
    key: 'state.backend.rocksdb.thread.num',
    type: 'integer',
    default: 2,
    range: { min: 1, max: INT_MAX },
    description: 'Background threads for flushes and compactions. The playground (sim and live) gives flushes the local disk\'s time on them (and stalls writes that find the write buffers used up) only when a scenario sets this option.',
    group: 'rocksdb-memory',
  },
  {
    key: 'state.backend.rocksdb.block.cache-size',
    type: 'memory',
    default: 8 * MB,
    range: { min: 1 },
    description: 'Block cache size when RocksDB memory is not managed.',
    group: 'rocksdb-memory',
  },
  {
    key: 'taskmanager.memory.managed.fraction',
    type: 'double',
    default: 0.4,
    range: { min: 0, max: 1, maxExclusive: true },
    description: 'Share of TaskManager memory that is managed (RocksDB draws from it).',
    group: 'rocksdb-memory',
  },
  {
    key: 'taskmanager.memory.managed.size',
    type: 'memory',
    default: undefined,
    defaultNote: 'not set: derived from taskmanager.memory.managed.fraction',
    description: 'Managed memory per TaskManager; overrides the fraction.',
    group: 'rocksdb-memory',
  },

  // timers
  {
    key: 'state.backend.rocksdb.timer-service.factory',
    type: 'enum',
    default: 'ROCKSDB',
    values: ['ROCKSDB', 'HEAP'],
    description: 'Where rocksdb keeps timers: in RocksDB, or on the heap (snapshotted synchronously).',
    group: 'timers',
  },
  {
    key: 'pipeline.auto-watermark-interval',
    type: 'duration',
    default: 200,
    range: { min: 0 },
    description: 'How often sources emit watermarks (0 = never).',
    group: 'timers',
  },

  // compression
  {
    key: 'execution.checkpointing.snapshot-compression',
    type: 'boolean',
    default: false,
    description: 'Compress full snapshots with snappy, per key group (no effect on incremental RocksDB files).',
    group: 'compression',
  },

  // local-recovery
  {
    key: 'execution.checkpointing.local-backup.enabled',
    type: 'boolean',
    default: false,
    defaultNote: 'not set: takes the value of execution.state-recovery.from-local',
    fallbackKeys: ['execution.state-recovery.from-local'],
    deprecatedKeys: ['state.backend.local-recovery'],
    description: 'Also write each snapshot to the TaskManager\'s local disk.',
    group: 'local-recovery',
  },
  {
    key: 'execution.state-recovery.from-local',
    type: 'boolean',
    default: false,
    deprecatedKeys: ['state.backend.local-recovery'],
    description: 'On restore, read a subtask\'s state from its local copy when one exists, else from remote storage.',
    group: 'local-recovery',
  },

  // restart-strategy
  {
    key: 'restart-strategy.type',
    type: 'enum',
    default: undefined,
    defaultNote: 'not set: exponential-delay when checkpointing is on, none when it is off (Flink 1.19+)',
    values: ['none', 'fixed-delay', 'exponential-delay'],
    aliases: [
      ['off', 'none'],
      ['disable', 'none'],
      ['fixeddelay', 'fixed-delay'],
      ['exponentialdelay', 'exponential-delay'],
    ],
    deprecatedKeys: ['restart-strategy'],
    description: 'How the job restarts after a failure (failure-rate is not modelled).',
    group: 'restart-strategy',
  },
  {
    key: 'restart-strategy.fixed-delay.attempts',
    type: 'integer',
    default: 1,
    range: { min: 0, max: INT_MAX },
    description: 'fixed-delay: restarts allowed before the job fails for good.',
    group: 'restart-strategy',
  },
  {
    key: 'restart-strategy.fixed-delay.delay',
    type: 'duration',
    default: SECOND,
    range: { min: 0 },
    description: 'fixed-delay: wait before each restart.',
    group: 'restart-strategy',
  },
  {
    key: 'restart-strategy.exponential-delay.initial-backoff',
    type: 'duration',
    default: SECOND,
    range: { min: 1 },
    description: 'exponential-delay: wait before the first restart.',
    group: 'restart-strategy',
  },
  {
    key: 'restart-strategy.exponential-delay.max-backoff',
    type: 'duration',
    default: MINUTE,
    range: { min: 1 },
    description: 'exponential-delay: the wait never grows beyond this.',
    group: 'restart-strategy',
  },
  {
    key: 'restart-strategy.exponential-delay.backoff-multiplier',
    type: 'double',
    default: 1.5,
    range: { min: 1 },
    description: 'exponential-delay: each consecutive failure multiplies the wait by this.',
    group: 'restart-strategy',
  },
  {
    key: 'restart-strategy.exponential-delay.reset-backoff-threshold',
    type: 'duration',
    default: 60 * MINUTE,
    range: { min: 1 },
    description: 'exponential-delay: after running this long without failure the wait resets.',
    group: 'restart-strategy',
  },
  {
    key: 'restart-strategy.exponential-delay.jitter-factor',
    type: 'double',
    default: 0.1,
    range: { min: 0, max: 1 },
    description: 'exponential-delay: random share added to or taken from each wait.',
    group: 'restart-strategy',
  },
  {
    key: 'restart-strategy.exponential-delay.attempts-before-reset-backoff',
    type: 'integer',
    default: INT_MAX,
    range: { min: 1, max: INT_MAX },
    description: 'exponential-delay: restarts allowed before the job fails for good (the count resets with the backoff).',
    group: 'restart-strategy',
  },

  // network
  {
    key: 'taskmanager.network.memory.buffers-per-channel',
    type: 'integer',
    default: 2,
    range: { min: 0, max: INT_MAX },
    description: 'Exclusive network buffers (credits) per input channel.',
    group: 'network',
  },
  {
    key: 'taskmanager.network.memory.floating-buffers-per-gate',
    type: 'integer',
    default: 8,
    range: { min: 0, max: INT_MAX },
    description: 'Extra buffers per input gate, lent to whichever channel has a backlog.',
    group: 'network',
  },
  {
    key: 'taskmanager.memory.segment-size',
    type: 'memory',
    default: 32 * KB,
    range: { min: 4 * KB },
    check: (bytes, shown) => (isPowerOfTwo(bytes) ? undefined : message('option.power-of-two', { value: shown })),
    description: 'Size of one network buffer; records are packed into buffers of this size.',
    group: 'network',
  },
  {
    key: 'execution.buffer-timeout.interval',
    type: 'duration',
    default: 100,
    range: { min: 0 },
    deprecatedKeys: ['execution.buffer-timeout'],
    description: 'A partly filled output buffer is sent after this long (0 = after every record).',
    group: 'network',
  },

  // parallelism
  {
    key: 'parallelism.default',
    type: 'integer',
    default: 1,
    range: { min: 1, max: 32_768 },
    description: 'Parallelism of a vertex that does not set its own.',
    group: 'parallelism',
  },
  {
    key: 'pipeline.max-parallelism',
    type: 'integer',
    default: -1,
    range: { min: 1, max: 32_768 },
    sentinel: { value: -1, meaning: 'Flink\'s default rule: min(max(roundUpToPowerOfTwo(p + p/2), 128), 32768)' },
    description: 'Number of key groups; the upper limit for rescaling keyed state.',
    group: 'parallelism',
  },
  {
    key: 'taskmanager.numberOfTaskSlots',
    type: 'integer',
    default: 1,
    range: { min: 1, max: INT_MAX },
    description: 'Task slots per TaskManager (the cluster\'s slots_per_task_manager).',
    group: 'parallelism',
  },
];

function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n > 0 && Math.log2(n) % 1 === 0;
}

const OPTIONS_BY_KEY: ReadonlyMap<string, FlinkOption> = new Map(FLINK_OPTIONS.map((o) => [o.key, o]));

/** The option with this current key, if the playground knows it. */
export function findOption(key: string): FlinkOption | undefined {
  return OPTIONS_BY_KEY.get(key);
}

/** The current keys a deprecated key was replaced by (two for `state.backend.local-recovery`). */
export function currentKeysFor(deprecatedKey: string): string[] {
  return FLINK_OPTIONS.filter((o) => o.deprecatedKeys?.includes(deprecatedKey)).map((o) => o.key);
}

/** Every deprecated key the playground still reads. */
export const DEPRECATED_KEYS: readonly string[] = [
  ...new Set(FLINK_OPTIONS.flatMap((o) => o.deprecatedKeys ?? [])),
];

/**
 * Reads a scenario's `config` (current keys, parsed values, as `validateScenario` leaves it) into
 * a `FlinkConfig` with Flink's defaults filled in. Raw Flink text ("10 s") and deprecated keys are
 * read too, so a config typed by hand works; a key or value Flink would reject throws, because
 * that is a caller's bug: validate untrusted input with `validateScenario` first.
 */
export function readConfig(config: Readonly<Record<string, ConfigValue>>): FlinkConfig {
  const values = normalisedValues(config);
  const get = (key: string): ConfigValue | undefined => {
    const option = OPTIONS_BY_KEY.get(key);
    if (!option) throw new Error(`readConfig: unknown option ${key}`);
    return values.get(key) ?? option.fallbackKeys?.map((k) => values.get(k)).find((v) => v !== undefined) ?? option.default;
  };
  return buildFlinkConfig(typedReader(get, (key) => values.has(key)));
}

function normalisedValues(config: Readonly<Record<string, ConfigValue>>): Map<string, ConfigValue> {
  const values = new Map<string, ConfigValue>();
  for (const [key, raw] of Object.entries(config)) {
    const keys = OPTIONS_BY_KEY.has(key) ? [key] : currentKeysFor(key);
    if (keys.length === 0) throw new Error(`readConfig: unknown Flink option "${key}"`);
    for (const current of keys) {
      if (values.has(current) && current !== key) continue; // the current key wins over a deprecated one
      values.set(current, parsedValue(current, raw));
    }
  }
  return values;
}

function parsedValue(key: string, raw: ConfigValue): ConfigValue {
  const option = OPTIONS_BY_KEY.get(key) as FlinkOption;
  const result = parseOptionValue(option, raw);
  if (!result.ok) throw new Error(`readConfig: ${key}: ${result.message}`);
  return result.value;
}

interface TypedReader {
  number(key: string): number;
  optionalNumber(key: string): number | undefined;
  boolean(key: string): boolean;
  string(key: string): string;
  optionalString(key: string): string | undefined;
  /** the scenario set the option (under its key or a deprecated one), rather than leaving its default */
  isSet(key: string): boolean;
}

function typedReader(get: (key: string) => ConfigValue | undefined, isSet: (key: string) => boolean): TypedReader {
  const optionalNumber = (key: string) => {
    const v = get(key);
    return typeof v === 'number' ? v : undefined;
  };
  const optionalString = (key: string) => {
    const v = get(key);
    return typeof v === 'string' ? v : undefined;
  };
  return {
    number: (key) => optionalNumber(key) ?? Number.NaN,
    optionalNumber,
    boolean: (key) => get(key) === true,
    string: (key) => optionalString(key) ?? '',
    optionalString,
    isSet,
  };
}

/** Flink's `MINIMAL_CHECKPOINT_TIME`: a shorter interval means periodic checkpoints are off. */
export const MINIMAL_CHECKPOINT_INTERVAL_MS = 10;

function buildFlinkConfig(r: TypedReader): FlinkConfig {
  const interval = r.optionalNumber('execution.checkpointing.interval');
  const checkpointInterval =
    interval !== undefined && interval >= MINIMAL_CHECKPOINT_INTERVAL_MS ? interval : undefined;
  return {
    checkpointInterval,
    minPause: r.number('execution.checkpointing.min-pause'),
    maxConcurrentCheckpoints: r.number('execution.checkpointing.max-concurrent-checkpoints'),
    checkpointsAfterTasksFinish: r.boolean('execution.checkpointing.checkpoints-after-tasks-finish'),
    checkpointingMode: r.string('execution.checkpointing.mode') as CheckpointingMode,
    unalignedEnabled: r.boolean('execution.checkpointing.unaligned.enabled'),
    alignedCheckpointTimeout: r.number('execution.checkpointing.aligned-checkpoint-timeout'),
    checkpointTimeout: r.number('execution.checkpointing.timeout'),
    tolerableFailedCheckpoints: r.number('execution.checkpointing.tolerable-failed-checkpoints'),
    heartbeatInterval: r.number('heartbeat.interval'),
    heartbeatTimeout: r.number('heartbeat.timeout'),
    numRetained: r.number('execution.checkpointing.num-retained'),
    externalizedRetention: r.string(
      'execution.checkpointing.externalized-checkpoint-retention',
    ) as ExternalizedCheckpointRetention,
    checkpointStorage: r.optionalString('execution.checkpointing.storage') as CheckpointStorageType | undefined,
    checkpointDir: r.optionalString('execution.checkpointing.dir'),
    savepointDir: r.optionalString('execution.checkpointing.savepoint-dir'),
    dataInlineThresholdBytes: r.number('execution.checkpointing.data-inline-threshold'),
    claimMode: r.string('execution.state-recovery.claim-mode') as RecoveryClaimMode,
    checkpointsHistory: r.number('web.checkpoints.history'),
    stateBackend: r.string('state.backend.type') as StateBackendType,
    incremental: r.boolean('execution.checkpointing.incremental'),
    rocksdbTransferThreadNum: r.number('state.backend.rocksdb.checkpoint.transfer.thread.num'),
    ...rocksdbMemory(r),
    timerServiceFactory: r.string('state.backend.rocksdb.timer-service.factory') as TimerServiceFactory,
    autoWatermarkInterval: r.number('pipeline.auto-watermark-interval'),
    snapshotCompression: r.boolean('execution.checkpointing.snapshot-compression'),
    localBackupEnabled: r.boolean('execution.checkpointing.local-backup.enabled'),
    localRecovery: r.boolean('execution.state-recovery.from-local'),
    restartStrategy: restartStrategy(r, checkpointInterval !== undefined),
    buffersPerChannel: r.number('taskmanager.network.memory.buffers-per-channel'),
    floatingBuffersPerGate: r.number('taskmanager.network.memory.floating-buffers-per-gate'),
    segmentSizeBytes: r.number('taskmanager.memory.segment-size'),
    bufferTimeout: r.number('execution.buffer-timeout.interval'),
    defaultParallelism: r.number('parallelism.default'),
    maxParallelism: r.number('pipeline.max-parallelism'),
    numberOfTaskSlots: r.number('taskmanager.numberOfTaskSlots'),
  };
}

function rocksdbMemory(r: TypedReader) {
  return {
    rocksdbMemoryManaged: r.boolean('state.backend.rocksdb.memory.managed'),
    rocksdbFixedMemoryPerSlotBytes: r.optionalNumber('state.backend.rocksdb.memory.fixed-per-slot'),
    rocksdbWriteBufferRatio: r.number('state.backend.rocksdb.memory.write-buffer-ratio'),
    rocksdbHighPriorityPoolRatio: r.number('state.backend.rocksdb.memory.high-prio-pool-ratio'),
    rocksdbWriteBufferSizeBytes: r.number('state.backend.rocksdb.writebuffer.size'),
    rocksdbWriteBufferCount: r.number('state.backend.rocksdb.writebuffer.count'),
    rocksdbThreadNum: r.number('state.backend.rocksdb.thread.num'),
    rocksdbFlushesTimed: r.isSet('state.backend.rocksdb.thread.num'),
    rocksdbBlockCacheSizeBytes: r.number('state.backend.rocksdb.block.cache-size'),
    managedMemoryFraction: r.number('taskmanager.memory.managed.fraction'),
    managedMemorySizeBytes: r.optionalNumber('taskmanager.memory.managed.size'),
  };
}

/** Flink 1.19+ (FLIP-364): with no strategy set, exponential-delay if checkpointing is on, else none. */
function restartStrategy(r: TypedReader, checkpointing: boolean): RestartStrategyConfig {
  const type = r.optionalString('restart-strategy.type') ?? (checkpointing ? 'exponential-delay' : 'none');
  if (type === 'fixed-delay') {
    return {
      type,
      attempts: r.number('restart-strategy.fixed-delay.attempts'),
      delay: r.number('restart-strategy.fixed-delay.delay'),
    };
  }
  if (type === 'exponential-delay') {
    const prefix = 'restart-strategy.exponential-delay.';
    return {
      type,
      initialBackoff: r.number(`${prefix}initial-backoff`),
      maxBackoff: r.number(`${prefix}max-backoff`),
      backoffMultiplier: r.number(`${prefix}backoff-multiplier`),
      resetBackoffThreshold: r.number(`${prefix}reset-backoff-threshold`),
      jitterFactor: r.number(`${prefix}jitter-factor`),
      attemptsBeforeResetBackoff: r.number(`${prefix}attempts-before-reset-backoff`),
    };
  }
  return { type: 'none' };
}

/**
 * The closed lists of names a scenario file may use, in one place so that the validator, the
 * JSON Schema and the UI offer the same choices. Each list is checked against scenario-types.ts
 * by the compiler (`satisfies`).
 */

import type {
  Aggregate,
  CheckpointStatistic,
  CheckpointTriggerType,
  ExpectationSpec,
  FaultSpec,
  FilterSpec,
  MapFunction,
  OperatorSpec,
  Partitioning,
  RestoredFrom,
  RocksDbMetric,
  RuntimeKind,
  SourceSpec,
  StatisticAggregate,
} from './scenario-types.ts';

export type VertexType = OperatorSpec['type'];

export const VERTEX_TYPES = [
  'source',
  'map',
  'filter',
  'keyed-aggregate',
  'window',
  'window-join',
  'sink',
] as const satisfies readonly VertexType[];

/** Operators that keep keyed state, so their inputs must be hash-partitioned (Flink's keyBy). */
export const KEYED_VERTEX_TYPES = ['keyed-aggregate', 'window', 'window-join'] as const satisfies readonly VertexType[];

export const SOURCE_KINDS = ['sequence', 'random', 'lines'] as const satisfies readonly SourceSpec['kind'][];

export const MAP_FUNCTIONS = [
  'identity',
  'lowercase',
  'uppercase',
  'double',
  'split-words',
] as const satisfies readonly MapFunction[];

export const FILTER_FUNCTIONS = ['value-at-least', 'key-prefix', 'every-nth'] as const satisfies readonly FilterSpec['fn'][];

export const AGGREGATES = ['count', 'sum'] as const satisfies readonly Aggregate[];

export const SINK_KINDS = ['plain', 'two-phase-commit'] as const;

export const PARTITIONINGS = ['forward', 'hash', 'rebalance', 'broadcast'] as const satisfies readonly Partitioning[];

/** What a trigger-checkpoint may ask for (Flink's CheckpointTriggerRequestBody.checkpointType, less INCREMENTAL). */
export const CHECKPOINT_TRIGGER_TYPES = ['CONFIGURED', 'FULL'] as const satisfies readonly CheckpointTriggerType[];

export const FAULT_TYPES = [
  'fail-task',
  'kill-task-manager',
  'lose-host',
  'slow-operator',
  'trigger-checkpoint',
  'trigger-savepoint',
  'stop-with-savepoint',
  'corrupt-local-copy',
  'delete-local-copy',
  'slow-remote-storage',
  'fail-remote-storage',
  'heal-remote-storage',
  'stall-task-manager',
] as const satisfies readonly FaultSpec['type'][];

export const EXPECTATION_TYPES = [
  'job-status',
  'exactly-once',
  'min-sink-records',
  'min-completed-checkpoints',
  'max-failed-checkpoints',
  'min-duplicates',
  'min-restores',
  'min-failed-checkpoints',
  'min-restored-subtasks',
  'restore-source',
  'mixed-restore',
  'statistic',
  'catch-up-time',
  'min-retained-checkpoints',
  'max-retained-checkpoints',
  'restored-parallelism',
  'rocksdb-metric',
] as const satisfies readonly ExpectationSpec['type'][];

export const ROCKSDB_METRICS = [
  'lsm.flush.count',
  'lsm.compaction.count',
  'lsm.write-stall.count',
  'rocksdb.stall.micros',
  'rocksdb.flush.write.bytes',
  'rocksdb.compact.read.bytes',
  'rocksdb.compact.write.bytes',
  'rocksdb.block.cache.hit',
  'rocksdb.block.cache.miss',
  'rocksdb.number.keys.written',
  'rocksdb.number.keys.read',
] as const satisfies readonly RocksDbMetric[];

export const RESTORED_FROM = ['savepoint', 'checkpoint'] as const satisfies readonly RestoredFrom[];

export const CHECKPOINT_STATISTICS = [
  'checkpoint-pause',
  'end-to-end-duration',
  'alignment-duration',
  'start-delay',
  'persisted-data',
  'checkpointed-fraction',
  'checkpointed-size',
  'sync-duration',
  'concurrent-checkpoints',
] as const satisfies readonly CheckpointStatistic[];

export const RESTORE_SOURCES = ['local', 'remote'] as const;

export const STATISTIC_AGGREGATES = ['min', 'max', 'avg', 'p50', 'p90'] as const satisfies readonly StatisticAggregate[];

/** Flink's `JobStatus` values, for the `job-status` expectation. */
export const JOB_STATUSES = [
  'INITIALIZING',
  'CREATED',
  'RUNNING',
  'FAILING',
  'FAILED',
  'CANCELLING',
  'CANCELED',
  'FINISHED',
  'RESTARTING',
  'SUSPENDED',
  'RECONCILING',
] as const;

/** Vertex ids appear in paths, metrics and URLs, so they stay simple. */
export const VERTEX_ID_PATTERN = /^[a-z][a-z0-9-]*$/;
export const VERTEX_ID_ALLOWED = 'lower-case letters, digits and "-", starting with a letter';

/** Fields of a vertex in the file, besides its operator's own. */
export const VERTEX_BASE_FIELDS = ['id', 'name', 'parallelism', 'record_cost_us', 'type'] as const;

/** The operator's own fields, which sit beside the base fields in the file. */
export const OPERATOR_FIELDS: Readonly<Record<VertexType, readonly string[]>> = {
  source: ['source'],
  map: ['fn'],
  filter: ['filter'],
  'keyed-aggregate': ['aggregate'],
  window: ['size', 'aggregate'],
  'window-join': ['size'],
  sink: ['sink'],
};

export const SOURCE_FIELDS: Readonly<Record<SourceSpec['kind'], readonly string[]>> = {
  sequence: ['kind', 'keys', 'rate_per_s', 'count'],
  random: ['kind', 'keys', 'rate_per_s', 'count', 'skew', 'value_min', 'value_max'],
  lines: ['kind', 'lines', 'rate_per_s', 'count'],
};

export const FILTER_FIELDS: Readonly<Record<FilterSpec['fn'], readonly string[]>> = {
  'value-at-least': ['fn', 'value'],
  'key-prefix': ['fn', 'prefix'],
  'every-nth': ['fn', 'n'],
};

export const FAULT_FIELDS: Readonly<Record<FaultSpec['type'], readonly string[]>> = {
  'fail-task': ['at', 'type', 'vertex', 'subtask'],
  'kill-task-manager': ['at', 'type', 'task_manager'],
  'lose-host': ['at', 'type', 'host'],
  'slow-operator': ['at', 'type', 'vertex', 'factor'],
  'trigger-checkpoint': ['at', 'type', 'checkpoint_type'],
  'trigger-savepoint': ['at', 'type'],
  'stop-with-savepoint': ['at', 'type', 'drain'],
  'corrupt-local-copy': ['at', 'type', 'host', 'vertex', 'subtask', 'run', 'key_group'],
  'delete-local-copy': ['at', 'type', 'host', 'vertex', 'subtask', 'run', 'key_group'],
  'slow-remote-storage': ['at', 'type', 'factor'],
  'fail-remote-storage': ['at', 'type'],
  'heal-remote-storage': ['at', 'type'],
  'stall-task-manager': ['at', 'type', 'task_manager'],
};

export const EXPECTATION_FIELDS: Readonly<Record<ExpectationSpec['type'], readonly string[]>> = {
  'job-status': ['type', 'status'],
  'exactly-once': ['type'],
  'min-sink-records': ['type', 'value'],
  'min-completed-checkpoints': ['type', 'value'],
  'max-failed-checkpoints': ['type', 'value'],
  'min-duplicates': ['type', 'value'],
  'min-restores': ['type', 'value'],
  'min-failed-checkpoints': ['type', 'value', 'reason'],
  'min-restored-subtasks': ['type', 'value', 'source', 'reason'],
  'restore-source': ['type', 'vertex', 'subtask', 'source', 'reason', 'restore'],
  'mixed-restore': ['type', 'vertex', 'subtask', 'restore'],
  statistic: ['type', 'statistic', 'aggregate', 'min', 'max'],
  'catch-up-time': ['type', 'min', 'max'],
  'min-retained-checkpoints': ['type', 'value'],
  'max-retained-checkpoints': ['type', 'value'],
  'restored-parallelism': ['type', 'vertex', 'parallelism', 'from'],
  'rocksdb-metric': ['type', 'metric', 'vertex', 'min', 'max'],
};

export const SCENARIO_FIELDS = [
  '$schema',
  'version',
  'name',
  'description',
  'seed',
  'runtime',
  'scale',
  'job',
  'config',
  'cluster',
  'costs',
  'faults',
  'run',
  'expectations',
] as const;

export const JOB_FIELDS = ['name', 'vertices', 'edges'] as const;
export const EDGE_FIELDS = ['from', 'to', 'partitioning'] as const;
export const CLUSTER_FIELDS = ['hosts', 'task_managers_per_host', 'slots_per_task_manager'] as const;
export const RUN_FIELDS = ['until'] as const;

export const RUNTIMES = ['records', 'scale'] as const satisfies readonly RuntimeKind[];

/** The `scale` section's fields in the file: sizes without `_bytes` (Flink memory sizes), bandwidths in MB/s. */
export const SCALE_FIELDS = [
  'state_size',
  'state_growth_per_s',
  'state_churn_per_s',
  'compaction_per_s',
  'host_bandwidth_mb_per_s',
  'remote_store_bandwidth_mb_per_s',
] as const;

/**
 * The scenario file, as the engine sees it after parsing and validation.
 *
 * The file on disk (JSON or YAML) uses the same field names, except that durations are written in
 * Flink syntax without the `_ms` suffix (fault `at: 5 s`, window `size: 10 s`, `run: { until: 60 s }`)
 * and a vertex's operator fields sit beside its own (`{ id, type: map, fn: split-words }`); the
 * JSON Schema of the file is public/scenarios/scenario.schema.json. Fields that are Flink options live
 * in `config` under Flink's own keys with Flink's value syntax ("10 s", "500 ms", "32kb"); every
 * other field is this playground's own and is snake_case with its unit last
 * (`rate_per_s`, `record_cost_us`, `remote_latency_ms`).
 *
 * `validateScenario` (scenario-validator.ts) turns untrusted input into a `Scenario`, filling the
 * defaults below, or returns errors that name the field path.
 */

import type { ScenarioTranslations } from './localized-text.ts';

/** How records of an edge are distributed to the downstream subtasks (Flink's partitioners). */
export type Partitioning = 'forward' | 'hash' | 'rebalance' | 'broadcast';

/** A replayable source, like a Kafka topic with one partition per source subtask. */
export type SourceSpec =
  | {
      /** record i has key `key-(i mod keys)`, value 1, event time derived from i and the rate */
      kind: 'sequence';
      keys: number;
      /** records per second, per source subtask */
      rate_per_s: number;
      /** records per source subtask; omitted = unbounded */
      count?: number;
    }
  | {
      /** seeded random keys `key-<n>` with Zipf skew (0 = uniform), integer values in [value_min, value_max] */
      kind: 'random';
      keys: number;
      rate_per_s: number;
      count?: number;
      /** Zipf exponent; 0 means uniform. Default 0. */
      skew: number;
      /** default 1 */
      value_min: number;
      /** default 1 */
      value_max: number;
    }
  | {
      /** the given lines, cycled; each record's key is the line, value 1 (feed it to map split-words) */
      kind: 'lines';
      lines: string[];
      rate_per_s: number;
      count?: number;
    };

export type MapFunction = 'identity' | 'lowercase' | 'uppercase' | 'double' | 'split-words';

export type FilterSpec =
  | { fn: 'value-at-least'; value: number }
  | { fn: 'key-prefix'; prefix: string }
  | { fn: 'every-nth'; n: number };

export type Aggregate = 'count' | 'sum';

/** What a vertex does. One variant per operator kind. */
export type OperatorSpec =
  | { type: 'source'; source: SourceSpec }
  | { type: 'map'; fn: MapFunction }
  | { type: 'filter'; filter: FilterSpec }
  /** keyBy + running aggregate in keyed ValueState; emits (key, aggregate) on every record */
  | { type: 'keyed-aggregate'; aggregate: Aggregate }
  /** keyed tumbling event-time window; emits (key, aggregate) with timestamp windowEnd-1 when the watermark passes */
  | { type: 'window'; size_ms: number; aggregate: Aggregate }
  /** two-input keyed tumbling-window join; emits (key, leftCount × rightCount) per window with matches */
  | { type: 'window-join'; size_ms: number }
  /** plain: writes at once; two-phase-commit: pre-commit on snapshot, commit on checkpoint complete */
  | { type: 'sink'; sink: 'plain' | 'two-phase-commit' };

export interface VertexSpec {
  /** unique id, `[a-z][a-z0-9-]*` */
  id: string;
  /** display name; defaults to the id */
  name: string;
  /** defaults to config `parallelism.default` */
  parallelism: number;
  /** virtual processing time per record in microseconds (sim); defaults per operator type */
  record_cost_us: number;
  operator: OperatorSpec;
}

export interface EdgeSpec {
  from: string;
  to: string;
  partitioning: Partitioning;
}

export interface JobSpec {
  name: string;
  vertices: VertexSpec[];
  /** Edges into a two-input vertex are taken in file order: the first is input 1 (left), the second input 2 (right). */
  edges: EdgeSpec[];
}

export interface ClusterSpec {
  hosts: number;
  task_managers_per_host: number;
  slots_per_task_manager: number;
}

/** Costs of the simulated machine. All optional in the file; defaults in scenario-defaults.ts. */
export interface CostSpec {
  /** one-way delay of a network buffer or credit between TaskManagers */
  network_latency_ms: number;
  /** serialized size of one record, used to fill network buffers of `taskmanager.memory.segment-size` */
  record_size_bytes: number;
  remote_latency_ms: number;
  remote_bandwidth_mb_per_s: number;
  local_latency_ms: number;
  local_bandwidth_mb_per_s: number;
}

/**
 * TaskManagers are named `tm-0` … `tm-<hosts × task_managers_per_host − 1>` and hosts `host-0` …
 * `host-<hosts − 1>`; the validator checks that a fault names one that exists.
 */
/** Flink's CheckpointType of a checkpoint trigger request (INCREMENTAL is refused by Flink's REST too: FLINK-33723). */
export type CheckpointTriggerType = 'CONFIGURED' | 'FULL';

export type FaultSpec =
  | { at_ms: number; type: 'fail-task'; vertex: string; subtask: number }
  | { at_ms: number; type: 'kill-task-manager'; task_manager: string }
  | { at_ms: number; type: 'lose-host'; host: string }
  | { at_ms: number; type: 'slow-operator'; vertex: string; factor: number }
  /**
   * a playground fault: damage (corrupt) or remove (delete) a subtask's task-local copies on a host's disk;
   * `run`: one shared run of them; `key_group`: only the key-group handle of each copy holding that key group (the copy stays, partial)
   */
  /** `run`: only that shared run of the subtask's incremental copies */
  | { at_ms: number; type: 'corrupt-local-copy' | 'delete-local-copy'; host: string; vertex: string; subtask: number; run?: string; key_group?: number }
  /** remote checkpoint storage gets slower by `factor` (1 = normal again) */
  | { at_ms: number; type: 'slow-remote-storage'; factor: number }
  /** remote checkpoint storage fails every write and read (uploads decline with CHECKPOINT_ASYNC_EXCEPTION), until healed */
  | { at_ms: number; type: 'fail-remote-storage' }
  | { at_ms: number; type: 'heal-remote-storage' }
  /** a TaskManager stops answering without dying: the JobManager notices after heartbeat.timeout */
  | { at_ms: number; type: 'stall-task-manager'; task_manager: string }
  /**
   * a manual checkpoint (Flink's POST /jobs/:id/checkpoints); `checkpoint_type` FULL makes an
   * incremental backend upload all its state for this one (default CONFIGURED: as configured)
   */
  | { at_ms: number; type: 'trigger-checkpoint'; checkpoint_type?: CheckpointTriggerType }
  | { at_ms: number; type: 'trigger-savepoint' }
  /**
   * Flink's stop-with-savepoint (POST /jobs/:id/stop): a synchronous savepoint, then the job
   * FINISHES; `drain` (default false) first sends MAX_WATERMARK so every event-time window fires
   */
  | { at_ms: number; type: 'stop-with-savepoint'; drain?: boolean };

export type ExpectationSpec =
  | { type: 'job-status'; status: string }
  | { type: 'exactly-once' }
  | { type: 'min-sink-records'; value: number }
  | { type: 'min-completed-checkpoints'; value: number }
  | { type: 'max-failed-checkpoints'; value: number }
  /** at least this many duplicates against the failure-free run: shows at-least-once on purpose */
  | { type: 'min-duplicates'; value: number }
  /** at least this many restores happened */
  | { type: 'min-restores'; value: number }
  /**
   * at least this many subtask restores read their state from `source` (local: the host's
   * task-local copy; remote: checkpoint storage), over all restores; with `reason`, only remote
   * ones that fell back for it (local-recovery-disabled, different-slot, missing, corrupt, …)
   */
  | { type: 'min-restored-subtasks'; value: number; source: 'local' | 'remote'; reason?: string }
  /**
   * Subtask `subtask` of `vertex` read its state from `source` (with `reason`, a remote one fell
   * back for that reason) in restore number `restore` (1-based), or, without it, in every restore
   * that restored the subtask. Does not hold when the subtask was never restored.
   */
  | { type: 'restore-source'; vertex: string; subtask: number; source: 'local' | 'remote'; reason?: string; restore?: number }
  /**
   * Subtask `subtask` of `vertex` read some of its state handles from its host's local copy and
   * the others from remote storage (a partial or partly damaged local copy) in restore number
   * `restore` (1-based), or, without it, in some restore. Does not hold when it never restored so.
   */
  | { type: 'mixed-restore'; vertex: string; subtask: number; restore?: number }
  /** at least this many checkpoints failed; with `reason`, for that CheckpointFailureReason only (CHECKPOINT_EXPIRED, …) */
  | { type: 'min-failed-checkpoints'; value: number; reason?: string }
  /**
   * A figure of the run's checkpoints within a range: `aggregate` (min, max, avg, p50, p90) of
   * `statistic` over the checkpoints it covers is at least `min` and at most `max` (ms for the
   * durations, bytes for persisted-data and checkpointed-size, a number for checkpointed-fraction, a count for
   * concurrent-checkpoints). Does not hold while
   * nothing was measured.
   */
  | { type: 'statistic'; statistic: CheckpointStatistic; aggregate: StatisticAggregate; min?: number; max?: number }
  /**
   * After a failover, the job time from RUNNING again until the sources' pendingRecords is back at
   * its level before the failure (or about 0), for the slowest restore, is at least `min` and at
   * most `max` ms. A restore not caught up yet counts with the time so far (enough for a `min`,
   * never for a `max`); does not hold before a restore.
   */
  | { type: 'catch-up-time'; min?: number; max?: number }
  /**
   * Once the job ended (CANCELED, FAILED, FINISHED), at least / at most this many completed
   * checkpoints stayed in checkpoint storage, as `execution.checkpointing.externalized-checkpoint-retention`
   * decides (savepoints are not counted: they are the user's, not the job's). Does not hold while the job runs.
   */
  | { type: 'min-retained-checkpoints' | 'max-retained-checkpoints'; value: number }
  /**
   * A restore brought `vertex` back with `parallelism` subtasks (its state redistributed by key
   * group when that differs from before), from a savepoint or a checkpoint when `from` says which.
   */
  | { type: 'restored-parallelism'; vertex: string; parallelism: number; from?: RestoredFrom }
  /**
   * A RocksDB native metric (`metric`, a counter) summed over the rocksdb subtasks of `vertex`, or
   * of every vertex, is at least `min` and at most `max` (a count, or bytes for the `….bytes`
   * ones). Counted since each subtask's backend opened: a restore starts them at 0 again. Does not
   * hold when no subtask keeps its state in rocksdb.
   */
  | { type: 'rocksdb-metric'; metric: RocksDbMetric; vertex?: string; min?: number; max?: number };

/**
 * The RocksDB counters a `rocksdb-metric` expectation can bound, by the names the inspector and
 * SubtaskMetrics.rocksdb give them (engine/state/lsm/lsm-metrics.ts, `rocksDbProperties`): RocksDB's
 * tickers, and the playground's own counts (`lsm.…`) where RocksDB keeps only a histogram.
 */
export type RocksDbMetric =
  | 'lsm.flush.count'
  | 'lsm.compaction.count'
  | 'lsm.write-stall.count'
  | 'rocksdb.stall.micros'
  | 'rocksdb.flush.write.bytes'
  | 'rocksdb.compact.read.bytes'
  | 'rocksdb.compact.write.bytes'
  | 'rocksdb.block.cache.hit'
  | 'rocksdb.block.cache.miss'
  | 'rocksdb.number.keys.written'
  | 'rocksdb.number.keys.read';

/** What a restore read: a savepoint (triggered, or taken by stop-with-savepoint) or a checkpoint. */
export type RestoredFrom = 'savepoint' | 'checkpoint';

/**
 * The figures a `statistic` expectation can bound (engine/run/checkpoint-observations.ts):
 * `checkpoint-pause`, completion of one checkpoint to the trigger of the next (0 when they overlap);
 * `end-to-end-duration` of completed checkpoints; `alignment-duration`, the longest of any subtask
 * per completed checkpoint in the history; `start-delay`, likewise the longest from the trigger to a
 * subtask's first barrier (the second article's first metric); `persisted-data`, the in-flight
 * bytes a completed checkpoint in the history persisted (unaligned); `checkpointed-fraction`, its
 * checkpointed size over its full size (1 when full, less when incremental); `checkpointed-size`,
 * its bytes; `sync-duration`, the longest synchronous phase of any subtask; `concurrent-checkpoints`
 * in progress at each trigger.
 */
export type CheckpointStatistic =
  | 'checkpoint-pause'
  | 'end-to-end-duration'
  | 'alignment-duration'
  | 'start-delay'
  | 'persisted-data'
  | 'checkpointed-fraction'
  | 'checkpointed-size'
  | 'sync-duration'
  | 'concurrent-checkpoints';

/** How a statistic's values are summarised, as in Flink's checkpoint summary (p50, p90: nearest rank). */
export type StatisticAggregate = 'min' | 'max' | 'avg' | 'p50' | 'p90';

/** A Flink configuration value after parsing: durations in ms, memory sizes in bytes. */
export type ConfigValue = number | string | boolean;

/**
 * Which runtime runs the scenario: `records` moves every record (the sim, live); `scale` models
 * each subtask by flows (rates, sizes, bandwidths) for production-sized jobs (engine/scale/).
 */
export type RuntimeKind = 'records' | 'scale';

/**
 * What the scale runtime needs beyond the job: the keyed state and how it changes, and the
 * bandwidths that checkpoint uploads and restore reads share. Sizes are bytes (written in Flink's
 * memory size syntax in the file, `state_size: 1 tb`); rates are per second of job time, for the
 * whole job (split evenly over the subtasks of the keyed vertices, as key groups are).
 */
export interface ScaleSpec {
  /** keyed state of the whole job when it starts */
  state_size_bytes: number;
  /** new state per second (new keys, growing windows): the full snapshot grows by this */
  state_growth_bytes_per_s: number;
  /** state rewritten per second (updated keys): what an incremental checkpoint uploads again */
  state_churn_bytes_per_s: number;
  /** bytes RocksDB compaction rewrites per second: new SST files an incremental checkpoint uploads too */
  compaction_bytes_per_s: number;
  /** each host's network bandwidth, shared by the uploads and restore reads of its subtasks; Infinity: no limit */
  host_bandwidth_mb_per_s: number;
  /** the remote store's total bandwidth, shared by every subtask's upload and read; Infinity: no limit */
  remote_store_bandwidth_mb_per_s: number;
}

export interface Scenario {
  version: 1;
  /** absent: `records` (the validator sets it only when the file names a runtime) */
  runtime?: RuntimeKind;
  /** the flows of a `runtime: scale` scenario (defaults filled in); absent for `records` */
  scale?: ScaleSpec;
  /** the English name, or the only one the file gives (localized-text.ts) */
  name: string;
  /** the English description, or the only one the file gives; '' when there is none */
  description: string;
  /** the name and description in the other languages the file gives; absent when it gives none */
  translations?: ScenarioTranslations;
  seed: number;
  job: JobSpec;
  /**
   * Flink configuration, keyed by Flink's current option keys (deprecated keys are rewritten to
   * their current key during validation, with a note). Only keys the playground knows are allowed;
   * values are parsed: durations to milliseconds, memory sizes to bytes, enums upper-cased as Flink
   * prints them, booleans to booleans, integers to numbers. Options not given are absent here;
   * read them through `readConfig` (flink-options.ts), which applies Flink's defaults.
   */
  config: Record<string, ConfigValue>;
  cluster: ClusterSpec;
  costs: CostSpec;
  faults: FaultSpec[];
  /**
   * `until_ms` is `Number.POSITIVE_INFINITY` (RUN_UNTIL_JOB_FINISHES in scenario-defaults.ts) when
   * the file gives no `run.until`, which it may only when every source is bounded: the run lasts
   * until the job finishes.
   */
  run: { until_ms: number };
  expectations: ExpectationSpec[];
}

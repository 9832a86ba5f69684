/**
 * What a scenario gets for a field it leaves out. Flink options are not here: their defaults are
 * Flink's, in config/flink-options.ts.
 */

import type { CostSpec, ScaleSpec } from './scenario-types.ts';
import type { VertexType } from './scenario-vocabulary.ts';

export const DEFAULT_SEED = 1;
export const MAX_SEED = 2 ** 32 - 1;

export const DEFAULT_DESCRIPTION = '';

/**
 * Virtual processing time per record, in microseconds. Keyed operators cost more because they
 * read and write state; a join does so for both sides.
 */
export const DEFAULT_RECORD_COST_US: Readonly<Record<VertexType, number>> = {
  source: 1,
  map: 1,
  filter: 0.5,
  'keyed-aggregate': 2,
  window: 2,
  'window-join': 3,
  sink: 1,
};

export const DEFAULT_SINK = 'plain';

export const DEFAULT_RANDOM_SOURCE = { skew: 0, value_min: 1, value_max: 1 } as const;

export const DEFAULT_CLUSTER = { hosts: 1, task_managers_per_host: 1 } as const;

export const DEFAULT_COSTS: Readonly<CostSpec> = {
  network_latency_ms: 0.2,
  record_size_bytes: 100,
  remote_latency_ms: 50,
  remote_bandwidth_mb_per_s: 100,
  local_latency_ms: 0.5,
  local_bandwidth_mb_per_s: 1000,
};

/**
 * `run.until_ms` when the file gives none and every source is bounded: run until the job
 * finishes. Infinity does not survive JSON, so a consumer that serialises a Scenario must map it.
 */
export const RUN_UNTIL_JOB_FINISHES = Number.POSITIVE_INFINITY;

/** A `runtime: scale` scenario's flows when its `scale` section leaves them out: no state, no limit on bandwidth beyond `costs`. */
export const DEFAULT_SCALE: Readonly<ScaleSpec> = {
  state_size_bytes: 0,
  state_growth_bytes_per_s: 0,
  state_churn_bytes_per_s: 0,
  compaction_bytes_per_s: 0,
  host_bandwidth_mb_per_s: Number.POSITIVE_INFINITY,
  remote_store_bandwidth_mb_per_s: Number.POSITIVE_INFINITY,
};

/**
 * Reads the simulated machine's costs. Every field is optional; a missing one takes its default
 * from scenario-defaults.ts.
 */

import type { ObjectReader } from './field-reader.ts';
import { DEFAULT_COSTS } from './scenario-defaults.ts';
import type { CostSpec } from './scenario-types.ts';

const NON_NEGATIVE = { min: 0 };
const POSITIVE = { min: 0, above: true };

export const COST_FIELDS = Object.keys(DEFAULT_COSTS) as (keyof CostSpec)[];

export function readCosts(costs: ObjectReader | undefined): CostSpec | undefined {
  if (!costs) return { ...DEFAULT_COSTS };
  costs.rejectUnknown(COST_FIELDS);
  const d = DEFAULT_COSTS;
  const read = {
    network_latency_ms: costs.number('network_latency_ms', { ...NON_NEGATIVE, default: d.network_latency_ms }),
    record_size_bytes: costs.integer('record_size_bytes', { min: 1, default: d.record_size_bytes }),
    remote_latency_ms: costs.number('remote_latency_ms', { ...NON_NEGATIVE, default: d.remote_latency_ms }),
    remote_bandwidth_mb_per_s: costs.number('remote_bandwidth_mb_per_s', {
      ...POSITIVE,
      default: d.remote_bandwidth_mb_per_s,
    }),
    local_latency_ms: costs.number('local_latency_ms', { ...NON_NEGATIVE, default: d.local_latency_ms }),
    local_bandwidth_mb_per_s: costs.number('local_bandwidth_mb_per_s', {
      ...POSITIVE,
      default: d.local_bandwidth_mb_per_s,
    }),
  };
  return Object.values(read).every((v) => v !== undefined) ? (read as CostSpec) : undefined;
}

/**
 * The `rocksdb-metric` expectation: a RocksDB counter (flushes, compactions, write stalls, block
 * cache hits and misses …) of the run's rocksdb subtasks, summed, within a range. A checker of its
 * own (STYLE 8): it reads the subtasks' native metrics, which no checkpoint statistic carries.
 */
import type { SubtaskMetrics } from '../metrics/metrics-sampler.ts';
import type { ExpectationSpec } from '../scenario/scenario-types.ts';

type RocksDbMetricSpec = Extract<ExpectationSpec, { type: 'rocksdb-metric' }>;

/** One subtask's RocksDB native metrics by property name, as SubtaskMetrics.rocksdb has them. */
export interface RocksDbSubtaskMetrics {
  vertexId: string;
  subtaskIndex: number;
  rocksdb: Readonly<Record<string, number>>;
}

/** The subtasks that keep their state in rocksdb, with their metrics (the others have none). */
export function rocksDbSubtaskMetrics(subtasks: readonly SubtaskMetrics[]): RocksDbSubtaskMetrics[] {
  return subtasks.flatMap((s) => (s.rocksdb === undefined ? [] : [{ vertexId: s.vertexId, subtaskIndex: s.subtaskIndex, rocksdb: s.rocksdb }]));
}

export function checkRocksDbMetric(e: RocksDbMetricSpec, subtasks: readonly RocksDbSubtaskMetrics[]): { held: boolean; seen: string; actual: string } {
  const covered = subtasks.filter((s) => e.vertex === undefined || s.vertexId === e.vertex);
  if (covered.length === 0) {
    const seen = `no rocksdb subtask${e.vertex === undefined ? '' : ` of ${e.vertex}`}`;
    return { held: false, seen, actual: seen };
  }
  const total = covered.reduce((sum, s) => sum + (s.rocksdb[e.metric] ?? 0), 0);
  const held = (e.min === undefined || total >= e.min) && (e.max === undefined || total <= e.max);
  return { held, seen: String(total), actual: `${e.metric} was ${total} over ${covered.length} rocksdb subtasks${e.vertex === undefined ? '' : ` of ${e.vertex}`}` };
}

/** `lsm.flush.count of windows is at least 10`, worded for `describeExpectation`. */
export function describeRocksDbMetric(e: RocksDbMetricSpec): string {
  return `${e.metric}${e.vertex === undefined ? '' : ` of ${e.vertex}`} is ${rangeText(e.min, e.max)}`;
}

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max!}`;
}

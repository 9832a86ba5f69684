/**
 * A summary of one figure over checkpoints or subtasks. Up to 1.13 Flink wrote MinMaxAvgStatistics
 * ({min, max, avg}); from 1.14 StatsSummaryDto adds the 50th to 99.9th percentiles. The current
 * shape always has them: an older document's percentiles are unknown, and become "NaN", which is
 * what Flink itself writes for a percentile it has no histogram for.
 */
import type { StatsSummaryDocument } from '../checkpoint/stats/rest-document-types.ts';
import type { JsonObjectReader } from './json-object-reader.ts';

const PERCENTILES = ['p50', 'p90', 'p95', 'p99', 'p999'] as const;

export function readStatsSummary(summary: JsonObjectReader | undefined): StatsSummaryDocument {
  if (summary === undefined) return unmeasuredStatsSummary();
  const hasPercentiles = PERCENTILES.some((p) => summary.has(p));
  summary.reading.observe('percentiles', hasPercentiles);
  const read = (p: (typeof PERCENTILES)[number]) => (hasPercentiles ? summary.double(p) : 'NaN');
  return {
    min: summary.integer('min'),
    max: summary.integer('max'),
    avg: summary.integer('avg'),
    p50: read('p50'),
    p90: read('p90'),
    p95: read('p95'),
    p99: read('p99'),
    p999: read('p999'),
  };
}

/**
 * A summary of a figure the release did not measure (processed and persisted in-flight data before
 * 1.12): nothing was counted, so 0, and no percentiles.
 */
export function unmeasuredStatsSummary(): StatsSummaryDocument {
  return { min: 0, max: 0, avg: 0, p50: 'NaN', p90: 'NaN', p95: 'NaN', p99: 'NaN', p999: 'NaN' };
}

/**
 * A summary that releases before `feature` did not write: read when present, `fallback()` when
 * absent, and the presence noted for the version check.
 */
export function readStatsSummarySince(
  parent: JsonObjectReader,
  key: string,
  feature: 'checkpointed_size' | 'processed_data',
  fallback: () => StatsSummaryDocument,
): StatsSummaryDocument {
  parent.reading.observe(feature, parent.has(key));
  return parent.has(key) ? readStatsSummary(parent.object(key)) : fallback();
}

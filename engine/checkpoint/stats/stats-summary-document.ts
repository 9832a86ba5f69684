import type { JacksonDouble, StatsSummaryDocument } from './rest-document-types.ts';
import type { StatsSummarySnapshot } from './stats-summary.ts';

/** StatsSummaryDto.valueOf: min/max/avg and the 50/90/95/99/99.9th percentiles. */
export function statsSummaryDocument(snapshot: StatsSummarySnapshot): StatsSummaryDocument {
  return {
    min: snapshot.min,
    max: snapshot.max,
    avg: snapshot.avg,
    p50: jacksonDouble(snapshot.quantile(0.5)),
    p90: jacksonDouble(snapshot.quantile(0.9)),
    p95: jacksonDouble(snapshot.quantile(0.95)),
    p99: jacksonDouble(snapshot.quantile(0.99)),
    p999: jacksonDouble(snapshot.quantile(0.999)),
  };
}

/** `new StatsSummaryDto(0, 0, 0, 0, 0, 0, 0, 0)`: Flink's hard-coded alignment_buffered summary. */
export function zeroStatsSummaryDocument(): StatsSummaryDocument {
  return { min: 0, max: 0, avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0 };
}

/**
 * Jackson writes a non-finite double as a JSON string (WRITE_NAN_AS_STRINGS is on by default and
 * Flink's REST mapper keeps it), so an empty histogram's percentile reaches clients as "NaN".
 */
export function jacksonDouble(value: number): JacksonDouble {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  return value;
}

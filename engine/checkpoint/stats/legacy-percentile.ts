/**
 * Apache commons-math3 `Percentile` with its default estimation type (EstimationType.LEGACY),
 * which Flink's DescriptiveStatisticsHistogramStatistics uses for checkpoint percentiles.
 *
 * LEGACY places the percentile at pos = p·(n+1) (the same position as Hyndman–Fan R6), returns the
 * minimum below position 1 and the maximum from position n on, and otherwise interpolates between
 * the neighbouring order statistics. An empty sample gives NaN; a sample of one gives that value.
 *
 * @param values the sample, in any order
 * @param quantile in (0, 1], as Flink's `getQuantile(q)` takes it
 */
export function legacyPercentile(values: readonly number[], quantile: number): number {
  // Flink calls percentile(quantile * 100) and commons-math divides by 100 again: keep both steps
  // so the floating-point position is bit-for-bit the same as the JVM's.
  const p = quantile * 100;
  if (!(p > 0 && p <= 100)) throw new RangeError(`quantile must be in (0, 1], got ${quantile}`);
  const n = values.length;
  if (n === 0) return Number.NaN;
  if (n === 1) return values[0] as number;
  const sorted = [...values].sort((a, b) => a - b);
  return estimate(sorted, legacyPosition(p / 100, n));
}

/** EstimationType.LEGACY.index: special-cases p = 1 (the maximum), else p·(n+1). */
function legacyPosition(p: number, n: number): number {
  if (p === 1) return n;
  return p * (n + 1);
}

/** EstimationType.estimate: clamp to the extremes, else interpolate (1-based position). */
function estimate(sorted: readonly number[], pos: number): number {
  const n = sorted.length;
  if (pos < 1) return sorted[0] as number;
  if (pos >= n) return sorted[n - 1] as number;
  const floor = Math.floor(pos);
  const lower = sorted[floor - 1] as number;
  const upper = sorted[floor] as number;
  return lower + (pos - floor) * (upper - lower);
}

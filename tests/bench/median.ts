/**
 * The median of a bench's repeated runs: the figure the report gives. A median, not the best, so
 * that one lucky run on a quiet moment (or one unlucky one) does not make the figure.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no runs');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A comparison measured side by side: per round both sides run back to back, and the figure is
 * the median of the rounds' ratios, so each ratio compares runs that saw the same machine state.
 */
export function medianRatio(numerators: readonly number[], denominators: readonly number[]): number {
  if (numerators.length !== denominators.length) throw new Error('a ratio needs as many runs on each side');
  return median(numerators.map((n, i) => n / denominators[i]!));
}

/**
 * The middle value (the lower of the two middle ones for an even count, so it is always a figure
 * that was measured). The doctor judges medians, not means: one slow checkpoint is not a pattern.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

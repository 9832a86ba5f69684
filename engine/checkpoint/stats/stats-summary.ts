import { legacyPercentile } from './legacy-percentile.ts';
import { SlidingWindow } from './sliding-window.ts';

/** Flink's StatsSummarySnapshot: the figures a REST StatsSummaryDto is made of. */
export interface StatsSummarySnapshot {
  min: number;
  max: number;
  sum: number;
  count: number;
  /** sum / count with Java's long division (0 when empty) */
  avg: number;
  /** NaN when the summary keeps no histogram or nothing was added, as in Flink */
  quantile(q: number): number;
}

/**
 * Flink's StatsSummary: min, max and average over every value ever added, and percentiles over a
 * sliding window of the latest values. Negative values are ignored, because Flink uses -1 for
 * "unknown" (for example the duration of a checkpoint nobody acknowledged).
 *
 * Flink gives the job-level summary (CompletedCheckpointStatsSummary) a 10,000-value window and the
 * per-task summaries none at all, so their percentiles are always NaN.
 */
export class StatsSummary {
  #min = 0;
  #max = 0;
  #sum = 0;
  #count = 0;
  readonly #window: SlidingWindow | undefined;

  /** @param histogramWindowSize 0 = no histogram (Flink's `new StatsSummary()`) */
  constructor(histogramWindowSize = 0) {
    this.#window = histogramWindowSize > 0 ? new SlidingWindow(histogramWindowSize) : undefined;
  }

  add(value: number): void {
    if (value < 0) return;
    this.#min = this.#count > 0 ? Math.min(this.#min, value) : value;
    this.#max = this.#count > 0 ? Math.max(this.#max, value) : value;
    this.#count++;
    this.#sum += value;
    this.#window?.add(value);
  }

  get sum(): number {
    return this.#sum;
  }

  snapshot(): StatsSummarySnapshot {
    const windowValues = this.#window?.values();
    return {
      min: this.#min,
      max: this.#max,
      sum: this.#sum,
      count: this.#count,
      avg: this.#count === 0 ? 0 : Math.trunc(this.#sum / this.#count),
      quantile: (q) => (windowValues === undefined ? Number.NaN : legacyPercentile(windowValues, q)),
    };
  }
}

import type { CheckpointStats } from './checkpoint-stats.ts';
import { StatsSummary } from './stats-summary.ts';

/** Flink keeps ~300 KB of doubles per job for the percentiles: the latest 10,000 values of each. */
export const SUMMARY_HISTOGRAM_WINDOW_SIZE = 10_000;

/**
 * Flink's CompletedCheckpointStatsSummary: figures of every completed checkpoint and savepoint
 * (failed and in-progress ones never count).
 */
export class CompletedCheckpointStatsSummary {
  readonly checkpointedSize = new StatsSummary(SUMMARY_HISTOGRAM_WINDOW_SIZE);
  readonly stateSize = new StatsSummary(SUMMARY_HISTOGRAM_WINDOW_SIZE);
  readonly endToEndDuration = new StatsSummary(SUMMARY_HISTOGRAM_WINDOW_SIZE);
  readonly processedData = new StatsSummary(SUMMARY_HISTOGRAM_WINDOW_SIZE);
  readonly persistedData = new StatsSummary(SUMMARY_HISTOGRAM_WINDOW_SIZE);

  add(completed: CheckpointStats): void {
    this.checkpointedSize.add(completed.checkpointedSize);
    this.stateSize.add(completed.stateSize);
    this.endToEndDuration.add(completed.endToEndDuration);
    this.processedData.add(completed.processedData);
    this.persistedData.add(completed.persistedData);
  }
}

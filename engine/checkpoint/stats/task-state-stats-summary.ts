import type { SubtaskCheckpointStats } from './checkpoint-stats-types.ts';
import { StatsSummary } from './stats-summary.ts';

/**
 * Flink's TaskStateStats.TaskStateStatsSummary: min/max/avg of every subtask figure of one vertex in
 * one checkpoint. Flink builds these without a histogram, so their percentiles are NaN.
 */
export class TaskStateStatsSummary {
  readonly checkpointedSize = new StatsSummary();
  readonly stateSize = new StatsSummary();
  readonly ackTimestamp = new StatsSummary();
  readonly syncDuration = new StatsSummary();
  readonly asyncDuration = new StatsSummary();
  readonly processedData = new StatsSummary();
  readonly persistedData = new StatsSummary();
  readonly alignmentDuration = new StatsSummary();
  readonly startDelay = new StatsSummary();

  add(subtask: SubtaskCheckpointStats): void {
    this.checkpointedSize.add(subtask.checkpointedSize);
    this.stateSize.add(subtask.stateSize);
    // An aborted subtask never acknowledged, so it has no acknowledgement time to summarise.
    if (!subtask.aborted) this.ackTimestamp.add(subtask.ackTimestamp);
    this.syncDuration.add(subtask.syncDurationMs);
    this.asyncDuration.add(subtask.asyncDurationMs);
    this.processedData.add(subtask.processedDataBytes);
    this.persistedData.add(subtask.persistedDataBytes);
    this.alignmentDuration.add(subtask.alignmentDurationMs);
    this.startDelay.add(subtask.startDelayMs);
  }
}

import type { CheckpointStats } from './checkpoint-stats.ts';
import type { SubtaskCheckpointStats } from './checkpoint-stats-types.ts';
import { taskCheckpointStatisticsDocument } from './checkpoint-statistics-document.ts';
import type {
  CompletedSubtaskCheckpointStatisticsDocument,
  PendingSubtaskCheckpointStatisticsDocument,
  StatsSummaryDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from './rest-document-types.ts';
import { jacksonDouble, statsSummaryDocument, zeroStatsSummaryDocument } from './stats-summary-document.ts';
import type { StatsSummary } from './stats-summary.ts';
import type { TaskStateStats } from './task-state-stats.ts';

/**
 * TaskCheckpointStatisticDetailsHandler: GET …/checkpoints/details/:checkpointid/subtasks/:vertexid,
 * the vertex's figures, a min/max/avg summary over its subtasks, and one entry per subtask index.
 */
export function taskCheckpointStatisticsWithSubtaskDetailsDocument(
  checkpoint: CheckpointStats,
  task: TaskStateStats,
): TaskCheckpointStatisticsWithSubtaskDetailsDocument {
  return {
    ...taskCheckpointStatisticsDocument(checkpoint, task),
    summary: summaryDocument(task, checkpoint.triggerTimestamp),
    subtasks: task.subtasks.map((subtask, index) => subtaskDocument(subtask, index, checkpoint.triggerTimestamp)),
  };
}

function summaryDocument(
  task: TaskStateStats,
  triggerTimestamp: number,
): TaskCheckpointStatisticsWithSubtaskDetailsDocument['summary'] {
  const s = task.summary;
  return {
    checkpointed_size: statsSummaryDocument(s.checkpointedSize.snapshot()),
    state_size: statsSummaryDocument(s.stateSize.snapshot()),
    end_to_end_duration: endToEndSummary(s.ackTimestamp, triggerTimestamp),
    checkpoint_duration: {
      sync: statsSummaryDocument(s.syncDuration.snapshot()),
      async: statsSummaryDocument(s.asyncDuration.snapshot()),
    },
    alignment: {
      buffered: zeroStatsSummaryDocument(),
      processed: statsSummaryDocument(s.processedData.snapshot()),
      persisted: statsSummaryDocument(s.persistedData.snapshot()),
      duration: statsSummaryDocument(s.alignmentDuration.snapshot()),
    },
    start_delay: statsSummaryDocument(s.startDelay.snapshot()),
  };
}

/**
 * Flink derives the duration summary from the acknowledgement times minus the trigger time, each
 * clamped at 0; the percentiles come straight from the ack-time summary, which has no histogram.
 */
function endToEndSummary(ackTimestamps: StatsSummary, triggerTimestamp: number): StatsSummaryDocument {
  const acks = ackTimestamps.snapshot();
  return {
    min: Math.max(0, acks.min - triggerTimestamp),
    max: Math.max(0, acks.max - triggerTimestamp),
    avg: Math.max(0, acks.avg - triggerTimestamp),
    p50: jacksonDouble(acks.quantile(0.5)),
    p90: jacksonDouble(acks.quantile(0.9)),
    p95: jacksonDouble(acks.quantile(0.95)),
    p99: jacksonDouble(acks.quantile(0.99)),
    p999: jacksonDouble(acks.quantile(0.999)),
  };
}

function subtaskDocument(
  subtask: SubtaskCheckpointStats | undefined,
  index: number,
  triggerTimestamp: number,
): CompletedSubtaskCheckpointStatisticsDocument | PendingSubtaskCheckpointStatisticsDocument {
  if (subtask === undefined) return { className: 'pending', index, status: 'pending_or_failed' };
  return {
    className: 'completed',
    index,
    status: 'completed',
    ack_timestamp: subtask.ackTimestamp,
    end_to_end_duration: Math.max(0, subtask.ackTimestamp - triggerTimestamp),
    checkpointed_size: subtask.checkpointedSize,
    state_size: subtask.stateSize,
    checkpoint: { sync: subtask.syncDurationMs, async: subtask.asyncDurationMs },
    alignment: {
      buffered: 0,
      processed: subtask.processedDataBytes,
      persisted: subtask.persistedDataBytes,
      duration: subtask.alignmentDurationMs,
    },
    start_delay: subtask.startDelayMs,
    unaligned_checkpoint: subtask.unalignedCheckpoint,
    aborted: subtask.aborted,
  };
}

import type { CheckpointStats } from './checkpoint-stats.ts';
import type {
  CheckpointStatisticsDocument,
  CompletedCheckpointStatisticsDocument,
  FailedCheckpointStatisticsDocument,
  TaskCheckpointStatisticsDocument,
} from './rest-document-types.ts';
import type { TaskStateStats } from './task-state-stats.ts';

/**
 * CheckpointStatistics.generateCheckpointStatistics: one checkpoint as the overview (history,
 * latest) shows it, without tasks, or as the details endpoint shows it, with one entry per vertex.
 */
export function checkpointStatisticsDocument(
  checkpoint: CheckpointStats,
  includeTasks: boolean,
): CheckpointStatisticsDocument {
  if (checkpoint.status === 'COMPLETED') return completedCheckpointStatisticsDocument(checkpoint, includeTasks);
  if (checkpoint.status === 'FAILED') return failedCheckpointStatisticsDocument(checkpoint, includeTasks);
  return { className: 'in_progress', ...sharedFields(checkpoint, includeTasks) };
}

export function completedCheckpointStatisticsDocument(
  checkpoint: CheckpointStats,
  includeTasks: boolean,
): CompletedCheckpointStatisticsDocument {
  return {
    className: 'completed',
    ...sharedFields(checkpoint, includeTasks),
    external_path: checkpoint.externalPath,
    discarded: checkpoint.discarded,
  };
}

export function failedCheckpointStatisticsDocument(
  checkpoint: CheckpointStats,
  includeTasks: boolean,
): FailedCheckpointStatisticsDocument {
  return {
    className: 'failed',
    ...sharedFields(checkpoint, includeTasks),
    failure_timestamp: checkpoint.failureTimestamp,
    failure_message: checkpoint.failureMessage,
  };
}

function sharedFields(checkpoint: CheckpointStats, includeTasks: boolean) {
  return {
    id: checkpoint.id,
    status: checkpoint.status,
    is_savepoint: checkpoint.isSavepoint,
    savepointFormat: checkpoint.savepointFormat,
    trigger_timestamp: checkpoint.triggerTimestamp,
    latest_ack_timestamp: checkpoint.latestAckTimestamp,
    checkpointed_size: checkpoint.checkpointedSize,
    state_size: checkpoint.stateSize,
    end_to_end_duration: checkpoint.endToEndDuration,
    // Flink hard-codes 0: a blocked channel is simply not read, so alignment buffers nothing.
    alignment_buffered: 0,
    processed_data: checkpoint.processedData,
    persisted_data: checkpoint.persistedData,
    num_subtasks: checkpoint.numSubtasks,
    num_acknowledged_subtasks: checkpoint.numAcknowledgedSubtasks,
    checkpoint_type: checkpoint.restCheckpointType,
    tasks: includeTasks ? taskDocuments(checkpoint) : {},
  };
}

function taskDocuments(checkpoint: CheckpointStats): Record<string, TaskCheckpointStatisticsDocument> {
  const tasks: Record<string, TaskCheckpointStatisticsDocument> = {};
  for (const [vertexId, task] of checkpoint.tasks) tasks[vertexId] = taskCheckpointStatisticsDocument(checkpoint, task);
  return tasks;
}

/** TaskCheckpointStatistics: one vertex, with its checkpoint's id and status. */
export function taskCheckpointStatisticsDocument(
  checkpoint: CheckpointStats,
  task: TaskStateStats,
): TaskCheckpointStatisticsDocument {
  return {
    id: checkpoint.id,
    status: checkpoint.status,
    latest_ack_timestamp: task.latestAckTimestamp,
    checkpointed_size: task.summary.checkpointedSize.sum,
    state_size: task.summary.stateSize.sum,
    end_to_end_duration: task.endToEndDuration(checkpoint.triggerTimestamp),
    alignment_buffered: 0,
    processed_data: task.summary.processedData.sum,
    persisted_data: task.summary.persistedData.sum,
    num_subtasks: task.numSubtasks,
    num_acknowledged_subtasks: task.numAcknowledged,
  };
}

/**
 * Every REST document a tracker serves, paired with the Flink schema it must match, so tests can
 * validate them all at once.
 */
import type { CheckpointStatsTracker } from '../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import type { FlinkResponseSchemaName } from '../flink-reference/flink-schema.ts';

export interface FlinkDocument {
  schema: FlinkResponseSchemaName;
  label: string;
  document: unknown;
}

export function trackerDocuments(tracker: CheckpointStatsTracker, vertexIds: readonly string[]): FlinkDocument[] {
  const documents: FlinkDocument[] = [
    { schema: 'checkpointing-statistics', label: 'GET /checkpoints', document: tracker.checkpointingStatistics() },
  ];
  for (const [id, details] of Object.entries(tracker.allCheckpointDetails())) {
    documents.push({ schema: 'checkpoint-statistics', label: `details/${id}`, document: details });
    for (const vertexId of vertexIds) {
      const task = tracker.taskCheckpointStatistics(Number(id), vertexId);
      if (task !== undefined) {
        documents.push({ schema: 'task-checkpoint-statistics', label: `details/${id}/subtasks/${vertexId}`, document: task });
      }
    }
  }
  return documents;
}

/**
 * What the Gantt tab reads, the same for a playground run and an imported Flink job: the
 * checkpoint history (Flink's order, newest first) and, for one checkpoint, each operator's
 * subtasks document. An import holds only the responses the user saved, so a checkpoint may have
 * no subtask documents at all.
 */
import type {
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../../engine/checkpoint/stats/rest-document-types.ts';
import type { CheckpointSubtaskDetails } from '../../engine/interop/flink-statistics-import.ts';
import type { GanttVertexInput } from './checkpoint-gantt-layout.ts';

export interface GanttStatistics {
  history: readonly CheckpointStatisticsDocument[];
  vertices(checkpointId: number): GanttVertexInput[];
}

/** A playground run: every operator of the job graph, in its order, named as in the graph. */
export function runGanttStatistics(
  checkpointing: CheckpointingStatisticsDocument,
  operators: readonly { id: string; name: string }[],
  subtasks: (checkpointId: number, vertexId: string) => TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined,
): GanttStatistics {
  return {
    history: checkpointing.history,
    vertices: (checkpointId) => operators.map((v) => ({ vertexId: v.id, name: v.name, statistics: subtasks(checkpointId, v.id) })),
  };
}

/** The documents an import holds (any of them may be missing). */
export interface ImportedGanttDocuments {
  checkpoints?: CheckpointingStatisticsDocument;
  checkpointDetails?: Record<string, CheckpointStatisticsDocument>;
  checkpointSubtaskDetails?: readonly CheckpointSubtaskDetails[];
}

/**
 * An imported job: the history of its checkpoints document, else the checkpoints it has details
 * of. Flink's REST documents carry vertex ids only (names are in the job's plan), so the rows are
 * headed by the id; a lone saved subtasks response does not even have that (it is in the URL).
 */
export function importedGanttStatistics(documents: ImportedGanttDocuments, unknownVertex: string): GanttStatistics {
  const details = Object.values(documents.checkpointDetails ?? {});
  const listed = new Set((documents.checkpoints?.history ?? []).map((c) => c.id));
  const history = [...(documents.checkpoints?.history ?? []), ...details.filter((c) => !listed.has(c.id))].sort((a, b) => b.id - a.id);
  const subtaskDetails = documents.checkpointSubtaskDetails ?? [];
  return {
    history,
    vertices: (checkpointId) =>
      subtaskDetails
        .filter((d) => d.checkpointId === checkpointId)
        .map((d) => ({ vertexId: d.vertexId ?? unknownVertex, name: d.vertexId ?? unknownVertex, statistics: d.statistics })),
  };
}

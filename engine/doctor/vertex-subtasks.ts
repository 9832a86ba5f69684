/**
 * The completed subtasks of each vertex, from the subtasks documents
 * (…/checkpoints/details/:checkpointid/subtasks/:vertexid), one entry per checkpoint, oldest first.
 * Start delay, alignment, the sync and async phases and skew are only visible per subtask.
 */
import type { CompletedSubtaskCheckpointStatisticsDocument } from '../checkpoint/stats/rest-document-types.ts';
import type { DoctorDocuments } from './doctor-documents.ts';
import { median } from './median.ts';

export interface VertexCheckpoint {
  checkpointId: number;
  subtasks: CompletedSubtaskCheckpointStatisticsDocument[];
}

/** A lone saved subtasks response has no vertex id (it is only in the URL). */
export const UNKNOWN_VERTEX = '?';

export function vertexSubtasks(documents: DoctorDocuments): Map<string, VertexCheckpoint[]> {
  const byVertex = new Map<string, VertexCheckpoint[]>();
  for (const details of documents.checkpointSubtaskDetails ?? []) {
    // A checkpoint still running has only its fastest subtasks: they would hide the slow ones.
    if (details.statistics.status === 'IN_PROGRESS') continue;
    const subtasks = details.statistics.subtasks.filter((s): s is CompletedSubtaskCheckpointStatisticsDocument => s.className === 'completed');
    if (subtasks.length === 0) continue;
    const vertex = details.vertexId ?? UNKNOWN_VERTEX;
    byVertex.set(vertex, [...(byVertex.get(vertex) ?? []), { checkpointId: details.checkpointId, subtasks }]);
  }
  for (const checkpoints of byVertex.values()) checkpoints.sort((a, b) => a.checkpointId - b.checkpointId);
  return byVertex;
}

/** The median of one figure over every completed subtask of a vertex, across its checkpoints. */
export function medianOf(checkpoints: readonly VertexCheckpoint[], figure: (s: CompletedSubtaskCheckpointStatisticsDocument) => number): number {
  return median(checkpoints.flatMap((c) => c.subtasks.map(figure)));
}

export interface VertexFigure {
  vertex: string;
  /** the figure's median over the vertex's subtasks */
  value: number;
  /** the median end-to-end duration of the same subtasks */
  endToEnd: number;
}

/**
 * The first vertex, in the documents' order (the job graph's, for a playground run), whose
 * median `figure` passes `passes`: a late barrier shows first at or just after its cause, and
 * every vertex downstream inherits the delay.
 */
export function firstVertexWhere(
  documents: DoctorDocuments,
  figure: (s: CompletedSubtaskCheckpointStatisticsDocument) => number,
  passes: (f: VertexFigure) => boolean,
): VertexFigure | undefined {
  for (const [vertex, checkpoints] of vertexSubtasks(documents)) {
    const found = { vertex, value: medianOf(checkpoints, figure), endToEnd: medianOf(checkpoints, (s) => s.end_to_end_duration) };
    if (passes(found)) return found;
  }
  return undefined;
}

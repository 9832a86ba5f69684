/**
 * Where one checkpoint's time went in each subtask, from Flink's per-subtask checkpoint statistics
 * (GET …/checkpoints/details/:id/subtasks/:vertexid, the same documents the dashboard reads), laid
 * out on the checkpoint's own time axis (0 = trigger):
 *
 *   start delay (the barrier travelling to the subtask: backpressure) → alignment (waiting for the
 *   barriers of the other inputs) → sync (the snapshot itself) → async (the upload) → the rest,
 *   until the acknowledgement reached the JobManager (end to end).
 *
 * Pure data, no DOM, so it can be checked without a browser.
 */
import type { TaskCheckpointStatisticsWithSubtaskDetailsDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';

export const PHASES = ['startDelay', 'alignment', 'sync', 'async'] as const;
export type Phase = (typeof PHASES)[number];

export interface PhaseSegment {
  phase: Phase | 'rest';
  /** ms after the trigger */
  from: number;
  length: number;
}

export interface SubtaskPhaseRow {
  vertexId: string;
  name: string;
  index: number;
  /** not acknowledged (yet, or ever: the checkpoint failed) */
  pending: boolean;
  endToEnd: number;
  durations: Record<Phase, number>;
  segments: PhaseSegment[];
}

export interface SubtaskPhases {
  rows: SubtaskPhaseRow[];
  /** the longest end to end duration of any subtask: the width of the axis */
  scale: number;
}

/**
 * One row per subtask of each vertex (in the given order) that has statistics for the checkpoint.
 * `statistics` is the per-subtask document of a vertex, undefined when there is none.
 */
export function subtaskPhases(
  vertices: readonly { id: string; name: string }[],
  statistics: (vertexId: string) => TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined,
): SubtaskPhases {
  const rows: SubtaskPhaseRow[] = [];
  for (const vertex of vertices) {
    const document = statistics(vertex.id);
    if (!document) continue;
    for (const subtask of document.subtasks) rows.push(row(vertex, subtask));
  }
  const scale = Math.max(1, ...rows.map((r) => r.endToEnd));
  return { rows, scale };
}

function row(
  vertex: { id: string; name: string },
  subtask: TaskCheckpointStatisticsWithSubtaskDetailsDocument['subtasks'][number],
): SubtaskPhaseRow {
  const base = { vertexId: vertex.id, name: vertex.name, index: subtask.index };
  if (subtask.className !== 'completed') {
    return { ...base, pending: true, endToEnd: 0, durations: { startDelay: 0, alignment: 0, sync: 0, async: 0 }, segments: [] };
  }
  const durations: Record<Phase, number> = {
    startDelay: subtask.start_delay,
    alignment: subtask.alignment.duration,
    sync: subtask.checkpoint.sync,
    async: subtask.checkpoint.async,
  };
  const segments: PhaseSegment[] = [];
  let at = 0;
  for (const phase of PHASES) {
    const length = Math.max(0, durations[phase]);
    if (length > 0) segments.push({ phase, from: at, length });
    at += length;
  }
  const endToEnd = Math.max(subtask.end_to_end_duration, at);
  if (endToEnd > at) segments.push({ phase: 'rest', from: at, length: endToEnd - at });
  return { ...base, pending: false, endToEnd, durations, segments };
}

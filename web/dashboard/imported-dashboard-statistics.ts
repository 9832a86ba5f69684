/**
 * An imported Flink job as the dashboard's tabs read it (DashboardStatistics). An import holds
 * only the responses the user saved, so any document may be missing:
 * - a checkpoint's details are its `/details/:checkpointid` response, else its history entry
 *   (Flink writes a history entry's `tasks` empty, so the operators are then unknown);
 * - an operator's subtasks are its `/subtasks/:vertexid` response;
 * - the operators are the vertex ids the responses name (Flink's checkpoint documents carry no
 *   operator names: those are in the job's plan), in the order first seen.
 * A run's own facts (job events, restores with their subtasks, where subtasks ran, the scenario's
 * options) do not exist for an import.
 */
import type { CheckpointStatisticsDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';
import { hasFeature, versionRange, type FlinkVersion, type VersionedFeature } from '../../engine/interop/flink-versions.ts';
import type { DashboardStatistics } from './dashboard-statistics.ts';
import type { ImportedGanttDocuments } from './gantt-statistics.ts';
import type { ImportedDocuments } from './imported-flink-job.svelte.ts';

export function importedDashboardStatistics(documents: ImportedDocuments, flinkVersions: readonly FlinkVersion[]): DashboardStatistics {
  const history = documents.checkpoints?.history ?? [];
  const subtasks = documents.checkpointSubtaskDetails ?? [];
  return {
    source: 'imported',
    checkpointing: documents.checkpoints ?? null,
    checkpointConfig: documents.checkpointConfig ?? null,
    checkpointDetails: (id) => documents.checkpointDetails?.[String(id)] ?? history.find((c) => c.id === id),
    taskCheckpointStatistics: (id, vertexId) => subtasks.find((s) => s.checkpointId === id && s.vertexId === vertexId)?.statistics,
    vertices: importedVertexIds(documents).map((id) => ({ id, name: id })),
    placement: () => new Map(),
    events: [],
    restores: [],
    options: null,
    flinkVersions,
    subtaskRows: true,
  };
}

/** Every vertex id the details and subtasks responses name, in the order first seen. */
export function importedVertexIds(documents: ImportedGanttDocuments): string[] {
  const details: CheckpointStatisticsDocument[] = Object.values(documents.checkpointDetails ?? {});
  const ids = [...details.flatMap((d) => Object.keys(d.tasks)), ...(documents.checkpointSubtaskDetails ?? []).flatMap((s) => (s.vertexId === null ? [] : [s.vertexId]))];
  return [...new Set(ids)];
}

/**
 * The releases that did not report a figure, when the imported documents fit only such releases
 * ("1.9–1.13" for the percentiles of a 1.9 response); null when it was reported, or for a run.
 */
export function notReportedBy(flinkVersions: readonly FlinkVersion[] | null, feature: VersionedFeature): string | null {
  if (flinkVersions === null || flinkVersions.length === 0) return null;
  return flinkVersions.some((v) => hasFeature(v, feature)) ? null : versionRange(flinkVersions);
}

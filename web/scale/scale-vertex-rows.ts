/**
 * The scale run's job graph as rows: one per vertex with its parallelism, never one per subtask
 * (a thousand of them say less than their aggregate). Per vertex: how busy and how backpressured
 * it is (Flink's busyTimeMsPerSecond and backPressuredTimeMsPerSecond, the vertex's highest), the
 * sources' backlog, its state in the latest completed checkpoint (Flink's per-task state_size, all
 * subtasks together), and where its subtasks read their state in the latest restore: how many from
 * local copies, how many from remote storage, and the slowest read. Pure: the component formats.
 */
import type { CheckpointingStatisticsDocument, CheckpointStatisticsDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';
import type { Topology } from '../../engine/job/topology.ts';
import type { JobMetrics } from '../../engine/metrics/metrics-sampler.ts';
import type { RestoreRecord } from '../../engine/run/job-events.ts';

export interface VertexRestore {
  local: number;
  remote: number;
  slowestMs: number;
}

export interface ScaleVertexRow {
  id: string;
  name: string;
  type: string;
  parallelism: number;
  busyMsPerS: number | null;
  backPressuredMsPerS: number | null;
  /** source vertices only */
  pendingRecords: number | null;
  /** bytes in the latest completed checkpoint; null before one completed */
  stateSize: number | null;
  /** null before the first restore */
  restore: VertexRestore | null;
}

export interface ScaleGraphInputs {
  topology: Topology;
  metrics: JobMetrics | null;
  checkpointing: CheckpointingStatisticsDocument | null;
  checkpointDetails: (id: number) => CheckpointStatisticsDocument | undefined;
  restores: readonly RestoreRecord[];
}

export function scaleVertexRows(inputs: ScaleGraphInputs): ScaleVertexRow[] {
  const latestId = inputs.checkpointing?.latest.completed?.id;
  const latest = latestId === undefined ? undefined : inputs.checkpointDetails(latestId);
  const restores = restoreSourcesByVertex(inputs.restores.at(-1));
  return inputs.topology.vertices.map((v) => {
    const metrics = inputs.metrics?.vertices[v.id];
    return {
      id: v.id,
      name: v.name,
      type: v.type,
      parallelism: v.parallelism,
      busyMsPerS: metrics ? Math.round(metrics.busyTimeMsPerSecond) : null,
      backPressuredMsPerS: metrics ? Math.round(metrics.backPressuredTimeMsPerSecond) : null,
      pendingRecords: metrics?.pendingRecords ?? null,
      stateSize: latest?.tasks[v.id]?.state_size ?? null,
      restore: restores?.get(v.id) ?? null,
    };
  });
}

/** Per vertex: how many subtasks read their state locally or remotely in `record`, and the slowest read. */
export function restoreSourcesByVertex(record: RestoreRecord | undefined): Map<string, VertexRestore> | null {
  if (!record) return null;
  const byVertex = new Map<string, VertexRestore>();
  for (const s of record.subtasks) {
    const entry = byVertex.get(s.vertexId) ?? { local: 0, remote: 0, slowestMs: 0 };
    if (s.source === 'local') entry.local++;
    else entry.remote++;
    entry.slowestMs = Math.max(entry.slowestMs, s.durationMs);
    byVertex.set(s.vertexId, entry);
  }
  return byVertex;
}

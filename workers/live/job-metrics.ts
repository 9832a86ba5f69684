import type { JobMetrics, SubtaskMetrics, VertexMetrics } from '../../engine/metrics/metrics-sampler.ts';

/**
 * The job's metrics from the subtask figures the TaskManagers send with their heartbeats, put
 * together as the sim's MetricsSampler does: per vertex, records add up and the busiest /
 * most backpressured subtask speaks for the vertex (as the Flink UI shows it).
 */
export function jobMetricsOf(subtasks: readonly SubtaskMetrics[], time: number): JobMetrics {
  const vertices: Record<string, VertexMetrics> = {};
  for (const s of subtasks) {
    const v = (vertices[s.vertexId] ??= { numRecordsIn: 0, numRecordsOut: 0, backPressuredTimeMsPerSecond: 0, busyTimeMsPerSecond: 0 });
    v.numRecordsIn += s.numRecordsIn;
    v.numRecordsOut += s.numRecordsOut;
    v.backPressuredTimeMsPerSecond = Math.max(v.backPressuredTimeMsPerSecond, s.backPressuredTimeMsPerSecond);
    v.busyTimeMsPerSecond = Math.max(v.busyTimeMsPerSecond, s.busyTimeMsPerSecond);
  }
  return { time, vertices, subtasks: [...subtasks] };
}

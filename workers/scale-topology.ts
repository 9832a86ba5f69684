/**
 * What runs where in a scale run, as the page's Topology (engine/job/topology.ts), without its
 * channels: a hash edge between two vertices of parallelism 1,000 is a million channels, which the
 * scale runtime models as flows and the page never draws (its job graph shows vertices).
 */
import type { ExecutionState } from '../engine/task/task-lifecycle.ts';
import type { Topology } from '../engine/job/topology.ts';
import type { ScaleRuntime } from '../engine/scale/scale-runtime.ts';

/** The subtasks' state follows the job's: the model has no task of its own to ask. */
export function subtaskState(jobStatus: string): ExecutionState {
  if (jobStatus === 'RUNNING' || jobStatus === 'FINISHED' || jobStatus === 'FAILED') return jobStatus;
  if (jobStatus === 'CANCELED' || jobStatus === 'CANCELLING') return 'CANCELED';
  return 'DEPLOYING';
}

export function scaleTopology(runtime: ScaleRuntime): Topology {
  const graph = runtime.graph;
  const keyed = new Set(runtime.flows.vertices.filter((f) => f.keyed).map((f) => f.vertex.id));
  const status = subtaskState(runtime.jobStatus);
  return {
    hosts: [...graph.cluster.hosts],
    lostHosts: runtime.jobMaster.lostHosts,
    taskManagers: graph.cluster.taskManagers.map((t) => ({ ...t })),
    vertices: graph.vertices.map((v) => ({
      id: v.id,
      name: v.name,
      type: v.operator.type,
      parallelism: v.parallelism,
      maxParallelism: graph.subtask({ vertexId: v.id, subtaskIndex: 0 }).maxParallelism,
    })),
    edges: graph.edges.map((e) => ({ from: e.from, to: e.to, partitioning: e.partitioning })),
    subtasks: graph.subtasks.map((s) => ({
      vertexId: s.id.vertexId,
      subtaskIndex: s.id.subtaskIndex,
      taskManager: s.slot.taskManager,
      host: s.slot.host,
      slot: s.slot.id,
      keyGroupRange: keyed.has(s.id.vertexId) ? { ...s.keyGroupRange } : null,
      status,
    })),
    channels: [],
  };
}

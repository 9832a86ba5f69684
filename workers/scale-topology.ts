/**
 * What runs where in a scale run, as the page's Topology (engine/job/topology.ts), without its
 * channels: a hash edge between two vertices of parallelism 1,000 is a million channels, which the
 * scale runtime models as flows and the page never draws (its job graph shows vertices).
 */
import type { ExecutionState } from '../engine/task/task-lifecycle.ts';
import { describePlacement, type Topology } from '../engine/job/topology.ts';
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
  return { ...describePlacement(graph, runtime.jobMaster.lostHosts, (s) => ({ keyed: keyed.has(s.id.vertexId), status })), channels: [] };
}

import type { FaultSpec } from '../scenario/scenario-types.ts';
import type { ClusterTopology } from './cluster-topology.ts';
import type { ExecutionGraph } from './execution-graph.ts';

/**
 * Why a fault (from the schedule or the Playground API) cannot be carried out on the running job,
 * or undefined when its target exists. Both drivers check targets here, so they answer alike;
 * what the fault then does differs (a simulated failover, a real Worker.terminate()).
 */
export function faultTargetProblem(fault: FaultSpec, graph: ExecutionGraph, cluster: ClusterTopology): string | undefined {
  switch (fault.type) {
    case 'fail-task':
      return graph.subtasks.some((s) => s.id.vertexId === fault.vertex && s.id.subtaskIndex === fault.subtask)
        ? undefined
        : `no subtask ${fault.vertex}#${fault.subtask}`;
    case 'kill-task-manager':
    case 'stall-task-manager':
      return cluster.taskManager(fault.task_manager)
        ? undefined
        : `no TaskManager "${fault.task_manager}" (running: ${cluster.taskManagers.map((t) => t.id).join(', ')})`;
    case 'lose-host':
    case 'corrupt-local-copy':
    case 'delete-local-copy':
      return cluster.hosts.includes(fault.host) ? undefined : `no host "${fault.host}" (hosts: ${cluster.hosts.join(', ')})`;
    case 'slow-operator':
      if (!graph.vertices.some((v) => v.id === fault.vertex)) return `unknown vertex "${fault.vertex}"`;
      return fault.factor > 0 ? undefined : `factor must be more than 0, got ${fault.factor}`;
    case 'slow-remote-storage':
      return fault.factor > 0 ? undefined : `factor must be more than 0, got ${fault.factor}`;
    default:
      return undefined;
  }
}

import type { FaultSpec } from '../scenario/scenario-types.ts';
import type { ClusterTopology } from './cluster-topology.ts';
import type { ExecutionGraph } from './execution-graph.ts';
import { message } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

/**
 * Why a fault (from the schedule or the Playground API) cannot be carried out on the running job,
 * or undefined when its target exists. Both drivers check targets here, so they answer alike;
 * what the fault then does differs (a simulated failover, a real Worker.terminate()).
 */
export function faultTargetProblem(fault: FaultSpec, graph: ExecutionGraph, cluster: ClusterTopology): EngineMessage | undefined {
  switch (fault.type) {
    case 'fail-task':
      return graph.subtasks.some((s) => s.id.vertexId === fault.vertex && s.id.subtaskIndex === fault.subtask)
        ? undefined
        : message('refusal.no-subtask', { vertex: fault.vertex, subtask: fault.subtask });
    case 'kill-task-manager':
    case 'stall-task-manager':
      return cluster.taskManager(fault.task_manager)
        ? undefined
        : message('refusal.no-task-manager', { taskManager: fault.task_manager, running: cluster.taskManagers.map((t) => t.id) });
    case 'lose-host':
    case 'corrupt-local-copy':
    case 'delete-local-copy':
      return cluster.hosts.includes(fault.host) ? undefined : message('refusal.no-host', { host: fault.host, hosts: cluster.hosts });
    case 'slow-operator':
      if (!graph.vertices.some((v) => v.id === fault.vertex)) return message('refusal.unknown-vertex', { vertex: fault.vertex });
      return fault.factor > 0 ? undefined : message('refusal.factor', { factor: fault.factor });
    case 'slow-remote-storage':
      return fault.factor > 0 ? undefined : message('refusal.factor', { factor: fault.factor });
    default:
      return undefined;
  }
}

import type { Partitioning } from '../scenario/scenario-types.ts';
import type { KeyGroupRange } from '../state/key-group-range.ts';
import type { StreamTask } from '../task/stream-task.ts';
import type { ExecutionState } from '../task/task-lifecycle.ts';
import type { ExecutionGraph } from './execution-graph.ts';

/** What runs where: the Playground API's `topology()` and the job view's input. */
export interface Topology {
  hosts: string[];
  /** hosts lost with `lose-host`: gone for the rest of the run (their TaskManagers came back elsewhere) */
  lostHosts: string[];
  taskManagers: { id: string; host: string; slots: number }[];
  vertices: { id: string; name: string; type: string; parallelism: number; maxParallelism: number }[];
  edges: { from: string; to: string; partitioning: Partitioning }[];
  subtasks: {
    vertexId: string;
    subtaskIndex: number;
    taskManager: string;
    host: string;
    slot: string;
    keyGroupRange: KeyGroupRange | null;
    status: ExecutionState;
  }[];
  channels: { id: number; from: string; to: string; local: boolean }[];
}

export function describeTopology(graph: ExecutionGraph, tasks: readonly StreamTask[], lostHosts: readonly string[] = []): Topology {
  return {
    ...describePlacement(graph, lostHosts, (_, i) => ({
      keyed: tasks[i]?.keyedState !== undefined,
      status: tasks[i]?.lifecycle.state ?? 'CREATED',
    })),
    channels: graph.channels.map((c) => ({
      id: c.id,
      from: `${c.from.vertexId}#${c.from.subtaskIndex}`,
      to: `${c.to.vertexId}#${c.to.subtaskIndex}`,
      local: c.local,
    })),
  };
}

/**
 * Everything of the topology but its channels: hosts, TaskManagers, vertices, edges, and each
 * subtask's slot, key-group range (when `subtask` says it is keyed) and status. The scale runtime
 * uses it alone: it models channels as flows and the page draws no channel of it.
 */
export function describePlacement(
  graph: ExecutionGraph,
  lostHosts: readonly string[],
  subtask: (s: ExecutionGraph['subtasks'][number], index: number) => { keyed: boolean; status: ExecutionState },
): Omit<Topology, 'channels'> {
  return {
    hosts: [...graph.cluster.hosts],
    lostHosts: [...lostHosts],
    taskManagers: graph.cluster.taskManagers.map((t) => ({ ...t })),
    vertices: graph.vertices.map((v) => ({
      id: v.id,
      name: v.name,
      type: v.operator.type,
      parallelism: v.parallelism,
      maxParallelism: graph.subtask({ vertexId: v.id, subtaskIndex: 0 }).maxParallelism,
    })),
    edges: graph.edges.map((e) => ({ from: e.from, to: e.to, partitioning: e.partitioning })),
    subtasks: graph.subtasks.map((s, i) => {
      const { keyed, status } = subtask(s, i);
      return {
        vertexId: s.id.vertexId,
        subtaskIndex: s.id.subtaskIndex,
        taskManager: s.slot.taskManager,
        host: s.slot.host,
        slot: s.slot.id,
        keyGroupRange: keyed ? { ...s.keyGroupRange } : null,
        status,
      };
    }),
  };
}

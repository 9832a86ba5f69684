import type { SubtaskId } from '../protocol.ts';
import type { ExecutionGraph } from '../job/execution-graph.ts';

/**
 * Which task sends and which receives on each channel of the execution graph, and how long the
 * network takes to carry a buffer or credit across it (nothing within one TaskManager).
 */
export class ChannelIndex {
  readonly receiver: readonly number[];
  readonly sender: readonly number[];
  readonly latencyMs: readonly number[];

  constructor(graph: ExecutionGraph, networkLatencyMs: number) {
    const index = new Map(graph.subtasks.map((s, i) => [`${s.id.vertexId}#${s.id.subtaskIndex}`, i]));
    const taskIndex = (id: SubtaskId) => index.get(`${id.vertexId}#${id.subtaskIndex}`)!;
    this.receiver = graph.channels.map((c) => taskIndex(c.to));
    this.sender = graph.channels.map((c) => taskIndex(c.from));
    this.latencyMs = graph.channels.map((c) => (c.local ? 0 : networkLatencyMs));
  }
}

import type { Scenario } from '../scenario/scenario-types.ts';
import type { SubtaskId } from '../protocol.ts';
import type { TaskDeployment } from '../task/task-deployment.ts';
import type { CheckpointingMode } from '../config/flink-config.ts';
import type { ExecutionGraph } from './execution-graph.ts';

/** Network sizing from the Flink configuration (taskmanager.network.*, segment size, timeouts). */
export interface NetworkSettings {
  buffersPerChannel: number;
  floatingBuffersPerGate: number;
  segmentSizeBytes: number;
  bufferTimeout: number;
  autoWatermarkInterval: number;
}

/**
 * Builds the deployment of every subtask. Every channel gets the same credit: its exclusive
 * buffers plus an even share of a gate's floating buffers, shared over the widest gate of the
 * job (Flink hands floating buffers out on demand; an even share keeps the model simple).
 */
export function buildTaskDeployments(
  graph: ExecutionGraph,
  scenario: Scenario,
  net: NetworkSettings & { incremental: boolean; snapshotCompression: boolean; checkpointingMode: CheckpointingMode; checkpointsAfterTasksFinish: boolean; checkpointInterval: number | undefined },
  attempt: number,
  executionGraphId?: string,
): TaskDeployment[] {
  const widestGate = Math.max(1, ...graph.vertices.map((v) => (v.operator.type === 'source' ? 1 : widestInput(graph, v.id))));
  const creditsPerChannel = net.buffersPerChannel + Math.max(1, Math.floor(net.floatingBuffersPerGate / widestGate));
  const recordSizeBytes = scenario.costs.record_size_bytes;
  const recordsPerBuffer = Math.max(1, Math.floor(net.segmentSizeBytes / recordSizeBytes));
  return graph.subtasks.map((s) => ({
    vertex: graph.vertex(s.id.vertexId),
    subtaskIndex: s.id.subtaskIndex,
    maxParallelism: s.maxParallelism,
    keyGroupRange: s.keyGroupRange,
    inputGates: inputGates(graph, s.id),
    outputs: scenario.job.edges.flatMap((edge, edgeIndex) => {
      if (edge.from !== s.id.vertexId) return [];
      const down = graph.vertex(edge.to);
      const channelIds = graph.channels
        .filter((c) => c.edgeIndex === edgeIndex && c.from.subtaskIndex === s.id.subtaskIndex)
        .sort((a, b) => a.to.subtaskIndex - b.to.subtaskIndex)
        .map((c) => c.id);
      const downMax = graph.maxParallelismOf(down.id);
      return [{ partitioning: edge.partitioning, channelIds, downstreamParallelism: down.parallelism, downstreamMaxParallelism: downMax }];
    }),
    recordsPerBuffer,
    recordSizeBytes,
    creditsPerChannel,
    bufferTimeout: net.bufferTimeout,
    autoWatermarkInterval: net.autoWatermarkInterval,
    seed: scenario.seed,
    attempt,
    ...(executionGraphId === undefined ? {} : { executionGraphId }),
    incrementalCheckpoints: net.incremental,
    snapshotCompression: net.snapshotCompression,
    checkpointingMode: net.checkpointingMode,
    checkpointsAfterTasksFinish: net.checkpointsAfterTasksFinish,
    checkpointingEnabled: net.checkpointInterval !== undefined,
  }));
}

function inputGates(graph: ExecutionGraph, id: SubtaskId): number[][] {
  const mine = graph.channels.filter((c) => c.to.vertexId === id.vertexId && c.to.subtaskIndex === id.subtaskIndex);
  const gates: number[][] = [];
  for (const c of mine.sort((a, b) => a.inputIndex - b.inputIndex || a.from.subtaskIndex - b.from.subtaskIndex)) {
    (gates[c.inputIndex] ??= []).push(c.id);
  }
  return gates;
}

function widestInput(graph: ExecutionGraph, vertexId: string): number {
  const perGate = new Map<number, number>();
  for (const c of graph.channels) {
    if (c.to.vertexId === vertexId && c.to.subtaskIndex === 0) perGate.set(c.inputIndex, (perGate.get(c.inputIndex) ?? 0) + 1);
  }
  return Math.max(1, ...perGate.values());
}

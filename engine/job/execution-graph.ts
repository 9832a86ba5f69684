import type { Scenario, VertexSpec } from '../scenario/scenario-types.ts';
import { computeDefaultMaxParallelism, computeKeyGroupRangeForOperatorIndex } from '../keys/key-group-assignment.ts';
import type { KeyGroupRange } from '../state/key-group-range.ts';
import type { SubtaskId } from '../protocol.ts';
import { ClusterTopology, type SlotInfo } from './cluster-topology.ts';

/** One channel between an upstream and a downstream subtask. */
export interface ChannelInfo {
  id: number;
  from: SubtaskId;
  to: SubtaskId;
  /** index of the edge in the job's edge list */
  edgeIndex: number;
  /** index of the edge among the target's input edges (0 = first/left input) */
  inputIndex: number;
  /** both ends in the same TaskManager (a local channel in Flink); changes when TaskManagers are replaced */
  local: boolean;
}

export interface ExecutionVertexInfo {
  id: SubtaskId;
  maxParallelism: number;
  keyGroupRange: KeyGroupRange;
  slot: SlotInfo;
}

/**
 * The job expanded into subtasks and channels (Flink's ExecutionGraph), placed into slots.
 * Placement follows Flink's default slot sharing: subtask i of every vertex shares slot i, so a
 * job needs as many slots as its highest parallelism.
 */
export class ExecutionGraph {
  readonly cluster: ClusterTopology;
  readonly vertices: VertexSpec[];
  readonly edges: Scenario['job']['edges'];
  readonly subtasks: ExecutionVertexInfo[] = [];
  /** built on first use: an all-to-all edge at parallelism 1,000 has a million channels, which only the record-level runtimes need */
  #channels: ChannelInfo[] | undefined;
  readonly #byKey = new Map<string, ExecutionVertexInfo>();
  readonly #upstream = new Map<string, SubtaskId[]>();

  /**
   * `keepMaxParallelism` carries each vertex's max parallelism over a rescale: Flink keeps the
   * max parallelism a job started with, since it fixes the key groups in every snapshot.
   */
  constructor(
    scenario: Scenario,
    maxParallelismOption: number,
    cluster: ClusterTopology = new ClusterTopology(scenario.cluster),
    keepMaxParallelism: Record<string, number> = {},
  ) {
    this.cluster = cluster;
    this.vertices = topologicalOrder(scenario);
    this.edges = scenario.job.edges;
    for (const v of this.vertices) {
      const maxParallelism =
        keepMaxParallelism[v.id] ?? (maxParallelismOption > 0 ? maxParallelismOption : computeDefaultMaxParallelism(v.parallelism));
      for (let i = 0; i < v.parallelism; i++) {
        this.subtasks.push({
          id: { vertexId: v.id, subtaskIndex: i },
          maxParallelism,
          keyGroupRange: computeKeyGroupRangeForOperatorIndex(maxParallelism, v.parallelism, i),
          slot: this.cluster.slots[i]!,
        });
      }
    }
    for (const s of this.subtasks) this.#byKey.set(`${s.id.vertexId}#${s.id.subtaskIndex}`, s);
  }

  /** Every channel between subtasks (Flink's input channels), in edge order. */
  get channels(): ChannelInfo[] {
    if (!this.#channels) {
      this.#channels = this.#connect();
      this.refreshPlacement();
    }
    return this.#channels;
  }

  /** Recomputes which channels are local (both ends in one TaskManager) after TaskManagers changed. */
  refreshPlacement(): void {
    for (const c of this.#channels ?? []) c.local = this.subtask(c.from).slot.taskManager === this.subtask(c.to).slot.taskManager;
  }

  /**
   * The subtasks whose channels feed `id`, in channel order, without building the channels: an
   * all-to-all edge feeds every subtask of a vertex from the same list, kept once per edge.
   */
  upstreamOf(id: SubtaskId): readonly SubtaskId[] {
    const inputs = this.edges.filter((e) => e.to === id.vertexId);
    if (inputs.length === 1 && inputs[0]!.partitioning !== 'forward') return this.#allOf(inputs[0]!.from);
    const found: SubtaskId[] = [];
    for (const edge of inputs) {
      if (edge.partitioning === 'forward') found.push({ vertexId: edge.from, subtaskIndex: id.subtaskIndex });
      else found.push(...this.#allOf(edge.from));
    }
    return found;
  }

  #allOf(vertexId: string): SubtaskId[] {
    let all = this.#upstream.get(vertexId);
    if (!all) this.#upstream.set(vertexId, (all = this.subtasks.filter((s) => s.id.vertexId === vertexId).map((s) => s.id)));
    return all;
  }

  maxParallelismOf(vertexId: string): number {
    return this.subtask({ vertexId, subtaskIndex: 0 }).maxParallelism;
  }

  vertex(id: string): VertexSpec {
    const v = this.vertices.find((x) => x.id === id);
    if (!v) throw new Error(`unknown vertex ${id}`);
    return v;
  }

  subtask(id: SubtaskId): ExecutionVertexInfo {
    const s = this.#byKey.get(`${id.vertexId}#${id.subtaskIndex}`);
    if (!s) throw new Error(`unknown subtask ${id.vertexId}#${id.subtaskIndex}`);
    return s;
  }

  #connect(): ChannelInfo[] {
    const channels: ChannelInfo[] = [];
    const inputsSeen = new Map<string, number>();
    for (const [edgeIndex, edge] of this.edges.entries()) {
      const up = this.vertex(edge.from);
      const down = this.vertex(edge.to);
      const inputIndex = inputsSeen.get(down.id) ?? 0;
      inputsSeen.set(down.id, inputIndex + 1);
      for (let u = 0; u < up.parallelism; u++) {
        const targets = edge.partitioning === 'forward' ? [u] : Array.from({ length: down.parallelism }, (_, d) => d);
        for (const d of targets) {
          const from = { vertexId: up.id, subtaskIndex: u };
          const to = { vertexId: down.id, subtaskIndex: d };
          channels.push({ id: channels.length, edgeIndex, from, to, inputIndex, local: false });
        }
      }
    }
    return channels;
  }
}

/** Vertices ordered so that every edge goes forward (Kahn's algorithm, ties in file order). */
function topologicalOrder(scenario: Scenario): VertexSpec[] {
  const indegree = new Map(scenario.job.vertices.map((v) => [v.id, 0]));
  for (const e of scenario.job.edges) indegree.set(e.to, (indegree.get(e.to) ?? 0) + 1);
  const order: VertexSpec[] = [];
  const ready = scenario.job.vertices.filter((v) => indegree.get(v.id) === 0);
  while (ready.length > 0) {
    const v = ready.shift()!;
    order.push(v);
    for (const e of scenario.job.edges) {
      if (e.from !== v.id) continue;
      const n = indegree.get(e.to)! - 1;
      indegree.set(e.to, n);
      if (n === 0) ready.push(scenario.job.vertices.find((x) => x.id === e.to)!);
    }
  }
  return order;
}

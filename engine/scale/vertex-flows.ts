/**
 * The steady flows of a job, per vertex, as the scale runtime models them: how many records per
 * second reach each vertex when the sources read at their rate, what its subtasks can process
 * (records/s at their `record_cost_us`), and so the job's largest throughput relative to its
 * input rate. Every operator is taken to emit one record per record it reads (a split-words map
 * or a window emits more or fewer in the record-level runtime; the scale model does not know the
 * data), so a flow through the job is the sources' rate, multiplied by a broadcast's fan-out.
 *
 * Subtasks of a vertex share its input evenly, unless a hash edge brings skewed keys (the shares
 * come from the key space: a hot key makes its subtask busier) and forward edges carry that skew
 * on. The busiest subtask limits its vertex: a skewed vertex is the bottleneck before its average
 * load says so.
 */
import type { Scenario, VertexSpec } from '../scenario/scenario-types.ts';
import { KEYED_VERTEX_TYPES } from '../scenario/scenario-vocabulary.ts';

export interface VertexFlow {
  vertex: VertexSpec;
  /** index of the vertex in the job's topological order */
  index: number;
  /** records per second arriving at the vertex (all subtasks) while the sources read at their rate */
  inputRatePerS: number;
  /** records per second one subtask processes when busy (1 / record cost, slowed down by a fault) */
  capacityPerSubtaskPerS: number;
  /** whether it keeps keyed state (the job's state is spread over these subtasks) */
  keyed: boolean;
  /** vertices feeding it */
  upstream: number[];
  /** network channels into one subtask (an all-to-all edge brings one per upstream subtask) */
  inputChannelsPerSubtask: number;
  /** per subtask: its fraction of the vertex's input (1 / parallelism each, unless keys are skewed) */
  subtaskShare: number[];
}

/** A keyed vertex's per-subtask shares of its records, where its keys are known; undefined: even. */
export type KeyShares = (vertex: VertexSpec) => number[] | undefined;

export interface JobFlows {
  vertices: VertexFlow[];
  /** records per second all sources make available (their `rate_per_s` × parallelism) */
  sourceRatePerS: number;
  /**
   * how much faster than its input the job can go: the smallest capacity over input rate of any
   * vertex. Above 1 it keeps up with `headroom − 1` spare capacity; below 1 it falls behind.
   */
  headroom: number;
  /** index of the vertex that limits the headroom (the bottleneck) */
  bottleneck: number;
}

/** The job's flows in topological order; `slowdown` is a vertex's slow-operator factor (1: none). */
export function jobFlows(scenario: Scenario, order: readonly VertexSpec[], slowdown: (vertexId: string) => number, keyShares: KeyShares = () => undefined): JobFlows {
  const indexOf = new Map(order.map((v, i) => [v.id, i]));
  const rates: number[] = order.map(() => 0);
  const shares: number[][] = order.map(() => []);
  const vertices = order.map((vertex, index): VertexFlow => {
    const inputs = scenario.job.edges.filter((e) => e.to === vertex.id);
    const upstream = inputs.map((e) => indexOf.get(e.from)!);
    rates[index] = vertex.operator.type === 'source' ? vertex.operator.source.rate_per_s * vertex.parallelism : inputRate(inputs, indexOf, rates, order, vertex);
    shares[index] = subtaskShare(vertex, inputs, upstream, shares, keyShares);
    return {
      vertex,
      index,
      inputRatePerS: rates[index]!,
      capacityPerSubtaskPerS: 1e6 / (vertex.record_cost_us * slowdown(vertex.id)),
      keyed: (KEYED_VERTEX_TYPES as readonly string[]).includes(vertex.operator.type),
      upstream,
      inputChannelsPerSubtask: inputs.reduce((n, e) => n + (e.partitioning === 'forward' ? 1 : order[indexOf.get(e.from)!]!.parallelism), 0),
      subtaskShare: shares[index]!,
    };
  });
  const sourceRatePerS = vertices.filter((f) => f.vertex.operator.type === 'source').reduce((n, f) => n + f.inputRatePerS, 0);
  let headroom = Infinity;
  let bottleneck = 0;
  for (const f of vertices) {
    const h = f.inputRatePerS === 0 ? Infinity : f.capacityPerSubtaskPerS / (busiestShare(f) * f.inputRatePerS);
    if (h < headroom) [headroom, bottleneck] = [h, f.index];
  }
  return { vertices, sourceRatePerS, headroom, bottleneck };
}

/** The busiest subtask's fraction of its vertex's input. */
export function busiestShare(f: VertexFlow): number {
  return Math.max(...f.subtaskShare);
}

/** A hash edge's keys decide the shares; a single forward edge keeps its upstream's; anything else spreads evenly. */
function subtaskShare(vertex: VertexSpec, inputs: Scenario['job']['edges'], upstream: number[], shares: number[][], keyShares: KeyShares): number[] {
  const even = () => new Array<number>(vertex.parallelism).fill(1 / vertex.parallelism);
  if (inputs.length !== 1) return even();
  if (inputs[0]!.partitioning === 'hash') return keyShares(vertex) ?? even();
  const from = shares[upstream[0]!]!;
  return inputs[0]!.partitioning === 'forward' && from.length === vertex.parallelism ? from : even();
}

function inputRate(inputs: Scenario['job']['edges'], indexOf: Map<string, number>, rates: number[], order: readonly VertexSpec[], vertex: VertexSpec): number {
  // A broadcast edge gives every downstream subtask every record.
  return inputs.reduce((n, e) => n + rates[indexOf.get(e.from)!]! * (e.partitioning === 'broadcast' ? vertex.parallelism : 1), 0);
}

/** Vertices at or upstream of `bottleneck`: the ones whose input queues fill when the job runs at its limit. */
export function backpressuredVertices(flows: JobFlows): Set<number> {
  const marked = new Set<number>([flows.bottleneck]);
  for (let i = flows.bottleneck; i >= 0; i--) if (marked.has(i)) for (const u of flows.vertices[i]!.upstream) marked.add(u);
  return marked;
}

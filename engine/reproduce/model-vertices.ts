/**
 * The model's job graph. Flink's checkpoint details list the job's vertices (by id, with their
 * subtask counts) but not what they do nor how they connect, so the model is a chain in the
 * details' order: the first vertex a source, the last a sink, the ones between keyed (they hold
 * the state). Without details: source → keyed → sink, the job's subtasks spread over the three.
 */
import type { DoctorDocuments } from '../doctor/doctor-documents.ts';

export interface ModelVertex {
  id: string;
  name: string;
  kind: 'source' | 'keyed' | 'sink';
  parallelism: number;
  /** the Flink vertex id it stands for, when the details named one */
  flinkVertexId: string | null;
}

export interface ModelShape {
  vertices: ModelVertex[];
  edges: { from: string; to: string; partitioning: 'hash' | 'forward' | 'rebalance' }[];
  /** the largest model parallelism */
  widest: number;
  /** real parallelism of the widest vertex per model parallelism (1 when it fits) */
  parallelismScale: number;
}

export function modelVertices(documents: DoctorDocuments, jobSubtasks: number, maxParallelism: number): ModelShape {
  const real = vertexParallelisms(documents) ?? defaultChain(jobSubtasks);
  const widestReal = Math.max(...real.map((v) => v.parallelism));
  const parallelismScale = Math.max(1, widestReal / maxParallelism);
  const vertices = real.map((v, i): ModelVertex => {
    const kind = i === 0 ? 'source' : i === real.length - 1 ? 'sink' : 'keyed';
    const parallelism = Math.max(1, Math.round(v.parallelism / parallelismScale));
    const shortId = v.flinkVertexId === null ? '' : ` (${v.flinkVertexId.slice(0, 8)})`;
    return { id: `${kind}-${i + 1}`, name: `${kind === 'source' ? 'Source' : kind === 'sink' ? 'Sink' : 'Keyed'} ${i + 1}${shortId}`, kind, parallelism, flinkVertexId: v.flinkVertexId };
  });
  const edges = vertices.slice(1).map((to, i) => {
    const from = vertices[i]!;
    const partitioning = to.kind === 'keyed' ? ('hash' as const) : from.parallelism === to.parallelism ? ('forward' as const) : ('rebalance' as const);
    return { from: from.id, to: to.id, partitioning };
  });
  return { vertices, edges, widest: Math.max(...vertices.map((v) => v.parallelism)), parallelismScale };
}

type RealVertex = { parallelism: number; flinkVertexId: string | null };

/** The vertices of the newest checkpoint with details (at least source, keyed, sink: fewer get a keyed vertex added). */
function vertexParallelisms(documents: DoctorDocuments): RealVertex[] | undefined {
  const details = Object.values(documents.checkpointDetails ?? {}).sort((a, b) => b.id - a.id);
  const tasks = details.find((d) => Object.keys(d.tasks).length > 0)?.tasks;
  if (tasks !== undefined) return atLeastThree(Object.entries(tasks).map(([id, t]) => ({ parallelism: Math.max(1, t.num_subtasks), flinkVertexId: id })));
  const fromSubtasks = new Map<string, number>();
  for (const d of documents.checkpointSubtaskDetails ?? []) if (d.vertexId !== null) fromSubtasks.set(d.vertexId, d.statistics.num_subtasks);
  if (fromSubtasks.size === 0) return undefined;
  return atLeastThree([...fromSubtasks].map(([id, n]) => ({ parallelism: Math.max(1, n), flinkVertexId: id })));
}

/** A job of one or two (chained) vertices still needs a keyed vertex for its state and a sink. */
function atLeastThree(vertices: RealVertex[]): RealVertex[] {
  if (vertices.length >= 3) return vertices;
  const p = vertices[0]!.parallelism;
  if (vertices.length === 1) return [vertices[0]!, { parallelism: p, flinkVertexId: null }, { parallelism: p, flinkVertexId: null }];
  return [vertices[0]!, { parallelism: vertices[1]!.parallelism, flinkVertexId: null }, vertices[1]!];
}

/** Source → keyed → sink at the job's parallelism: the job's subtasks spread over three vertices. */
function defaultChain(jobSubtasks: number): RealVertex[] {
  const p = Math.max(1, Math.round(jobSubtasks / 3));
  return [0, 1, 2].map(() => ({ parallelism: p, flinkVertexId: null }));
}

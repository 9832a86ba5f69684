/**
 * The shape rules of a job graph, as Flink's DataStream API enforces them by construction: at
 * least one source and one sink; sources have no inputs and sinks no outputs; every other
 * operator has inputs (exactly one, or two for a window-join) and leads somewhere; no cycles.
 */

import type { EdgeEntry } from './edge-reader.ts';
import type { Issues } from './field-reader.ts';
import { fieldPath } from './scenario-error.ts';
import type { VertexEntry } from './vertex-reader.ts';
import { message } from '../messages/engine-message.ts';

export function checkJobGraph(issues: Issues, jobPath: string, vertices: VertexEntry[], edges: EdgeEntry[]): void {
  const linked = edges.filter((e) => e.from !== undefined && e.to !== undefined);
  checkHasSourceAndSink(issues, jobPath, vertices);
  checkEdgeEnds(issues, linked);
  // with an edge whose end is unknown (already reported) input counts would only mislead
  if (linked.length === edges.length) {
    for (const vertex of vertices) checkInputsAndOutputs(issues, vertex, linked);
  }
  checkAcyclic(issues, linked);
}

function checkHasSourceAndSink(issues: Issues, jobPath: string, vertices: VertexEntry[]): void {
  if (vertices.some((v) => v.type === undefined)) return; // unknown types are reported already
  const path = fieldPath(jobPath, 'vertices');
  if (!vertices.some((v) => v.type === 'source')) {
    issues.error(path, message('graph.no-source'), { allowed: message('phrase', { text: 'at least one vertex of type source' }) });
  }
  if (!vertices.some((v) => v.type === 'sink')) {
    issues.error(path, message('graph.no-sink'), {
      allowed: message('phrase', { text: 'at least one vertex of type sink' }),
    });
  }
}

function checkEdgeEnds(issues: Issues, edges: EdgeEntry[]): void {
  for (const edge of edges) {
    if (edge.to?.type === 'source') {
      issues.error(fieldPath(edge.path, 'to'), message('graph.source-input', { id: String(edge.to.id) }));
    }
    if (edge.from?.type === 'sink') {
      issues.error(fieldPath(edge.path, 'from'), message('graph.sink-output', { id: String(edge.from.id) }));
    }
  }
}

function checkInputsAndOutputs(issues: Issues, vertex: VertexEntry, edges: EdgeEntry[]): void {
  if (vertex.type === undefined || vertex.id === undefined) return;
  const inputs = edges.filter((e) => e.to === vertex);
  const outputs = edges.filter((e) => e.from === vertex);
  if (vertex.type !== 'source') checkInputCount(issues, vertex, inputs);
  if (vertex.type !== 'sink' && outputs.length === 0) {
    issues.error(vertex.path, message('graph.no-output', { id: vertex.id }), {
      allowed: message('allowed.edge-towards-sink', { id: vertex.id }),
    });
  }
}

function checkInputCount(issues: Issues, vertex: VertexEntry, inputs: EdgeEntry[]): void {
  const wanted = vertex.type === 'window-join' ? 2 : 1;
  if (inputs.length === wanted) return;
  const from = inputs.map((e) => String(e.from?.id));
  const where = { type: String(vertex.type), id: String(vertex.id) };
  const problem = inputs.length === 0 ? message('graph.no-input', where) : message('graph.inputs', { ...where, count: inputs.length, from });
  issues.error(vertex.path, problem, { allowed: message('allowed.inputs', { count: wanted }) });
}

/** Kahn's algorithm; whatever cannot be ordered lies on or behind a cycle, which we then trace. */
function checkAcyclic(issues: Issues, edges: EdgeEntry[]): void {
  const remaining = new Set(edges);
  let progress = true;
  while (progress) {
    progress = false;
    for (const edge of remaining) {
      if (![...remaining].some((e) => e.to === edge.from)) {
        remaining.delete(edge);
        progress = true;
      }
    }
  }
  if (remaining.size === 0) return;
  const traced = traceCycle([...remaining]);
  // start the cycle at the edge written first, so the report points where a reader would look
  const start = traced.reduce((best, e, i) => (edges.indexOf(e) < edges.indexOf(traced[best]!) ? i : best), 0);
  const cycle = [...traced.slice(start), ...traced.slice(0, start)];
  const first = cycle[0] as EdgeEntry;
  const ids = [...cycle.map((e) => e.from?.id), first.from?.id].map(String);
  issues.error(first.path, message('graph.cycle', { ids }), { allowed: message('phrase', { text: 'a job graph without cycles (a DAG)' }) });
}

/** Every edge left after Kahn's algorithm has a predecessor left too, so walking back must loop. */
function traceCycle(edges: EdgeEntry[]): EdgeEntry[] {
  const walk: EdgeEntry[] = [edges[0] as EdgeEntry];
  for (;;) {
    const current = walk[walk.length - 1] as EdgeEntry;
    const previous = edges.find((e) => e.to === current.from) as EdgeEntry;
    const seenAt = walk.indexOf(previous);
    if (seenAt >= 0) return walk.slice(seenAt).reverse();
    walk.push(previous);
  }
}

/**
 * The shape rules of a job graph, as Flink's DataStream API enforces them by construction: at
 * least one source and one sink; sources have no inputs and sinks no outputs; every other
 * operator has inputs (exactly one, or two for a window-join) and leads somewhere; no cycles.
 */

import type { EdgeEntry } from './edge-reader.ts';
import type { Issues } from './field-reader.ts';
import { fieldPath } from './scenario-error.ts';
import type { VertexEntry } from './vertex-reader.ts';

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
    issues.error(path, 'the job has no source', { allowed: 'at least one vertex of type source' });
  }
  if (!vertices.some((v) => v.type === 'sink')) {
    issues.error(path, 'the job has no sink; Flink only runs operators that lead to a sink', {
      allowed: 'at least one vertex of type sink',
    });
  }
}

function checkEdgeEnds(issues: Issues, edges: EdgeEntry[]): void {
  for (const edge of edges) {
    if (edge.to?.type === 'source') {
      issues.error(fieldPath(edge.path, 'to'), `"${edge.to.id}" is a source, and a source cannot have inputs`);
    }
    if (edge.from?.type === 'sink') {
      issues.error(fieldPath(edge.path, 'from'), `"${edge.from.id}" is a sink, and a sink cannot have outputs`);
    }
  }
}

function checkInputsAndOutputs(issues: Issues, vertex: VertexEntry, edges: EdgeEntry[]): void {
  if (vertex.type === undefined || vertex.id === undefined) return;
  const inputs = edges.filter((e) => e.to === vertex);
  const outputs = edges.filter((e) => e.from === vertex);
  if (vertex.type !== 'source') checkInputCount(issues, vertex, inputs);
  if (vertex.type !== 'sink' && outputs.length === 0) {
    issues.error(vertex.path, `"${vertex.id}" has no output; Flink drops operators that do not lead to a sink`, {
      allowed: `an edge from "${vertex.id}" towards a sink`,
    });
  }
}

function checkInputCount(issues: Issues, vertex: VertexEntry, inputs: EdgeEntry[]): void {
  const wanted = vertex.type === 'window-join' ? 2 : 1;
  if (inputs.length === wanted) return;
  const names = inputs.map((e) => `"${e.from?.id}"`).join(', ');
  const has = inputs.length === 0 ? 'has no input' : `has ${inputs.length} inputs (from ${names})`;
  const needs = wanted === 2 ? 'exactly 2 inputs (left, then right, in edge order)' : 'exactly 1 input';
  issues.error(vertex.path, `the ${vertex.type} vertex "${vertex.id}" ${has}`, { allowed: needs });
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
  const ids = [...cycle.map((e) => e.from?.id), first.from?.id].join(' → ');
  issues.error(first.path, `the edges form a cycle: ${ids}`, { allowed: 'a job graph without cycles (a DAG)' });
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

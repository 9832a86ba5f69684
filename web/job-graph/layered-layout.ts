/**
 * A small left-to-right layered layout for the job graph: each vertex sits in the column of its
 * longest distance from a source, columns are centred vertically, and edges are cubic curves from
 * the right side of one box to the left side of the next.
 *
 * Pure geometry, no DOM, so it can be tested in Node and later swapped for a graph-layout
 * library behind the same `layoutJobGraph` signature.
 */

export interface LayoutVertexInput {
  id: string;
  parallelism: number;
}

export interface LayoutEdgeInput {
  from: string;
  to: string;
}

export interface VertexBox {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** column index, 0 = sources */
  layer: number;
  /** one small square per subtask, relative to the page (not to the box) */
  subtasks: { index: number; x: number; y: number; size: number }[];
}

export interface EdgeRoute {
  /** position of the edge in the input array */
  index: number;
  from: string;
  to: string;
  /** SVG path data */
  path: string;
  /** where the partitioning label goes */
  labelX: number;
  labelY: number;
}

export interface JobGraphLayout {
  width: number;
  height: number;
  vertices: VertexBox[];
  edges: EdgeRoute[];
}

export const LAYOUT = {
  margin: 16,
  boxWidth: 176,
  columnGap: 112,
  rowGap: 28,
  /** space for the name, operator type and parallelism lines above the subtask squares */
  headerHeight: 62,
  subtaskSize: 14,
  subtaskGap: 5,
  subtasksPerRow: 8,
  boxPadding: 12,
} as const;

/** Longest-path depth from any source. Edges closing a cycle (invalid for a job graph) are ignored. */
export function layerOf(vertices: readonly LayoutVertexInput[], edges: readonly LayoutEdgeInput[]): Map<string, number> {
  const ids = new Set(vertices.map((v) => v.id));
  const incoming = new Map<string, string[]>(vertices.map((v) => [v.id, []]));
  for (const edge of edges) {
    if (ids.has(edge.from) && ids.has(edge.to)) incoming.get(edge.to)?.push(edge.from);
  }
  const layers = new Map<string, number>();
  const visiting = new Set<string>();
  const depth = (id: string): number => {
    const known = layers.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    let result = 0;
    for (const from of incoming.get(id) ?? []) result = Math.max(result, depth(from) + 1);
    visiting.delete(id);
    layers.set(id, result);
    return result;
  };
  for (const vertex of vertices) depth(vertex.id);
  return layers;
}

function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function boxHeight(parallelism: number): number {
  const rows = Math.max(1, Math.ceil(parallelism / LAYOUT.subtasksPerRow));
  return LAYOUT.headerHeight + rows * LAYOUT.subtaskSize + (rows - 1) * LAYOUT.subtaskGap + LAYOUT.boxPadding;
}

export function layoutJobGraph(
  vertices: readonly LayoutVertexInput[],
  edges: readonly LayoutEdgeInput[],
): JobGraphLayout {
  const layers = layerOf(vertices, edges);
  const columns: LayoutVertexInput[][] = [];
  for (const vertex of vertices) {
    const layer = layers.get(vertex.id) ?? 0;
    (columns[layer] ??= []).push(vertex);
  }

  const columnHeight = (column: readonly LayoutVertexInput[]) =>
    column.reduce((sum, v) => sum + boxHeight(v.parallelism), 0) + Math.max(0, column.length - 1) * LAYOUT.rowGap;
  const contentHeight = Math.max(0, ...columns.map((column) => columnHeight(column ?? [])));

  const boxes = new Map<string, VertexBox>();
  columns.forEach((column = [], layer) => {
    const x = LAYOUT.margin + layer * (LAYOUT.boxWidth + LAYOUT.columnGap);
    let y = LAYOUT.margin + (contentHeight - columnHeight(column)) / 2;
    for (const vertex of column) {
      const height = boxHeight(vertex.parallelism);
      const subtasks = Array.from({ length: vertex.parallelism }, (_, index) => ({
        index,
        x: x + LAYOUT.boxPadding + (index % LAYOUT.subtasksPerRow) * (LAYOUT.subtaskSize + LAYOUT.subtaskGap),
        y: y + LAYOUT.headerHeight + Math.floor(index / LAYOUT.subtasksPerRow) * (LAYOUT.subtaskSize + LAYOUT.subtaskGap),
        size: LAYOUT.subtaskSize,
      }));
      boxes.set(vertex.id, { id: vertex.id, x, y, width: LAYOUT.boxWidth, height, layer, subtasks });
      y += height + LAYOUT.rowGap;
    }
  });

  // Several edges into one box (a join's two inputs) end at evenly spaced points on its left side.
  const inputsOf = new Map<string, LayoutEdgeInput[]>();
  const outputsOf = new Map<string, LayoutEdgeInput[]>();
  for (const edge of edges) {
    if (!boxes.has(edge.from) || !boxes.has(edge.to)) continue;
    appendTo(inputsOf, edge.to, edge);
    appendTo(outputsOf, edge.from, edge);
  }
  const port = (box: VertexBox, index: number, count: number) => box.y + (box.height * (index + 1)) / (count + 1);

  const routes: EdgeRoute[] = [];
  for (const [index, edge] of edges.entries()) {
    const source = boxes.get(edge.from);
    const target = boxes.get(edge.to);
    if (!source || !target) continue;
    const outs = outputsOf.get(edge.from) ?? [];
    const ins = inputsOf.get(edge.to) ?? [];
    const x1 = source.x + source.width;
    const y1 = port(source, outs.indexOf(edge), outs.length);
    const x2 = target.x;
    const y2 = port(target, ins.indexOf(edge), ins.length);
    const bend = Math.max(24, (x2 - x1) / 2);
    routes.push({
      index,
      from: edge.from,
      to: edge.to,
      path: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`,
      labelX: (x1 + x2) / 2,
      labelY: (y1 + y2) / 2,
    });
  }

  const layerCount = Math.max(1, columns.length);
  return {
    width: 2 * LAYOUT.margin + layerCount * LAYOUT.boxWidth + (layerCount - 1) * LAYOUT.columnGap,
    height: 2 * LAYOUT.margin + contentHeight,
    vertices: [...boxes.values()],
    edges: routes,
  };
}

/**
 * The job graph's layout as ELK's input and output, without ELK itself: the page lays a graph out
 * with ELK in a worker (elk-layout.ts), the build lays out the bundled scenarios' graphs with ELK
 * in Node (node/pre-laid-out-graphs.ts), and both go through these functions, so a layout the
 * build made is the one the page would have asked ELK for: same input, same key.
 */
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { BOX_WIDTH, boxHeight, LAYER_GAP, layerGapWithChannels } from './graph-geometry.ts';

export interface LayoutVertexInput {
  id: string;
  width: number;
  height: number;
}

export interface LayoutEdgeInput {
  from: string;
  to: string;
  /** text of the edge's label, e.g. HASH */
  label: string;
}

export interface VertexBox {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface EdgeRoute {
  /** position of the edge in the input array */
  index: number;
  from: string;
  to: string;
  /** SVG path data */
  path: string;
  label: { x: number; y: number; width: number; height: number } | null;
}

export interface JobGraphLayout {
  width: number;
  height: number;
  vertices: VertexBox[];
  edges: EdgeRoute[];
}

export const EDGE_LABEL_HEIGHT = 18;

/** Rough width of a label pill: 10px bold capitals with letter spacing run about 7.5px each. */
export function edgeLabelWidth(text: string): number {
  return text.length * 7.5 + 14;
}

const LAYOUT_OPTIONS = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.padding': '[top=12,left=12,bottom=12,right=12]',
  'elk.spacing.nodeNode': '24',
  'elk.layered.spacing.nodeNodeBetweenLayers': '40',
  'elk.spacing.edgeLabel': '4',
  'elk.edgeLabels.placement': 'CENTER',
  // On the edge rather than beside it: the label does not widen the gap between layers.
  'elk.edgeLabels.inline': 'true',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.edgeLabels.sideSelection': 'ALWAYS_UP',
} as const;

/** What decides a job graph's geometry: each vertex with its parallelism, each edge with its partitioning (a rescale changes it, metrics do not). */
export interface JobGraphShape {
  v: [id: string, parallelism: number][];
  e: [from: string, to: string, partitioning: string][];
}

export type LayoutDirection = 'RIGHT' | 'DOWN';

/** The shape of a job's graph: from a run's topology (the page) or its execution graph (the build), which both list these. */
export function jobGraphShapeOf(graph: {
  vertices: readonly { id: string; parallelism: number }[];
  edges: readonly { from: string; to: string; partitioning: string }[];
}): JobGraphShape {
  return { v: graph.vertices.map((v) => [v.id, v.parallelism]), e: graph.edges.map((e) => [e.from, e.to, e.partitioning]) };
}

/** ELK's input for a job graph of `shape`: boxes sized to their subtask rows, labelled edges, wider gaps between layers when channel lanes are drawn. */
export function elkGraphOf(shape: JobGraphShape, direction: LayoutDirection, channelsShown: boolean): ElkNode {
  const layerGap = channelsShown ? layerGapWithChannels(Math.max(1, ...shape.v.map(([, p]) => p))) : LAYER_GAP;
  const vertices: LayoutVertexInput[] = shape.v.map(([id, parallelism]) => ({ id, width: BOX_WIDTH, height: boxHeight(parallelism) }));
  const edges = edgeInputs(shape);
  const ids = new Set(vertices.map((v) => v.id));
  const elkEdges: ElkExtendedEdge[] = edges.flatMap((edge, index) =>
    ids.has(edge.from) && ids.has(edge.to)
      ? [
          {
            id: `e${index}`,
            sources: [edge.from],
            targets: [edge.to],
            labels: edge.label ? [{ id: `e${index}-label`, text: edge.label, width: edgeLabelWidth(edge.label), height: EDGE_LABEL_HEIGHT }] : [],
          },
        ]
      : [],
  );
  return {
    id: 'job',
    layoutOptions: { ...LAYOUT_OPTIONS, 'elk.direction': direction, 'elk.layered.spacing.nodeNodeBetweenLayers': String(layerGap) },
    children: vertices.map((v) => ({ id: v.id, width: v.width, height: v.height })),
    edges: elkEdges,
  };
}

/** The edges of `shape` as the layout labels them: the partitioner in capitals (HASH, FORWARD, …), as Flink's dashboard shows it. */
function edgeInputs(shape: JobGraphShape): LayoutEdgeInput[] {
  return shape.e.map(([from, to, partitioning]) => ({ from, to, label: partitioning.toUpperCase() }));
}

/** The graph ELK laid out, as the job graph draws it: boxes, and each edge's rounded path and label. */
export function jobGraphLayoutOf(laidOut: ElkNode, shape: JobGraphShape): JobGraphLayout {
  const edges = edgeInputs(shape);
  return {
    width: Math.ceil(laidOut.width ?? 0),
    height: Math.ceil(laidOut.height ?? 0),
    vertices: (laidOut.children ?? []).map((node) => ({
      id: node.id,
      x: node.x ?? 0,
      y: node.y ?? 0,
      width: node.width ?? 0,
      height: node.height ?? 0,
    })),
    edges: (laidOut.edges ?? []).map((edge) => routeOf(edge as ElkExtendedEdge, edges)),
  };
}

function routeOf(edge: ElkExtendedEdge, inputs: readonly LayoutEdgeInput[]): EdgeRoute {
  const index = Number(edge.id.slice(1));
  const input = inputs[index]!;
  const path = (edge.sections ?? [])
    .map((section) => roundedPath([section.startPoint, ...(section.bendPoints ?? []), section.endPoint]))
    .join(' ');
  const label = edge.labels?.[0];
  return {
    index,
    from: input.from,
    to: input.to,
    path,
    label: label ? { x: label.x ?? 0, y: label.y ?? 0, width: label.width ?? 0, height: label.height ?? 0 } : null,
  };
}

/** An orthogonal polyline with its corners rounded off, so edges read as flowing lines. */
function roundedPath(points: readonly { x: number; y: number }[], radius = 8): string {
  const [first, ...rest] = points;
  if (!first) return '';
  let d = `M ${first.x} ${first.y}`;
  for (let i = 0; i < rest.length; i++) {
    const corner = rest[i]!;
    const next = rest[i + 1];
    if (!next) {
      d += ` L ${corner.x} ${corner.y}`;
      break;
    }
    const previous = i === 0 ? first : rest[i - 1]!;
    const r = Math.min(radius, distance(previous, corner) / 2, distance(corner, next) / 2);
    const a = towards(corner, previous, r);
    const b = towards(corner, next, r);
    d += ` L ${a.x} ${a.y} Q ${corner.x} ${corner.y} ${b.x} ${b.y}`;
  }
  return d;
}

function distance(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

function towards(from: { x: number; y: number }, to: { x: number; y: number }, length: number): { x: number; y: number } {
  const d = distance(from, to) || 1;
  return { x: from.x + ((to.x - from.x) / d) * length, y: from.y + ((to.y - from.y) / d) * length };
}

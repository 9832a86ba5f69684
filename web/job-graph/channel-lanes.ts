/**
 * The geometry of the channel lanes: one lane per channel of the execution graph, from the
 * sending subtask's row on the upstream box to the receiving subtask's row on the downstream box.
 * A lane is a polyline of four points (a straight lead out of the sender, the crossing, a straight
 * lead into the receiver), so the queued buffers near either end line up with their row.
 *
 * Everything is precomputed into typed arrays when the layout or the channels change; a frame
 * only looks numbers up, so drawing allocates nothing.
 */
import type { ChannelInfo } from '../../engine/job/execution-graph.ts';
import type { JobGraphLayout, VertexBox } from './elk-graph.ts';
import { PAD, ROW, rowCentre } from './graph-geometry.ts';

export interface VertexShape {
  id: string;
  parallelism: number;
}

export interface EdgeShape {
  from: string;
  to: string;
  partitioning: string;
}

/** Lane geometry in the layout's coordinates; index = channel id. */
export interface ChannelLanes {
  count: number;
  direction: 'RIGHT' | 'DOWN';
  /** per lane: x0 y0 x1 y1 x2 y2 x3 y3 */
  points: Float32Array;
  /** per lane: cumulative length at points 1, 2 and 3 (the last is the lane's length) */
  lengths: Float32Array;
  /** per lane: distance between two queued buffers, and a buffer's size */
  pitch: Float32Array;
  cell: Float32Array;
  /** per lane: 1 when it was laid out (both ends are in the layout) */
  drawn: Uint8Array;
}

const LEAD_MAX = 46;
const ROW_SPREAD = ROW - 6;

export function buildChannelLanes(
  layout: JobGraphLayout,
  direction: 'RIGHT' | 'DOWN',
  vertices: readonly VertexShape[],
  edges: readonly EdgeShape[],
  channels: readonly ChannelInfo[],
): ChannelLanes {
  const count = channels.length;
  const lanes: ChannelLanes = {
    count,
    direction,
    points: new Float32Array(count * 8),
    lengths: new Float32Array(count * 3),
    pitch: new Float32Array(count),
    cell: new Float32Array(count),
    drawn: new Uint8Array(count),
  };
  const boxes = new Map(layout.vertices.map((box) => [box.id, box]));
  const parallelism = new Map(vertices.map((v) => [v.id, v.parallelism]));
  const gates = new Map<string, number>();
  for (const edge of edges) gates.set(edge.to, (gates.get(edge.to) ?? 0) + 1);

  for (const channel of channels) {
    const edge = edges[channel.edgeIndex];
    const fromBox = boxes.get(channel.from.vertexId);
    const toBox = boxes.get(channel.to.vertexId);
    if (!edge || !fromBox || !toBox) continue;
    const forward = edge.partitioning === 'forward';
    const fanOut = forward ? 1 : (parallelism.get(channel.to.vertexId) ?? 1);
    const fanIn = forward ? 1 : (parallelism.get(channel.from.vertexId) ?? 1);
    const outSlot = forward ? 0 : channel.to.subtaskIndex;
    const inSlot = forward ? 0 : channel.from.subtaskIndex;
    const gateCount = gates.get(channel.to.vertexId) ?? 1;
    const a = anchor(fromBox, channel.from.subtaskIndex, parallelism.get(channel.from.vertexId) ?? 1, direction, 'out', spread(outSlot, fanOut, 1, 0));
    const b = anchor(toBox, channel.to.subtaskIndex, parallelism.get(channel.to.vertexId) ?? 1, direction, 'in', spread(inSlot, fanIn, gateCount, channel.inputIndex));
    setLane(lanes, channel.id, a, b, direction, Math.max(fanIn, fanOut));
  }
  return lanes;
}

/** Offset across the row (−½ … ½ of the spread) of one lane among `n` on the same row and gate. */
function spread(slot: number, n: number, gateCount: number, gate: number): number {
  const band = ROW_SPREAD / gateCount;
  const gateCentre = -ROW_SPREAD / 2 + band * (gate + 0.5);
  if (n <= 1) return gateCount > 1 ? gateCentre : 0;
  return gateCentre + ((slot + 0.5) / n - 0.5) * band;
}

function anchor(box: VertexBox, index: number, parallelism: number, direction: 'RIGHT' | 'DOWN', side: 'in' | 'out', offset: number): { x: number; y: number } {
  if (direction === 'RIGHT') return { x: side === 'out' ? box.x + box.width : box.x, y: rowCentre(box, index) + offset };
  // Top-down: the lanes leave the bottom of the box and enter the top, spread by subtask.
  const span = box.width - 2 * PAD;
  const x = box.x + PAD + ((index + 0.5) / parallelism) * span + (offset * span) / (parallelism * ROW);
  return { x, y: side === 'out' ? box.y + box.height : box.y };
}

function setLane(lanes: ChannelLanes, id: number, a: { x: number; y: number }, b: { x: number; y: number }, direction: 'RIGHT' | 'DOWN', density: number): void {
  const gap = direction === 'RIGHT' ? b.x - a.x : b.y - a.y;
  const lead = Math.max(4, Math.min(LEAD_MAX, gap * 0.32));
  const [dx, dy] = direction === 'RIGHT' ? [lead, 0] : [0, lead];
  const p = lanes.points;
  const o = id * 8;
  p[o] = a.x;
  p[o + 1] = a.y;
  p[o + 2] = a.x + dx;
  p[o + 3] = a.y + dy;
  p[o + 4] = b.x - dx;
  p[o + 5] = b.y - dy;
  p[o + 6] = b.x;
  p[o + 7] = b.y;
  const l1 = lead;
  const l2 = l1 + Math.hypot(p[o + 4]! - p[o + 2]!, p[o + 5]! - p[o + 3]!);
  lanes.lengths[id * 3] = l1;
  lanes.lengths[id * 3 + 1] = l2;
  lanes.lengths[id * 3 + 2] = l2 + lead;
  // Many lanes on one row sit close together: smaller buffers there.
  const cell = density >= 12 ? 3 : density >= 6 ? 4 : 6;
  lanes.cell[id] = cell;
  lanes.pitch[id] = cell + (cell >= 6 ? 2 : 1.5);
  lanes.drawn[id] = 1;
}

/**
 * Writes the point at distance `s` along lane `id` into out[0], out[1], and the lane's direction
 * there (a unit vector) into out[2], out[3].
 */
export function pointOnLane(lanes: ChannelLanes, id: number, s: number, out: Float32Array): void {
  const p = lanes.points;
  const l = lanes.lengths;
  const o = id * 8;
  const total = l[id * 3 + 2]!;
  const d = s < 0 ? 0 : s > total ? total : s;
  let segment = 0;
  let start = 0;
  if (d > l[id * 3]!) {
    segment = d > l[id * 3 + 1]! ? 2 : 1;
    start = l[id * 3 + segment - 1]!;
  }
  const x0 = p[o + segment * 2]!;
  const y0 = p[o + segment * 2 + 1]!;
  const x1 = p[o + segment * 2 + 2]!;
  const y1 = p[o + segment * 2 + 3]!;
  const length = Math.hypot(x1 - x0, y1 - y0) || 1;
  const t = (d - start) / length;
  out[0] = x0 + (x1 - x0) * t;
  out[1] = y0 + (y1 - y0) * t;
  out[2] = (x1 - x0) / length;
  out[3] = (y1 - y0) / length;
}

/** Distance from (x, y) to lane `id` (for clicks on a lane). */
export function distanceToLane(lanes: ChannelLanes, id: number, x: number, y: number): number {
  const p = lanes.points;
  const o = id * 8;
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const x0 = p[o + k * 2]!;
    const y0 = p[o + k * 2 + 1]!;
    const x1 = p[o + k * 2 + 2]!;
    const y1 = p[o + k * 2 + 3]!;
    const vx = x1 - x0;
    const vy = y1 - y0;
    const lengthSq = vx * vx + vy * vy || 1;
    const t = Math.max(0, Math.min(1, ((x - x0) * vx + (y - y0) * vy) / lengthSq));
    best = Math.min(best, Math.hypot(x - (x0 + vx * t), y - (y0 + vy * t)));
  }
  return best;
}

/**
 * Where things sit inside a vertex box of the job graph: the box's header, the column header,
 * and one row per subtask. The SVG (JobGraph.svelte) and the channel layer (channel-lanes.ts)
 * both draw from these numbers, so a channel lane ends exactly at its subtask's row.
 */
import type { VertexBox } from './elk-graph.ts';

export const BOX_WIDTH = 262;
export const HEADER = 44;
export const COLUMN_HEADER = 16;
export const ROW = 22;
export const PAD = 10;

/** Space ELK keeps on either side of an edge label between layers: the channel lanes want a little more. */
export const LAYER_GAP = 40;

/** With channel lanes: wider for wide operators, whose all-to-all edges draw many lanes. */
export function layerGapWithChannels(maxParallelism: number): number {
  return 48 + Math.min(64, Math.max(0, maxParallelism - 2) * 4.5);
}

export const boxHeight = (parallelism: number): number => HEADER + COLUMN_HEADER + parallelism * ROW + PAD;

/** Top of subtask `index`'s row. */
export function rowTop(box: VertexBox, index: number): number {
  return box.y + HEADER + COLUMN_HEADER + index * ROW;
}

/** Vertical centre of subtask `index`'s row. */
export function rowCentre(box: VertexBox, index: number): number {
  return rowTop(box, index) + ROW / 2;
}

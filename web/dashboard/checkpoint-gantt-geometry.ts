/**
 * Where each part of one checkpoint's Gantt chart goes, in px: an axis from the trigger, then per
 * operator a heading line and one line per subtask. The SVG and the canvas (PNG export) both draw
 * from this, so the exported picture is the one on screen.
 */
import type { GanttCheckpoint, GanttGroup, GanttRow } from './checkpoint-gantt-layout.ts';

export const GANTT_ROW_PX = 18;
export const GANTT_GROUP_PX = 22;
export const GANTT_AXIS_PX = 22;
export const GANTT_LABEL_PX = 150;
/** room right of the longest bar for its duration */
export const GANTT_TAIL_PX = 150;

export type GanttLine = { kind: 'group'; y: number; group: GanttGroup } | { kind: 'row'; y: number; row: GanttRow; group: GanttGroup };

export interface GanttTick {
  x: number;
  ms: number;
}

export interface GanttGeometry {
  width: number;
  height: number;
  plotX: number;
  plotWidth: number;
  /** px per ms on the time axis */
  scale: number;
  lines: GanttLine[];
  ticks: GanttTick[];
}

export function ganttGeometry(chart: GanttCheckpoint, widthPx: number): GanttGeometry {
  const plotX = GANTT_LABEL_PX;
  const plotWidth = Math.max(40, widthPx - plotX - GANTT_TAIL_PX);
  const scale = chart.spanMs > 0 ? plotWidth / chart.spanMs : 0;
  const lines: GanttLine[] = [];
  let y = GANTT_AXIS_PX;
  for (const group of chart.groups) {
    lines.push({ kind: 'group', y, group });
    y += GANTT_GROUP_PX;
    for (const row of group.rows) {
      lines.push({ kind: 'row', y, row, group });
      y += GANTT_ROW_PX;
    }
  }
  const ticks = tickValues(chart.spanMs).map((ms) => ({ ms, x: plotX + ms * scale }));
  return { width: widthPx, height: y + 4, plotX, plotWidth, scale, lines, ticks };
}

/** About five ticks on a 1-2-5 step, from 0 to the span. */
export function tickValues(spanMs: number): number[] {
  if (!(spanMs > 0)) return [0];
  const rough = spanMs / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough)!;
  const ticks: number[] = [];
  for (let ms = 0; ms <= spanMs + 1e-9; ms += step) ticks.push(Math.round(ms * 1000) / 1000);
  return ticks;
}

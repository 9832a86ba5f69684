/**
 * The Gantt view as a PNG: the strip and the selected checkpoint's chart drawn on a canvas from the
 * same layout and geometry as the SVG on screen, then offered as a download. Text is passed in
 * already translated, so the picture speaks the page's language.
 */
import type { GanttGeometry, GanttLine } from './checkpoint-gantt-geometry.ts';
import { GANTT_ROW_PX } from './checkpoint-gantt-geometry.ts';
import type { GanttRow, GanttStrip } from './checkpoint-gantt-layout.ts';
import { OUTLIER_STROKE, PENDING_STROKE, PHASE_FILL, STATUS_FILL } from './gantt-colors.ts';

export interface GanttPicture {
  title: string;
  strip: GanttStrip;
  stripHeight: number;
  geometry: GanttGeometry | null;
  lineLabel(line: GanttLine): string;
  tickLabel(ms: number): string;
  durationLabel(row: GanttRow): string;
}

const MARGIN = 12;
const TITLE_PX = 24;
const FONT = '12px system-ui, "Noto Sans CJK SC", sans-serif';

/** Draws at the device's pixel ratio so the file is as sharp as the screen. */
export function drawGanttPicture(picture: GanttPicture, ratio = 2): HTMLCanvasElement {
  const width = Math.max(picture.geometry?.width ?? 0, stripWidth(picture.strip)) + 2 * MARGIN;
  const chartTop = MARGIN + TITLE_PX + picture.stripHeight + MARGIN;
  const height = chartTop + (picture.geometry?.height ?? 0) + MARGIN;
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * ratio);
  canvas.height = Math.ceil(height * ratio);
  const ctx = canvas.getContext('2d')!;
  ctx.scale(ratio, ratio);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#1b1f24';
  ctx.fillText(picture.title, MARGIN, MARGIN + TITLE_PX / 2);
  drawStrip(ctx, picture, MARGIN, MARGIN + TITLE_PX);
  if (picture.geometry) drawChart(ctx, picture, picture.geometry, MARGIN, chartTop);
  return canvas;
}

function stripWidth(strip: GanttStrip): number {
  const last = strip.bars[strip.bars.length - 1];
  return last ? last.x + last.width : 0;
}

function drawStrip(ctx: CanvasRenderingContext2D, picture: GanttPicture, left: number, top: number): void {
  for (const bar of picture.strip.bars) {
    ctx.fillStyle = STATUS_FILL[bar.color];
    ctx.fillRect(left + bar.x, top, bar.width, picture.stripHeight);
    if (bar.outlier) outline(ctx, left + bar.x, top, bar.width, picture.stripHeight, OUTLIER_STROKE);
  }
}

function drawChart(ctx: CanvasRenderingContext2D, picture: GanttPicture, geometry: GanttGeometry, left: number, top: number): void {
  for (const tick of geometry.ticks) {
    ctx.fillStyle = '#d8dde4';
    ctx.fillRect(left + tick.x, top + 14, 1, geometry.height - 14);
    ctx.fillStyle = '#57606a';
    ctx.fillText(picture.tickLabel(tick.ms), left + tick.x + 2, top + 7);
  }
  for (const line of geometry.lines) {
    const y = top + line.y;
    ctx.fillStyle = '#1b1f24';
    ctx.font = line.kind === 'group' ? `600 ${FONT}` : FONT;
    // subtasks indented under their operator, as on screen
    ctx.fillText(picture.lineLabel(line), left + (line.kind === 'row' ? 12 : 0), y + GANTT_ROW_PX / 2 + (line.kind === 'group' ? 2 : 0));
    if (line.kind === 'row') drawRow(ctx, picture, geometry, line.row, left, y);
  }
  ctx.font = FONT;
}

function drawRow(ctx: CanvasRenderingContext2D, picture: GanttPicture, geometry: GanttGeometry, row: GanttRow, left: number, y: number): void {
  const x0 = left + geometry.plotX;
  const barY = y + 3;
  const barH = GANTT_ROW_PX - 6;
  for (const segment of row.segments) {
    ctx.fillStyle = PHASE_FILL[segment.phase];
    ctx.fillRect(x0 + segment.startMs * geometry.scale, barY, Math.max(1, segment.durationMs * geometry.scale), barH);
  }
  const extent = Math.max(1, row.endToEndMs * geometry.scale);
  if (row.unaligned) hatch(ctx, x0, barY, extent, barH);
  if (row.state === 'pending') outline(ctx, x0, barY, extent, barH, PENDING_STROKE, [4, 3]);
  if (row.state === 'aborted') outline(ctx, x0, barY, extent, barH, OUTLIER_STROKE, [4, 3]);
  if (row.outlier) outline(ctx, x0 - 1, barY - 1, extent + 2, barH + 2, OUTLIER_STROKE);
  ctx.fillStyle = '#57606a';
  ctx.fillText(picture.durationLabel(row), x0 + extent + 4, y + GANTT_ROW_PX / 2);
}

function outline(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, color: string, dash: number[] = []): void {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.setLineDash(dash);
  ctx.strokeRect(x, y, w, h);
  ctx.restore();
}

/** Diagonal lines over an unaligned subtask's bar, as the SVG's pattern draws them. */
function hatch(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.strokeStyle = 'rgba(255,255,255,0.7)';
  ctx.lineWidth = 1.5;
  for (let dx = -h; dx < w; dx += 5) {
    ctx.moveTo(x + dx, y + h);
    ctx.lineTo(x + dx + h, y);
  }
  ctx.stroke();
  ctx.restore();
}

/** Saves the canvas as `fileName` through a temporary link (no server round trip). */
export function downloadCanvas(canvas: HTMLCanvasElement, fileName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (!blob) return reject(new Error('the canvas could not be encoded as PNG'));
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.click();
      // the download has its own copy once started; keep the URL a moment for slow browsers
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      resolve();
    }, 'image/png');
  });
}

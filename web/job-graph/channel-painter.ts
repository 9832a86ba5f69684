/**
 * Draws a ChannelScene on a 2D canvas: the lanes, the queued buffers as small cells, barriers as
 * bars across their lane (priority barriers of unaligned checkpoints as diamonds), persisted
 * in-flight buffers in their own colour, blocked (aligning) channels as thick lanes closed at the
 * receiver, and, when asked, watermarks. Each kind is drawn as one path, so a frame issues a
 * handful of fills and strokes however many buffers there are.
 */
import type { NetworkBuffer } from '../../engine/protocol.ts';
import type { ChannelLanes } from './channel-lanes.ts';
import { ItemKind, type ChannelScene } from './channel-scene.ts';

export interface ChannelColors {
  lane: string;
  data: string;
  persisted: string;
  barrier: string;
  priorityBarrier: string;
  marker: string;
  blocked: string;
  watermark: string;
  selection: string;
}

/** The CSS custom properties the colours come from (app.css, light and dark). */
const COLOR_VARIABLES: Record<keyof ChannelColors, string> = {
  lane: '--channel-lane',
  data: '--channel-data',
  persisted: '--channel-persisted',
  barrier: '--channel-barrier',
  priorityBarrier: '--channel-priority-barrier',
  marker: '--channel-marker',
  blocked: '--channel-blocked',
  watermark: '--channel-watermark',
  selection: '--focus-ring',
};

export function readChannelColors(element: Element): ChannelColors {
  const style = getComputedStyle(element);
  const colors = {} as ChannelColors;
  for (const [name, variable] of Object.entries(COLOR_VARIABLES) as [keyof ChannelColors, string][]) {
    colors[name] = style.getPropertyValue(variable).trim() || '#888';
  }
  return colors;
}

export interface PaintOptions {
  watermarks: boolean;
  selected: NetworkBuffer | null;
  selectedLane: number;
}

export function paintChannels(ctx: CanvasRenderingContext2D, scene: ChannelScene, lanes: ChannelLanes, colors: ChannelColors, options: PaintOptions): void {
  paintLanes(ctx, scene, lanes, colors, options.selectedLane);
  paintCells(ctx, scene, ItemKind.data, colors.data);
  paintCells(ctx, scene, ItemKind.persisted, colors.persisted);
  paintMarkers(ctx, scene, colors.marker);
  paintBarriers(ctx, scene, colors);
  if (options.watermarks) paintWatermarks(ctx, scene, lanes, colors.watermark);
  if (options.selected) paintSelection(ctx, scene, options.selected, colors.selection);
}

function paintLanes(ctx: CanvasRenderingContext2D, scene: ChannelScene, lanes: ChannelLanes, colors: ChannelColors, selectedLane: number): void {
  const p = lanes.points;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'butt';
  ctx.strokeStyle = colors.lane;
  ctx.lineWidth = lanes.count > 200 ? 0.5 : 0.9;
  ctx.beginPath();
  for (let id = 0; id < lanes.count; id++) {
    if (!lanes.drawn[id] || scene.blocked[id]) continue;
    lanePath(ctx, p, id);
  }
  ctx.stroke();

  ctx.strokeStyle = colors.blocked;
  ctx.lineWidth = 2.2;
  ctx.beginPath();
  for (let id = 0; id < lanes.count; id++) if (lanes.drawn[id] && scene.blocked[id]) lanePath(ctx, p, id);
  ctx.stroke();
  // A blocked channel is closed at the receiver: a bar across its end.
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (let id = 0; id < lanes.count; id++) {
    if (!lanes.drawn[id] || !scene.blocked[id]) continue;
    const o = id * 8;
    const x = p[o + 6]!;
    const y = p[o + 7]!;
    if (lanes.direction === 'RIGHT') {
      ctx.moveTo(x - 2, y - 4);
      ctx.lineTo(x - 2, y + 4);
    } else {
      ctx.moveTo(x - 4, y - 2);
      ctx.lineTo(x + 4, y - 2);
    }
  }
  ctx.stroke();

  if (selectedLane >= 0 && selectedLane < lanes.count && lanes.drawn[selectedLane]) {
    ctx.strokeStyle = colors.selection;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    lanePath(ctx, p, selectedLane);
    ctx.stroke();
  }
}

function lanePath(ctx: CanvasRenderingContext2D, p: Float32Array, id: number): void {
  const o = id * 8;
  ctx.moveTo(p[o]!, p[o + 1]!);
  ctx.lineTo(p[o + 2]!, p[o + 3]!);
  ctx.lineTo(p[o + 4]!, p[o + 5]!);
  ctx.lineTo(p[o + 6]!, p[o + 7]!);
}

function paintCells(ctx: CanvasRenderingContext2D, scene: ChannelScene, kind: number, color: string): void {
  ctx.fillStyle = color;
  ctx.beginPath();
  for (let i = 0; i < scene.count; i++) {
    if (scene.kind[i] !== kind) continue;
    const size = scene.size[i]!;
    ctx.rect(scene.x[i]! - size / 2, scene.y[i]! - size / 2, size, size);
  }
  ctx.fill();
}

function paintMarkers(ctx: CanvasRenderingContext2D, scene: ChannelScene, color: string): void {
  ctx.fillStyle = color;
  ctx.beginPath();
  for (let i = 0; i < scene.count; i++) {
    const kind = scene.kind[i];
    if (kind !== ItemKind.cancelMarker && kind !== ItemKind.endOfPartition && kind !== ItemKind.endOfData) continue;
    const r = scene.size[i]! / 2;
    ctx.moveTo(scene.x[i]! + r, scene.y[i]!);
    ctx.arc(scene.x[i]!, scene.y[i]!, r, 0, Math.PI * 2);
  }
  ctx.fill();
}

function paintBarriers(ctx: CanvasRenderingContext2D, scene: ChannelScene, colors: ChannelColors): void {
  // Aligned barriers: a bar across the lane.
  ctx.lineCap = 'round';
  ctx.strokeStyle = colors.barrier;
  ctx.lineWidth = 2.6;
  ctx.beginPath();
  for (let i = 0; i < scene.count; i++) {
    if (scene.kind[i] !== ItemKind.barrier) continue;
    const half = scene.size[i]! * 0.9 + 1.2;
    const nx = -scene.dy[i]! * half;
    const ny = scene.dx[i]! * half;
    ctx.moveTo(scene.x[i]! - nx, scene.y[i]! - ny);
    ctx.lineTo(scene.x[i]! + nx, scene.y[i]! + ny);
  }
  ctx.stroke();
  ctx.lineCap = 'butt';
  // Priority (unaligned) barriers: a diamond, drawn over the buffers it overtook.
  ctx.fillStyle = colors.priorityBarrier;
  ctx.beginPath();
  for (let i = 0; i < scene.count; i++) {
    if (scene.kind[i] !== ItemKind.priorityBarrier) continue;
    const r = scene.size[i]! * 0.8 + 1.4;
    const x = scene.x[i]!;
    const y = scene.y[i]!;
    ctx.moveTo(x, y - r);
    ctx.lineTo(x + r, y);
    ctx.lineTo(x, y + r);
    ctx.lineTo(x - r, y);
    ctx.closePath();
  }
  ctx.fill();
}

function paintWatermarks(ctx: CanvasRenderingContext2D, scene: ChannelScene, lanes: ChannelLanes, color: string): void {
  ctx.fillStyle = color;
  ctx.beginPath();
  // A buffer that carries a watermark: a small flag above it.
  for (let i = 0; i < scene.count; i++) {
    if (!scene.watermark[i]) continue;
    const size = scene.size[i]!;
    const x = scene.x[i]!;
    const top = scene.y[i]! - size / 2 - 0.5;
    ctx.moveTo(x - 2, top);
    ctx.lineTo(x + 2, top);
    ctx.lineTo(x, top - 3);
    ctx.closePath();
  }
  // The channel that holds its subtask's watermark back (the lowest of its inputs): a dot at the receiver.
  const p = lanes.points;
  for (let id = 0; id < lanes.count; id++) {
    if (!lanes.drawn[id] || !scene.holdsWatermark[id]) continue;
    const x = p[id * 8 + 6]!;
    const y = p[id * 8 + 7]!;
    ctx.moveTo(x + 2.5, y);
    ctx.arc(x, y, 2.5, 0, Math.PI * 2);
  }
  ctx.fill();
}

function paintSelection(ctx: CanvasRenderingContext2D, scene: ChannelScene, selected: NetworkBuffer, color: string): void {
  const i = scene.indexOf(selected);
  if (i < 0) return;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(scene.x[i]!, scene.y[i]!, scene.size[i]! + 4, 0, Math.PI * 2);
  ctx.stroke();
}

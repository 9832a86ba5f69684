/**
 * Stretches of a time chart's x axis marked on the chart: shaded, a dashed line at each end, a
 * label at the start (the backlog chart's failure and catch-up, catch-up-markers.ts). A uPlot
 * plugin draws them: the shading and lines on the canvas under the series, the labels as text in
 * the plot's overlay, where a reader's find and a test can read them (a canvas holds no text).
 */
import type uPlot from 'uplot';

export interface ChartSpan {
  /** s */
  from: number;
  /** s; null: still open, up to the chart's last point */
  to: number | null;
  /** a CSS custom property (`--chart-2`): the lines and the label in it, the shading faint */
  color: string;
  /** at the span's start, in the page's language */
  label: string;
  /** the label's row: 0 at the top, 1 below it, so the labels of neighbouring spans do not overlap */
  row: 0 | 1;
}

/** Faint enough that the series stays readable over the shading. */
const SHADE_ALPHA = 0.12;
/** px between label rows (the labels are 0.68rem). */
const ROW_HEIGHT = 14;

/** `spans` is read at every redraw, so a change needs a redraw, not a new chart. */
export function chartSpansPlugin(spans: () => readonly ChartSpan[], color: (name: string) => string): uPlot.Plugin {
  let labels: HTMLElement | null = null;
  return {
    hooks: {
      drawAxes: [(u) => shade(u, spans(), color)],
      draw: [(u) => place(u, (labels ??= labelBox(u)), spans())],
    },
  };
}

/** The span's ends in canvas pixels, clipped to the plot; null when it is outside the x range. */
function ends(u: uPlot, span: ChartSpan): [number, number] | null {
  const min = u.scales.x?.min ?? 0;
  const max = u.scales.x?.max ?? 0;
  const to = span.to ?? max;
  if (to < min || span.from > max) return null;
  return [u.valToPos(Math.max(span.from, min), 'x', true), u.valToPos(Math.min(to, max), 'x', true)];
}

function shade(u: uPlot, spans: readonly ChartSpan[], color: (name: string) => string): void {
  const { ctx } = u;
  const { top, height } = u.bbox;
  const pixel = window.devicePixelRatio || 1;
  ctx.save();
  for (const span of spans) {
    const x = ends(u, span);
    if (!x) continue;
    ctx.fillStyle = ctx.strokeStyle = color(span.color);
    ctx.globalAlpha = SHADE_ALPHA;
    ctx.fillRect(x[0], top, x[1] - x[0], height);
    ctx.globalAlpha = 1;
    ctx.lineWidth = pixel;
    ctx.setLineDash([4 * pixel, 3 * pixel]);
    ctx.beginPath();
    for (const at of span.to === null ? [x[0]] : x) {
      ctx.moveTo(at, top);
      ctx.lineTo(at, top + height);
    }
    ctx.stroke();
  }
  ctx.restore();
}

function labelBox(u: uPlot): HTMLElement {
  const box = document.createElement('div');
  box.className = 'chart-spans';
  u.over.append(box);
  return box;
}

/** One label per span at its start; past the middle of the plot it hangs to the left of its line. */
function place(u: uPlot, box: HTMLElement, spans: readonly ChartSpan[]): void {
  const width = plotWidth(u);
  box.replaceChildren(
    ...spans.flatMap((span) => {
      if (!span.label || !ends(u, span)) return [];
      const left = Math.min(Math.max(u.valToPos(Math.max(span.from, u.scales.x?.min ?? 0), 'x'), 0), width);
      const label = document.createElement('span');
      label.className = 'chart-span-label';
      label.dataset.testid = 'chart-span-label';
      label.dataset.from = String(span.from);
      label.dataset.to = span.to === null ? '' : String(span.to);
      label.textContent = span.label;
      label.style.cssText = `left:${left}px;top:${2 + span.row * ROW_HEIGHT}px;color:var(${span.color});${left > width / 2 ? 'transform:translateX(-100%);' : ''}`;
      return [label];
    }),
  );
}

/**
 * The plot's width in CSS px, as uPlot set it on the overlay's style: reading the overlay's
 * clientWidth instead forced a layout of the whole page at every draw, after the other views had
 * changed the DOM in the same frame (up to 28 ms in one frame of a run at full speed).
 */
function plotWidth(u: uPlot): number {
  const styled = parseFloat(u.over.style.width);
  return Number.isFinite(styled) ? styled : u.bbox.width / (window.devicePixelRatio || 1);
}

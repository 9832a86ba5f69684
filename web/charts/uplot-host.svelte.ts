/**
 * What every uPlot chart on the page needs around its options: uPlot itself fetched after the
 * first paint (50 kB), the host element's width followed, the colour scheme followed (colours are
 * read from the theme's CSS variables, so a scheme change rebuilds), and the chart built, resized
 * and fed without a chart before uPlot has arrived. A component keeps its options and data and
 * calls these from its effects; each method reads the state it depends on, so effects track it.
 */
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export class UPlotHost {
  UPlot = $state.raw<typeof uPlot | null>(null);
  width = $state(320);
  dark = $state(false);
  #host: HTMLElement | null = null;
  #chart: uPlot | null = null;
  readonly #minWidth: number;

  constructor(minWidth: number) {
    this.#minWidth = minWidth;
  }

  /** For onMount: starts loading uPlot and following the host's width and the scheme; returns the cleanup. */
  mount(host: HTMLElement): () => void {
    this.#host = host;
    void import('uplot').then((module) => (this.UPlot = module.default));
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    this.dark = scheme.matches;
    const onScheme = () => (this.dark = scheme.matches);
    scheme.addEventListener('change', onScheme);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) this.width = Math.max(this.#minWidth, Math.floor(entry.contentRect.width));
    });
    observer.observe(host);
    return () => {
      observer.disconnect();
      scheme.removeEventListener('change', onScheme);
      this.#chart?.destroy();
      this.#chart = null;
    };
  }

  /** The element uPlot draws into, once mounted. */
  get element(): HTMLElement | null {
    return this.#host;
  }

  /** A theme colour (a CSS custom property such as `--chart-1`) as the host sees it. */
  color(name: string): string {
    return (this.#host && getComputedStyle(this.#host).getPropertyValue(name).trim()) || '#888';
  }

  /** What every chart's options start from: the host's width, a live legend, no drag-to-zoom. */
  baseOptions(height: number): Pick<uPlot.Options, 'width' | 'height' | 'legend' | 'cursor'> {
    return { width: this.width, height, legend: { live: true }, cursor: { drag: { x: false, y: false } } };
  }

  /** The theme's look for an axis: muted labels, grid and ticks in the border colour. */
  axisStyle(): uPlot.Axis {
    const border = this.color('--border');
    return { stroke: this.color('--text-muted'), grid: { stroke: border, width: 1 }, ticks: { stroke: border, width: 1 }, font: '11px system-ui, sans-serif' };
  }

  build(options: uPlot.Options, data: uPlot.AlignedData): void {
    if (!this.UPlot || !this.#host) return;
    this.#chart?.destroy();
    this.#chart = new this.UPlot(options, data, this.#host);
  }

  /** Width (tracked) at `height`; read before the chart may be missing, so the effect tracks it. */
  resize(height: number): void {
    const size = { width: this.width, height };
    if (this.UPlot) this.#chart?.setSize(size);
  }

  setData(data: uPlot.AlignedData): void {
    if (this.UPlot) this.#chart?.setData(data);
  }

  /** Draws again what the options' hooks read (a chart's marks), with the same data and axes. */
  redraw(): void {
    if (this.UPlot) this.#chart?.redraw(false, false);
  }
}

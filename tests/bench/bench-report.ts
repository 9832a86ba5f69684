/**
 * The benchmark report: the figures of one `npm run bench`, the machine they were measured on,
 * and each aim of the issues met or not, as `bench/results.json`, as Markdown
 * (`bench/results.md`), and as the README's bench section. Pure: figures in, documents out; the
 * runner reads the machine and writes the files.
 */
import type { BenchFigure } from './sim-throughput.ts';
import { BENCH_AIMS, statedAims, type BenchAim } from './bench-aims.ts';

export interface BenchMachine {
  cpu: string;
  cores: number;
  memory_gb: number;
  /** e.g. "Linux 6.1.0 x64" */
  os: string;
  node: string;
  /** null when no Chromium was found */
  chromium: string | null;
  /** the 1-minute load average as the bench started: other work on the machine skews the figures (absent in older reports) */
  load_average?: number;
}

export interface AimResult extends BenchAim {
  /** the figure's number this run, null when the run did not measure it */
  value: number | null;
  /** null: not measured in this run */
  met: boolean | null;
}

export interface BenchReport {
  /** ISO 8601, UTC */
  date: string;
  machine: BenchMachine;
  /** the command that measured it */
  command: string;
  figures: BenchFigure[];
  aims: AimResult[];
}

export const README_START = '<!-- bench:start -->';
export const README_END = '<!-- bench:end -->';

export function benchReport(figures: BenchFigure[], machine: BenchMachine, date: Date, command: string, aims: readonly BenchAim[] = BENCH_AIMS): BenchReport {
  return { date: date.toISOString(), machine, command, figures, aims: evaluateAims(figures, [...aims, ...statedAims(figures, aims)]) };
}

/** Each aim against its figure: met, not met, or not measured (no such figure, or no number in it). */
export function evaluateAims(figures: readonly BenchFigure[], aims: readonly BenchAim[]): AimResult[] {
  const byName = new Map(figures.map((f) => [f.figure, f]));
  return aims.map((aim) => {
    const figure = byName.get(aim.figure);
    const raw = figure === undefined ? null : aim.field === undefined ? figure.value : figure[aim.field];
    const value = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    return { ...aim, value, met: value === null ? null : aim.op === '>=' ? value >= aim.target : value <= aim.target };
  });
}

/** The report as Markdown: where and when, the aims, then every figure. */
export function renderMarkdown(report: BenchReport): string {
  return [machineLine(report), '', aimsTable(report.aims), '', figuresTable(report.figures), ''].join('\n');
}

function machineLine(r: BenchReport): string {
  const m = r.machine;
  const when = `${r.date.slice(0, 10)} ${r.date.slice(11, 16)} UTC`;
  const chromium = m.chromium === null ? 'no Chromium' : `Chromium ${m.chromium}`;
  const load = m.load_average === undefined ? '' : `; load average ${m.load_average} as it started`;
  return [
    `Measured ${when} with \`${r.command}\` on ${m.cpu} (${m.cores} cores), ${m.memory_gb} GB memory, ${m.os}, Node ${m.node}, ${chromium}${load}.`,
    'Each figure is the median of the runs shown; each ratio compares figures measured side by side in the same run.',
  ].join('\n');
}

function aimsTable(aims: readonly AimResult[]): string {
  const rows = aims.map((a) => [a.what, `\`${a.figure}\`${a.field ? ` (${a.field})` : ''}`, a.value === null ? 'not measured' : formatNumber(a.value), `${a.op === '>=' ? '≥' : '≤'} ${formatNumber(a.target)}`, metText(a.met), a.issue === undefined ? 'bench' : `#${a.issue}`]);
  return table(['Aim', 'Figure', 'This run', 'Aim', 'Met', 'From'], rows);
}

function metText(met: boolean | null): string {
  return met === null ? '—' : met ? 'yes' : '**no**';
}

function figuresTable(figures: readonly BenchFigure[]): string {
  const rows = figures.map((f) => [`\`${f.figure}\``, f.value === null ? `not measured: ${String(f.error ?? 'no reason given')}` : formatNumber(f.value), f.unit, runsText(f), noteText(f)]);
  return table(['Figure', 'Median', 'Unit', 'Runs', 'Note'], rows);
}

/** How many runs the median is over; a deterministic figure (the sim's virtual time, sizes) needs one. */
function runsText(f: BenchFigure): string {
  if (typeof f.repetitions === 'number') return String(f.repetitions);
  return f.deterministic === true ? '1 (deterministic)' : '—';
}

function noteText(f: BenchFigure): string {
  return typeof f.note === 'string' ? f.note : typeof f.pipeline === 'string' ? f.pipeline : '';
}

/** Thousands separated for large counts and rates; small values as measured (already rounded). */
export function formatNumber(n: number): string {
  return Math.abs(n) >= 10_000 ? Math.round(n).toLocaleString('en-US') : String(n);
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** A table cell: a `|` would end the cell, a newline the row. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The README with the text between its bench markers replaced by `markdown`, or why it cannot be. */
export function replaceReadmeSection(readme: string, markdown: string): { ok: true; text: string } | { ok: false; problem: string } {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start === -1 || end === -1) return { ok: false, problem: `README.md has no bench section: add the lines ${README_START} and ${README_END} where the table goes` };
  if (end < start) return { ok: false, problem: `README.md's ${README_END} comes before its ${README_START}` };
  if (readme.indexOf(README_START, start + 1) !== -1 || readme.indexOf(README_END, end + 1) !== -1) return { ok: false, problem: `README.md has more than one ${README_START} … ${README_END} section` };
  return { ok: true, text: `${readme.slice(0, start + README_START.length)}\n${markdown.trimEnd()}\n${readme.slice(end)}` };
}

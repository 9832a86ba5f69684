/**
 * Where the bench report goes: bench/results.json (the figures, the machine, the aims met or not),
 * bench/results.md (the same as tables) and the README's section between its bench markers.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { renderMarkdown, replaceReadmeSection, type BenchReport } from './bench-report.ts';

export const RESULTS_JSON = 'bench/results.json';
export const RESULTS_MD = 'bench/results.md';
export const README = 'README.md';

/** Writes the three; the README problem, if any, is returned (the results files are written anyway). */
export function writeBenchReport(report: BenchReport): string | undefined {
  mkdirSync('bench', { recursive: true });
  writeFileSync(RESULTS_JSON, `${JSON.stringify(report, null, 2)}\n`);
  const markdown = renderMarkdown(report);
  writeFileSync(RESULTS_MD, `# Benchmark results\n\n${markdown}`);
  const readme = replaceReadmeSection(readFileSync(README, 'utf8'), markdown);
  if (!readme.ok) return readme.problem;
  writeFileSync(README, readme.text);
  return undefined;
}

/** The last report written, for `--report-only` (re-render after editing the aims or the layout). */
export function readBenchReport(): BenchReport {
  return JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchReport;
}

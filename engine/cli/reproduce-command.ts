/**
 * `ckpt-lab inspect FILE... --reproduce SCENARIO.yaml [--json] [--lang en|zh-CN]`: builds a
 * playground scenario that behaves like the imported job (engine/reproduce/), runs it in sim, and
 * prints the model's checkpoint figures beside the imported ones. The files are read as
 * `ckpt-lab inspect` reads them and taken together: a /checkpoints response, its /checkpoints/config,
 * details and subtasks of the same job each add what they hold.
 */
import { stringify } from 'yaml';
import { formatFlinkImportProblem, type ImportLocale } from '../interop/flink-import-messages.ts';
import { importFlinkStatisticsText, type ImportedFlinkStatistics } from '../interop/flink-statistics-import.ts';
import { reproduceAndCompare } from '../reproduce/calibrated-reproduction.ts';
import { mergeImportedStatistics } from '../reproduce/imported-statistics-merge.ts';
import type { ComparisonRow } from '../reproduce/reproduction-comparison.ts';
import { comparisonFigureName, comparisonHeadings, reproduceProblemMessage } from '../reproduce/reproduction-messages.ts';
import { reportBytes } from '../report/report-units.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import type { CommandResult, ReadFile } from './command-result.ts';

export interface ReproduceOptions {
  /** where the model scenario is written, as YAML */
  out: string;
  json: boolean;
  locale: ImportLocale;
}

export function runReproduce(files: readonly string[], parsed: ReproduceOptions, readFile: ReadFile, lsmStorage?: LsmStorageFactory): CommandResult {  const statistics = readAll(files, readFile, parsed.locale);
  if (typeof statistics === 'string') return failure(statistics);
  const reproduction = reproduceAndCompare(statistics, lsmStorage);
  if (!reproduction.ok) return failure(`${files.join(', ')}: ${reproduceProblemMessage(reproduction.problem, parsed.locale)}`);
  const { document, stateScale, parallelismScale } = reproduction.reproduced;
  const writes = [{ path: parsed.out, text: stringify(document, { lineWidth: 0 }) }];
  const stdout = parsed.json
    ? `${JSON.stringify({ scenario: document, stateScale, parallelismScale, comparison: reproduction.comparison }, null, 2)}\n`
    : comparisonTable(reproduction.comparison, parsed.locale);
  return { stdout, stderr: '', exitCode: 0, writes };
}

function failure(message: string): CommandResult {
  return { stdout: '', stderr: `ckpt-lab inspect --reproduce: ${message}\n`, exitCode: 2 };
}

/** Every file imported, then merged; the first file that cannot be read stops it (a model of part of the input would mislead). */
function readAll(files: readonly string[], readFile: ReadFile, locale: ImportLocale): ImportedFlinkStatistics | string {
  let merged: ImportedFlinkStatistics | undefined;
  for (const file of files) {
    const text = readFile(file);
    if (!text.ok) return text.message;
    const imported = importFlinkStatisticsText(text.text);
    if (!imported.ok) return `${file}: ${imported.problems.slice(0, 5).map((p) => formatFlinkImportProblem(p, locale)).join('; ')}`;
    merged = merged === undefined ? imported.statistics : mergeImportedStatistics(merged, imported.statistics);
  }
  return merged!;
}

/** One line per figure: name, imported, model, and model ÷ imported. */
export function comparisonTable(rows: readonly ComparisonRow[], locale: ImportLocale): string {
  const headings = comparisonHeadings(locale);
  const cells = rows.map((r) => [comparisonFigureName(r.figure, locale), value(r.imported, r.unit), value(r.model, r.unit), r.ratio === null ? '—' : `×${r.ratio.toFixed(2)}`]);
  const all = [[headings.figure, headings.imported, headings.model, headings.ratio], ...cells];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...all.map((row) => displayWidth(row[i]!))));
  return `${all.map((row) => row.map((cell, i) => cell + ' '.repeat(widths[i]! - displayWidth(cell))).join('  ').trimEnd()).join('\n')}\n`;
}

function value(n: number | null, unit: ComparisonRow['unit']): string {
  if (n === null) return '—';
  if (unit === 'ms') return `${Math.round(n * 10) / 10} ms`;
  if (unit === 'bytes') return reportBytes(n);
  if (unit === 'fraction') return `${Math.round(n * 1000) / 10}%`;
  return String(n);
}

/** Chinese characters take two columns in a terminal. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1;
  return width;
}

/**
 * `ckpt-lab compare`: compare mode without a page. Runs the scenario twice in the sim, with its
 * seed, to the same virtual time, once per side of a variation (engine/compare/), and prints the
 * differences worth calling out in words, then the key figures side by side. The scenario's own
 * expectations are about its own configuration, not about either side, so they are not judged:
 * exit 0 when both sides ran, 2 for invalid input or usage, 3 for a bug (as `run`).
 */
import { readUntil } from './until-option.ts';
import { compareDifferences, MATERIAL_DIFFERENCE, MIN_RELATIVE_DIFFERENCE, type CompareDifference } from '../compare/compare-differences.ts';
import { COMPARE_FIGURES, compareFigures, FIGURE_UNITS, type CompareFigures } from '../compare/compare-figures.ts';
import { differenceWords, figureValueWords, figureWords, noDifferencesWords, sideWords, variationWords } from '../compare/compare-messages.ts';
import { runComparison, type ComparisonRun } from '../compare/compare-runs.ts';
import { COMPARE_VARIATIONS, compareScenarios, isCompareVariation, type CompareSide, type CompareVariation } from '../compare/compare-variation.ts';
import type { MessageLocale } from '../messages/message-codes.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import type { CommandResult, ReadFile } from './command-result.ts';
import { LANG_USAGE, readLang } from './lang-option.ts';
import { readScenarioFile } from './scenario-file.ts';

export const compareUsage = `Usage: ckpt-lab compare SCENARIO --variation NAME [--until DURATION] [--json] [--lang en|zh-CN]

Runs SCENARIO twice in the deterministic simulator, with its seed and to the same virtual time,
under the two configurations of a variation, and says how they differ ("checkpoint duration
1.8 s vs 0.4 s"): each figure that differs by ${Math.round(MIN_RELATIVE_DIFFERENCE * 100)}% or more and by enough to matter
(durations by ${MATERIAL_DIFFERENCE['sync-duration-p50']} ms, sizes by ${MATERIAL_DIFFERENCE['checkpointed-size-p50'] / 1024} KiB, completed checkpoints by ${MATERIAL_DIFFERENCE['completed-checkpoints']}), largest difference first.
  --variation NAME    one of ${COMPARE_VARIATIONS.join(', ')}
  --until DURATION    run this much virtual time (Flink syntax: 500 ms, 10 s, 2 min) instead of the
                      scenario's run.until
  --json              print one JSON document: variation, time, each side's options and figures
                      (null where nothing was measured), and the differences with their text
${LANG_USAGE}; here also of the differences
`;

interface CompareArguments {
  file: string;
  variation: CompareVariation;
  until?: number;
  json: boolean;
  locale: MessageLocale;
}

const HELP = 'help' as const;

export function runCompareCommand(args: string[], readFile: ReadFile, lsmStorage?: LsmStorageFactory): CommandResult {
  const parsed = parseCompareArguments(args);
  if (parsed === HELP) return { stdout: compareUsage, stderr: '', exitCode: 0 };
  if (typeof parsed === 'string') return usageError(parsed);
  const valid = readScenarioFile(parsed.file, readFile, (document) => withRunLength(document, parsed.until), parsed.locale);
  if (!valid.ok) {
    if ('unreadable' in valid) return { stdout: '', stderr: `ckpt-lab compare: ${valid.unreadable}\n`, exitCode: 2 };
    return { stdout: '', stderr: `ckpt-lab compare: ${parsed.file} is not a valid scenario; nothing was run.\n${valid.invalid}\n`, exitCode: 2 };
  }
  // A scenario the variation cannot apply to (no periodic checkpoints, a side Flink would refuse) runs nothing.
  const compared = compareScenarios(valid.scenario, parsed.variation);
  if (!compared.ok) return { stdout: '', stderr: `ckpt-lab compare: ${parsed.file} cannot be compared that way; nothing was run.\n${compared.message}\n`, exitCode: 2 };
  const run = runComparison(valid.scenario, parsed.variation, lsmStorage ? { lsmStorage } : {});
  const notes = valid.notes.map((n) => `note: ${n}\n`).join('');
  const report = comparisonReport(run, parsed.locale);
  const stdout = parsed.json ? `${JSON.stringify(report, null, 2)}\n` : formatComparison(report, valid.scenario.name, valid.scenario.seed, parsed.locale);
  return { stdout, stderr: notes, exitCode: 0 };
}

/** The JSON document: the shape of the Playground API's `compare()` answer, so one reader serves both. */
export interface ComparisonReport {
  variation: CompareVariation;
  /** virtual ms both sides reached: the run length, or where the earlier job finished */
  time: number;
  a: ComparisonReportSide;
  b: ComparisonReportSide;
  differences: (CompareDifference & { text: string })[];
}

interface ComparisonReportSide {
  name: string;
  time: number;
  options: Record<string, string | number | boolean>;
  figures: { [F in keyof CompareFigures]: number | null };
}

function comparisonReport(run: ComparisonRun, locale: MessageLocale): ComparisonReport {
  const variation = run.scenarios.variation;
  const minPause = minPauseOf(run);
  const side = (name: CompareSide): ComparisonReportSide => {
    const figures = compareFigures(run.statistics[name]);
    return {
      name: sideWords(variation, name, minPause, locale),
      time: run.times[name],
      options: { ...run.scenarios.overrides[name] },
      figures: Object.fromEntries(COMPARE_FIGURES.map((code) => [code, Number.isFinite(figures[code]) ? figures[code] : null])) as ComparisonReportSide['figures'],
    };
  };
  const differences = compareDifferences(run.statistics.a, run.statistics.b);
  return { variation, time: Math.min(run.times.a, run.times.b), a: side('a'), b: side('b'), differences: differences.map((d) => ({ ...d, text: differenceWords(d, variation, minPause, locale) })) };
}

function minPauseOf(run: ComparisonRun): number {
  const value = run.scenarios.overrides.b['execution.checkpointing.min-pause'];
  return typeof value === 'number' ? value : 0;
}

function formatComparison(report: ComparisonReport, name: string, seed: number, locale: MessageLocale): string {
  const variation = report.variation;
  const options = (side: ComparisonReportSide) => Object.entries(side.options).map(([key, value]) => `${key}: ${String(value)}`).join(', ');
  const lines = [
    `${name} — seed ${seed}; ${(report.a.time / 1000).toFixed(3)} s (a) and ${(report.b.time / 1000).toFixed(3)} s (b) of virtual time`,
    `variation ${variation}: ${variationWords(variation, locale)}`,
    `  a (${report.a.name}): ${options(report.a)}`,
    `  b (${report.b.name}): ${options(report.b)}`,
    '',
    ...(report.differences.length === 0 ? [noDifferencesWords(Math.round(MIN_RELATIVE_DIFFERENCE * 100), locale)] : report.differences.map((d) => `  ${d.text}`)),
    '',
    ...figureTable(report, locale),
  ];
  return `${lines.join('\n')}\n`;
}

function figureTable(report: ComparisonReport, locale: MessageLocale): string[] {
  const rows = COMPARE_FIGURES.map((code) => {
    const value = (figure: number | null) => figureValueWords(figure ?? NaN, FIGURE_UNITS[code], locale);
    return [figureWords(code, locale), value(report.a.figures[code]), value(report.b.figures[code])] as const;
  });
  const width = (column: 0 | 1 | 2, head: string) => Math.max(displayWidth(head), ...rows.map((r) => displayWidth(r[column])));
  const widths = [width(0, ''), width(1, report.a.name), width(2, report.b.name)];
  const line = (cells: readonly string[]) => `  ${cells.map((c, i) => pad(c, widths[i]!)).join('   ').trimEnd()}`;
  return [line(['', report.a.name, report.b.name]), ...rows.map(line)];
}

/** CJK characters take two columns in a terminal, so the Chinese table lines up too. */
function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += /[\u3000-\u9fff\uff00-\uffef]/.test(char) ? 2 : 1;
  return width;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** `--until` stands in for the file's `run.until` (as in `run`), so an unbounded scenario can be compared. */
function withRunLength(document: unknown, until: number | undefined): unknown {
  if (until === undefined || typeof document !== 'object' || document === null || Array.isArray(document)) return document;
  const run = (document as { run?: unknown }).run;
  const base = typeof run === 'object' && run !== null && !Array.isArray(run) ? run : {};
  return { ...document, run: { ...base, until: `${until} ms` } };
}

function parseCompareArguments(args: string[]): CompareArguments | typeof HELP | string {
  const out: { file?: string; variation?: CompareVariation; until?: number; json: boolean; locale: MessageLocale } = { json: false, locale: 'en' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') return HELP;
    if (arg === '--json') out.json = true;
    else if (arg === '--lang' || arg === '--variation' || arg === '--until') {
      const problem = setValue(out, arg, args[++i]);
      if (problem !== undefined) return problem;
    } else if (arg.startsWith('-')) return `unknown option "${arg}" (allowed: --variation, --until, --json, --lang)`;
    else if (out.file !== undefined) return `only one SCENARIO file may be given, got "${out.file}" and "${arg}"`;
    else out.file = arg;
  }
  if (out.file === undefined) return 'missing SCENARIO (a .yaml or .json scenario file)';
  if (out.variation === undefined) return `missing --variation (one of ${COMPARE_VARIATIONS.join(', ')})`;
  return { ...out, file: out.file, variation: out.variation };
}

function setValue(out: { variation?: CompareVariation; until?: number; locale: MessageLocale }, flag: '--lang' | '--variation' | '--until', value: string | undefined): string | undefined {
  if (flag === '--lang') {
    const lang = readLang(value);
    if ('problem' in lang) return lang.problem;
    out.locale = lang.locale;
    return undefined;
  }
  if (value === undefined) return `${flag} needs a value`;
  if (flag === '--variation') {
    if (!isCompareVariation(value)) return `--variation must be one of ${COMPARE_VARIATIONS.join(', ')}, got "${value}"`;
    out.variation = value;
    return undefined;
  }
  const until = readUntil(value);
  if ('problem' in until) return until.problem;
  out.until = until.ms;
  return undefined;
}

function usageError(message: string): CommandResult {
  return { stdout: '', stderr: `ckpt-lab compare: ${message}\n\n${compareUsage}`, exitCode: 2 };
}

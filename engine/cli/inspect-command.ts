import { formatFlinkImportProblem, type ImportLocale } from '../interop/flink-import-messages.ts';
import { readLang } from './lang-option.ts';
import { importFlinkStatisticsText, type ImportedFlinkStatistics } from '../interop/flink-statistics-import.ts';
import type { CommandResult, ReadFile } from './command-result.ts';
import { inspectReport } from './inspect-report.ts';
import { diagnose } from '../doctor/diagnose.ts';
import type { Finding } from '../doctor/finding.ts';
import { MAX_PROBLEMS_READ } from '../interop/json-object-reader.ts';
import { runReproduce } from './reproduce-command.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';

export const inspectUsage = `Usage: ckpt-lab inspect FILE... [--json] [--lang en|zh-CN] [--reproduce SCENARIO.yaml]

Reads what a Flink JobManager or History Server serves for a job's checkpoints — a saved response
of /jobs/:jobid/checkpoints, …/checkpoints/config, …/checkpoints/details/:checkpointid or
…/checkpoints/details/:checkpointid/subtasks/:vertexid, or a History Server archive — from any
Flink release from 1.9 on, and prints a report with the checkpoint doctor's findings.
  --json              print one JSON document per file: the response in the current Flink shape
                      (under checkpoints, checkpointConfig, checkpointDetails or
                      checkpointSubtaskDetails), its endpoint, the Flink versions the shape fits,
                      and findings: what the checkpoint doctor says (a message code, its
                      figures and the lesson that shows it)
  --lang LANG         the report's and the problems' language: en (default) or zh-CN
  --reproduce FILE    "Reproduce in the playground": write a scenario (YAML) that behaves like the
                      imported job (its checkpointing configuration, vertices and parallelism, state
                      size, durations; the FILEs of one job taken together), run it in the simulator
                      and print the model's figures beside the imported ones, with model ÷ imported
                      (with --json: { scenario, stateScale, parallelismScale, comparison }); exit 2
                      when the statistics cannot be modelled, saying what is missing
Exit codes: 0 every file was read; 2 a file could not be read (the message says where and why), or usage.
`;

/** At most this many problems are printed per file; the first ones say what is wrong. */
const MAX_PROBLEMS = 20;


interface InspectArguments {
  files: string[];
  json: boolean;
  locale: ImportLocale;
  /** where `--reproduce` writes the model scenario */
  reproduce?: string;
}

/** The `--json` document for one file: what was read, and what the checkpoint doctor says about it. */
export interface InspectDocument extends ImportedFlinkStatistics {
  file: string;
  findings: Finding[];
}

/** `ckpt-lab inspect`: every file is read (a bad one does not stop the others), then reported. */
export function runInspectCommand(args: string[], readFile: ReadFile, lsmStorage?: LsmStorageFactory): CommandResult {
  const parsed = parseInspectArguments(args);
  if (parsed === 'help') return { stdout: inspectUsage, stderr: '', exitCode: 0 };
  if (typeof parsed === 'string') return { stdout: '', stderr: `ckpt-lab inspect: ${parsed}\n\n${inspectUsage}`, exitCode: 2 };
  if (parsed.reproduce !== undefined) return runReproduce(parsed.files, { out: parsed.reproduce, json: parsed.json, locale: parsed.locale }, readFile, lsmStorage);
  const documents: InspectDocument[] = [];
  const errors: string[] = [];
  for (const file of parsed.files) {
    const read = inspectFile(file, readFile, parsed.locale);
    if (typeof read === 'string') errors.push(read);
    else documents.push(read);
  }
  const stdout = parsed.json ? jsonOutput(documents, parsed.files.length) : documents.map((d) => inspectReport(d.file, d, parsed.locale, d.findings)).join('\n');
  return { stdout, stderr: errors.join(''), exitCode: errors.length > 0 ? 2 : 0 };
}

function inspectFile(file: string, readFile: ReadFile, locale: ImportLocale): InspectDocument | string {
  const text = readFile(file);
  if (!text.ok) return `ckpt-lab inspect: ${text.message}\n`;
  const imported = importFlinkStatisticsText(text.text);
  if (imported.ok) return { file, ...imported.statistics, findings: diagnose(imported.statistics) };
  const shown = imported.problems.slice(0, MAX_PROBLEMS).map((p) => `  ${formatFlinkImportProblem(p, locale)}\n`);
  // reading stops at MAX_PROBLEMS_READ, so then there may be more than counted
  const atLeast = imported.problems.length >= MAX_PROBLEMS_READ ? '+' : '';
  const more = imported.problems.length > MAX_PROBLEMS ? `  … ${imported.problems.length - MAX_PROBLEMS}${atLeast} more\n` : '';
  return `ckpt-lab inspect: ${file}: ${locale === 'zh-CN' ? '无法读取为 Flink checkpoint 统计' : 'cannot be read as Flink checkpoint statistics'}\n${shown.join('')}${more}`;
}

/** One document for one file; a JSON array of them, in the order given, for several. */
function jsonOutput(documents: InspectDocument[], files: number): string {
  if (documents.length === 0) return '';
  return `${JSON.stringify(files === 1 ? documents[0] : documents, null, 2)}\n`;
}

function parseInspectArguments(args: string[]): InspectArguments | 'help' | string {
  const out: InspectArguments = { files: [], json: false, locale: 'en' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') out.json = true;
    else if (arg === '-h' || arg === '--help') return 'help';
    else if (arg === '--lang') {
      const lang = readLang(args[++i]);
      if ('problem' in lang) return lang.problem;
      out.locale = lang.locale;
    } else if (arg === '--reproduce') {
      const value = args[++i];
      if (value === undefined || value.startsWith('-')) return '--reproduce needs a file name: the model scenario is written there as YAML';
      out.reproduce = value;
    } else if (arg.startsWith('-')) return `unknown option "${arg}" (allowed: --json, --lang) or --reproduce SCENARIO.yaml`;
    else out.files.push(arg);
  }
  if (out.files.length === 0) return 'missing FILE (a saved Flink REST response or a History Server archive, JSON)';
  return out;
}

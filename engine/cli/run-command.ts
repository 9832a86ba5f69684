import type { HandleRestore } from '../recovery/local-recovery.ts';
import { readScenarioFile } from './scenario-file.ts';
import { runScenario, type RunReport } from '../run/run-report.ts';
import { describeExpectation } from '../run/expectations.ts';
import type { CommandResult, ReadFile, ShowProgress } from './command-result.ts';
import { runProgressLine } from './progress-line.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import { diagnose } from '../doctor/diagnose.ts';
import { doctorReportLines } from '../doctor/doctor-messages.ts';
import { runDoctorDocuments } from '../doctor/run-doctor-documents.ts';
import { reportBytes } from '../report/report-units.ts';
import type { RunProgress } from '../run/run-progress.ts';
import type { MessageLocale } from '../messages/message-codes.ts';
import type { Scenario } from '../scenario/scenario-types.ts';
import { LANG_USAGE, readLang } from './lang-option.ts';
import { scenarioTextIn } from '../scenario/localized-text.ts';
import { readUntil } from './until-option.ts';

export const runUsage = `Usage: ckpt-lab run SCENARIO [--seed N] [--until DURATION] [--json] [--lang en|zh-CN]

Runs SCENARIO (a .yaml or .json scenario file) in the deterministic simulator.
  --seed N            override the scenario's seed (an integer from 0 to 4294967295)
  --until DURATION    run this much virtual time (Flink syntax: 500 ms, 10 s, 2 min)
  --json              print one JSON document instead of a summary; its \`findings\` are what the
                      checkpoint doctor says about the run's checkpoints (as in ckpt-lab inspect)
${LANG_USAGE}
`;


interface RunArguments {
  file: string;
  seed?: number;
  until?: number;
  json: boolean;
  locale: MessageLocale;
}

/** `ckpt-lab run`: validates the scenario (nothing runs on invalid input), runs it, reports. */
export function runRunCommand(args: string[], readFile: ReadFile, lsmStorage?: LsmStorageFactory, showProgress?: ShowProgress): CommandResult {
  const parsed = parseRunArguments(args);
  if (typeof parsed === 'string') return usageError(parsed);
  if (parsed.file === '--help') return { stdout: runUsage, stderr: '', exitCode: 0 };
  const valid = readScenarioFile(parsed.file, readFile, (document) => withRunLength(document, parsed.until), parsed.locale);
  if (!valid.ok) return 'unreadable' in valid ? { stdout: '', stderr: `ckpt-lab run: ${valid.unreadable}\n`, exitCode: 2 } : invalidScenario(parsed.file, valid.invalid);
  const options = {
    ...(parsed.seed === undefined ? {} : { seed: parsed.seed }),
    ...(parsed.until === undefined ? {} : { until: parsed.until }),
    ...(lsmStorage ? { lsmStorage } : {}),
    ...(showProgress ? { progress: (p: RunProgress) => showProgress(runProgressLine(p)) } : {}),
  };
  const { report, simulation } = runScenario(valid.scenario, options);
  const findings = diagnose(runDoctorDocuments(simulation, report.output.duplicates));
  const failed = report.expectations.some((e) => !e.held);
  const notes = valid.notes.map((n) => `note: ${n}\n`).join('');
  const stdout = parsed.json ? `${JSON.stringify({ ...report, findings }, null, 2)}\n` : `${formatSummary(report, valid.scenario, parsed.locale)}\n${doctorReportLines(findings, parsed.locale).join('\n')}\n`;
  return { stdout, stderr: notes, exitCode: failed ? 1 : 0 };
}

/** `--until` stands in for the file's `run.until`, so an unbounded scenario without one can run. */
function withRunLength(document: unknown, until: number | undefined): unknown {
  if (until === undefined || typeof document !== 'object' || document === null || Array.isArray(document)) return document;
  const run = (document as { run?: unknown }).run;
  const base = typeof run === 'object' && run !== null && !Array.isArray(run) ? run : {};
  return { ...document, run: { ...base, until: `${until} ms` } };
}

function parseRunArguments(args: string[]): RunArguments | string {
  const out: Partial<RunArguments> & { json: boolean; locale: MessageLocale } = { json: false, locale: 'en' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') out.json = true;
    else if (arg === '-h' || arg === '--help') return { file: '--help', json: false, locale: 'en' };
    else if (arg === '--lang') {
      const lang = readLang(args[++i]);
      if ('problem' in lang) return lang.problem;
      out.locale = lang.locale;
    }
    else if (arg === '--seed' || arg === '--until') {
      const value = args[++i];
      if (value === undefined) return `${arg} needs a value`;
      const problem = arg === '--seed' ? setSeed(out, value) : setUntil(out, value);
      if (problem) return problem;
    } else if (arg.startsWith('-')) return `unknown option "${arg}" (allowed: --seed, --until, --json) or --lang en|zh-CN`;
    else if (out.file !== undefined) return `only one SCENARIO file may be given, got "${out.file}" and "${arg}"`;
    else out.file = arg;
  }
  if (out.file === undefined) return 'missing SCENARIO (a .yaml or .json scenario file)';
  return out as RunArguments;
}

function setSeed(out: Partial<RunArguments>, value: string): string | undefined {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 4294967295) return `--seed must be an integer from 0 to 4294967295, got "${value}"`;
  out.seed = n;
  return undefined;
}

function setUntil(out: Partial<RunArguments>, value: string): string | undefined {
  const until = readUntil(value);
  if ('problem' in until) return until.problem;
  out.until = until.ms;
  return undefined;
}

function usageError(message: string): CommandResult {
  return { stdout: '', stderr: `ckpt-lab run: ${message}\n\n${runUsage}`, exitCode: 2 };
}

function invalidScenario(file: string, errors: string): CommandResult {
  return { stdout: '', stderr: `ckpt-lab run: ${file} is not a valid scenario; nothing was run.\n${errors}\n`, exitCode: 2 };
}

/**
 * The human summary: what ran (the scenario's name in `--lang`'s language when its file gives
 * one), the vertices' figures (one row per vertex with its parallelism, never a row per subtask),
 * the sink, and each expectation.
 */
export function formatSummary(r: RunReport, scenario?: Pick<Scenario, 'runtime' | 'job' | 'name' | 'description' | 'translations'>, locale: MessageLocale = 'en'): string {
  const scale = scenario?.runtime === 'scale';
  const parallelism = new Map(scenario?.job.vertices.map((v) => [v.id, v.parallelism]) ?? []);
  const lines = [
    `${scenario ? scenarioTextIn(scenario, 'name', locale) : r.scenario.name} — seed ${r.scenario.seed}, ${seconds(r.scenario.virtual_time_ms)} of virtual time${scale ? ' (scale runtime: subtasks modelled by flows)' : ''}`,
    `job ${r.job.status}, ${r.job.restarts} restarts${r.job.failureCause ? ` — ${r.job.failureCause}` : ''}`,
    ...checkpointLines(r),
    ...faultLines(r),
    '',
    'vertex           parallelism   records in   records out   busy   backpressured',
  ];
  for (const [id, v] of Object.entries(r.metrics.vertices)) {
    lines.push(
      `${id.padEnd(16)} ${String(parallelism.get(id) ?? '').padStart(11)} ${String(v.numRecordsIn).padStart(12)} ${String(v.numRecordsOut).padStart(13)} ${pct(v.busyTimeMsPerSecond).padStart(6)} ${pct(v.backPressuredTimeMsPerSecond).padStart(15)}`,
    );
  }
  if (scale) lines.push('', 'sink: the scale runtime moves no records, so there is no sink output to compare');
  else lines.push(...sinkLines(r));
  if (r.expectations.length > 0) lines.push('', 'expectations:');
  for (const e of r.expectations) lines.push(`  ${e.held ? 'ok  ' : 'FAIL'} ${describeExpectation(e.expectation)}: ${e.actual}`);
  return lines.join('\n') + '\n';
}

function sinkLines(r: RunReport): string[] {
  const lines: string[] = [];
  const keys = Object.keys(r.output.perKey);
  lines.push('', `sink: ${r.output.totalRecords} records for ${keys.length} keys; ${r.output.duplicates} duplicates, ${r.output.missing} missing against the failure-free run`);
  for (const key of keys.slice(0, 10)) {
    const k = r.output.perKey[key]!;
    lines.push(`  ${key.padEnd(20)} records ${k.records}, last value ${k.last}, sum ${k.sum}`);
  }
  if (keys.length > 10) lines.push(`  … ${keys.length - 10} more keys (use --json for all)`);
  return lines;
}

/** Each fault as it came due; one that could not be carried out says why. */
function faultLines(r: RunReport): string[] {
  return r.faults.map((f) => (f.applied ? `fault at ${seconds(f.time)}: ${f.description}` : `fault at ${seconds(f.time)} not applied (${f.faultType}): ${f.reason}`));
}

function checkpointLines(r: RunReport): string[] {
  if ((r.checkpoints as { counts: { total: number } }).counts.total === 0 && r.restores.length === 0) {
    return ['checkpoints: none (periodic checkpoints are off unless execution.checkpointing.interval is set)'];
  }
  const stats = r.checkpoints as {
    counts: { total: number; completed: number; failed: number; restored: number };
    latest: { completed: { id: number; end_to_end_duration: number; checkpointed_size: number; state_size: number } | null; failed: { id: number; failure_message: string } | null };
  };
  const c = stats.counts;
  const lines = [`checkpoints: ${c.total} triggered, ${c.completed} completed, ${c.failed} failed, ${c.restored} restored`];
  const last = stats.latest.completed;
  if (last) lines.push(`  latest completed: #${last.id}, ${Math.round(last.end_to_end_duration)} ms end to end, ${bytes(last.checkpointed_size)} checkpointed of ${bytes(last.state_size)} full`);
  const failed = stats.latest.failed;
  if (failed) lines.push(`  latest failed: #${failed.id}: ${failed.failure_message}`);
  for (const restore of r.restores) {
    const b = restore.subtasks.reduce((n, s) => n + s.bytes, 0);
    const slowest = Math.max(0, ...restore.subtasks.map((s) => s.durationMs));
    const local = restore.subtasks.filter((s) => s.source === 'local').length;
    const where = `${local} ${local === 1 ? 'subtask' : 'subtasks'} from local copies, ${restore.subtasks.length - local} from remote`;
    lines.push(`  restored at ${seconds(restore.time)} from ${restore.isSavepoint ? 'savepoint' : 'checkpoint'} #${restore.checkpointId}: ${bytes(b)} (${where}), slowest subtask ${Math.round(slowest)} ms, ${catchUpText(restore.catchUpMs)}`);
    lines.push(...restore.subtasks.flatMap(mixedHandlesLine));
  }
  return lines;
}

/**
 * A subtask whose state handles came from both sides (a partial or partly damaged local copy):
 * which handles locally, which remotely and why. Nothing for a subtask restored from one side.
 */
function mixedHandlesLine(s: { vertexId: string; subtaskIndex: number; handles?: HandleRestore[] }): string[] {
  const handles = s.handles ?? [];
  const local = handles.filter((h) => h.source === 'local');
  const other = handles.filter((h) => h.source !== 'local');
  if (local.length === 0 || other.length === 0) return [];
  const sum = (hs: HandleRestore[]) => bytes(hs.reduce((n, h) => n + h.bytes, 0));
  const named = (hs: HandleRestore[]) => hs.map((h) => (h.keyGroupRange ? `${h.kind} ${h.keyGroupRange.start}-${h.keyGroupRange.end}` : h.kind)).join(', ');
  const reasons = [...new Set(other.map((h) => h.reason ?? 'unknown'))].join(', ');
  return [`    ${s.vertexId}#${s.subtaskIndex} mixed: ${local.length} handles local (${sum(local)}: ${named(local)}), ${other.length} remote (${sum(other)}: ${named(other)}; ${reasons})`];
}

/** How long the sources' backlog took to get back to its level before the failure. */
function catchUpText(catchUpMs: number | null): string {
  return catchUpMs === null ? 'sources not caught up yet' : `sources caught up ${seconds(catchUpMs)} later`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}

const bytes = reportBytes;

function pct(msPerSecond: number): string {
  return `${Math.round(msPerSecond / 10)}%`;
}

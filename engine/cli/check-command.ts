/**
 * `ckpt-lab check`: runs scenario files in the simulator, each with its own seed and run length,
 * and says which expectations held: the command docs CI runs over the scenarios a page shows.
 * With `--live` the same files run on the live runtime in headless Chromium (through an injected
 * LiveCheckRunner) and are reported the same way.
 * A bad file does not stop the others; its exit code (2) wins over a failed expectation (1).
 */
import { readScenarioFile } from './scenario-file.ts';
import { runScenario } from '../run/run-report.ts';
import { describeExpectation, type ExpectationResult } from '../run/expectations.ts';
import { failureLine } from '../run/expectation-failure.ts';
import type { CommandResult, ReadFile, ShowProgress } from './command-result.ts';
import { runProgressLine } from './progress-line.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import type { RunProgress } from '../run/run-progress.ts';
import type { LiveCheckOutcome, LiveCheckRequest, LiveCheckRunner } from './live-check-runner.ts';
import type { MessageLocale } from '../messages/message-codes.ts';
import { LANG_USAGE, readLang } from './lang-option.ts';
import { scenarioTextIn } from '../scenario/localized-text.ts';

export const checkUsage = `Usage: ckpt-lab check SCENARIO... [--live] [--json] [--lang en|zh-CN]

Runs each SCENARIO (a .yaml or .json scenario file) in the deterministic simulator, with the seed
and run length the file gives, and checks its expectations. Prints PASS or FAIL per scenario and,
per failed expectation, what was expected and what was seen.
  --live              run them on the live runtime instead: headless Chromium (CHROMIUM_PATH, or
                      /usr/bin/chromium and other usual places), a Web Worker per TaskManager,
                      checkpoints in IndexedDB; each runs its run length of wall-clock time, or
                      until the job ends. Needs playwright-core and vite (npm install in a checkout)
  --json              print one JSON array: [{ file, scenario, passed, expectations: [{ description, held, seen }] }]
${LANG_USAGE}

Exit codes: 0 every expectation held; 1 an expectation failed; 2 a file could not be read or is not
a valid scenario, or could not run live (the other files still run), or bad usage, or no browser
for --live.
`;


/** One file's outcome: its expectations, or why it could not run. */
export interface ScenarioCheck {
  file: string;
  /** the scenario's name; null when the file could not be read or is not a valid scenario */
  scenario: string | null;
  passed: boolean;
  expectations: { description: string; held: boolean; seen: string }[];
  /** why the file did not run (absent when it ran) */
  invalid?: string;
  /** the file is a valid scenario but the live runtime could not run it (absent when it ran) */
  notRun?: boolean;
  /** the validator's notes (rewritten Flink keys, …) */
  notes?: string[];
  /** `expected …, got …`, one per failed expectation (text output only) */
  failures?: string[];
}

export function runCheckCommand(args: string[], readFile: ReadFile, lsmStorage?: LsmStorageFactory, showProgress?: ShowProgress): CommandResult {
  const parsed = parseCheckArguments(args);
  if ('problem' in parsed) return usageProblem(parsed.problem);
  if ('help' in parsed) return { stdout: checkUsage, stderr: '', exitCode: 0 };
  if (parsed.live) return usageProblem('--live needs a browser to run in, which only the ckpt-lab command provides (runLiveCheckCommand)');
  const checks = parsed.files.map((file, i) =>
    checkFile(file, readFile, parsed.locale, lsmStorage, showProgress && ((line) => showProgress(`${file} (${i + 1} of ${parsed.files.length}): ${line}`))),
  );
  return checkResult(checks, parsed.json);
}

/**
 * `ckpt-lab check --live`: validates every file first (nothing runs on invalid input), then runs
 * the valid ones on the live runtime through `runner`, one browser for all of them.
 */
export async function runLiveCheckCommand(args: string[], readFile: ReadFile, runner: LiveCheckRunner, showProgress?: ShowProgress): Promise<CommandResult> {
  const parsed = parseCheckArguments(args);
  if ('problem' in parsed) return usageProblem(parsed.problem);
  if ('help' in parsed) return { stdout: checkUsage, stderr: '', exitCode: 0 };
  const files = parsed.files.map((file) => validFile(file, readFile, parsed.locale));
  const requests = files.flatMap((f): LiveCheckRequest[] => ('text' in f ? [{ file: f.file, text: f.text }] : []));
  const ran = requests.length === 0 ? { outcomes: [] } : await runner(requests, showProgress);
  if ('unavailable' in ran) return { stdout: '', stderr: `ckpt-lab check --live: ${ran.unavailable}\n`, exitCode: 2 };
  let next = 0;
  const checks = files.map((f) => ('text' in f ? liveCheck(f, ran.outcomes[next++]!) : f));
  return checkResult(checks, parsed.json);
}

function usageProblem(problem: string): CommandResult {
  return { stdout: '', stderr: `ckpt-lab check: ${problem}\n\n${checkUsage}`, exitCode: 2 };
}

function checkResult(checks: readonly ScenarioCheck[], json: boolean): CommandResult {
  const exitCode = checks.some((c) => c.invalid !== undefined) ? 2 : checks.some((c) => !c.passed) ? 1 : 0;
  const stderr = checks.flatMap(problemLines).join('');
  return { stdout: json ? jsonOutput(checks) : textOutput(checks), stderr, exitCode };
}

interface CheckArguments {
  files: string[];
  json: boolean;
  live: boolean;
  locale: MessageLocale;
}

function parseCheckArguments(args: string[]): CheckArguments | { help: true } | { problem: string } {
  const out: CheckArguments = { files: [], json: false, live: false, locale: 'en' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') out.json = true;
    else if (arg === '--live') out.live = true;
    else if (arg === '-h' || arg === '--help') return { help: true };
    else if (arg === '--lang') {
      const lang = readLang(args[++i]);
      if ('problem' in lang) return lang;
      out.locale = lang.locale;
    } else if (arg.startsWith('-')) return { problem: `unknown option "${arg}" (allowed: --live, --json) or --lang en|zh-CN` };
    else out.files.push(arg);
  }
  return out.files.length === 0 ? { problem: 'missing SCENARIO (one or more .yaml or .json scenario files)' } : out;
}

/** A file to run live: its text and scenario name, or the check that says why it cannot run. */
function validFile(file: string, readFile: ReadFile, locale: MessageLocale): ScenarioCheck | { file: string; text: string; scenario: string; notes: string[] } {
  const read = readFile(file);
  if (!read.ok) return invalidCheck(file, { unreadable: read.message });
  const valid = readScenarioFile(file, () => read, undefined, locale);
  return valid.ok ? { file, text: read.text, scenario: scenarioTextIn(valid.scenario, 'name', locale), notes: valid.notes } : invalidCheck(file, valid);
}

function liveCheck(f: { file: string; scenario: string; notes: string[] }, outcome: LiveCheckOutcome): ScenarioCheck {
  if (!outcome.ran) return { file: f.file, scenario: f.scenario, passed: false, expectations: [], notRun: true, invalid: `${f.file} could not run on the live runtime: ${outcome.reason}` };
  return expectationsCheck(f.file, f.scenario, f.notes, outcome.expectations);
}

/** Validates and runs one file; invalid input becomes a value, so the next file still runs. */
function checkFile(file: string, readFile: ReadFile, locale: MessageLocale, lsmStorage: LsmStorageFactory | undefined, showProgress: ShowProgress | undefined): ScenarioCheck {
  const valid = readScenarioFile(file, readFile, undefined, locale);
  if (!valid.ok) return invalidCheck(file, valid);
  const progress = showProgress && ((p: RunProgress) => showProgress(runProgressLine(p)));
  const { report } = runScenario(valid.scenario, { ...(lsmStorage ? { lsmStorage } : {}), ...(progress ? { progress } : {}) });
  // Named in --lang's language where the file gives one, as `run`'s summary is.
  return expectationsCheck(file, scenarioTextIn(valid.scenario, 'name', locale), valid.notes, report.expectations);
}

function invalidCheck(file: string, problem: { unreadable: string } | { invalid: string }): ScenarioCheck {
  const invalid = 'unreadable' in problem ? problem.unreadable : `${file} is not a valid scenario; it was not run.\n${problem.invalid}`;
  return { file, scenario: null, passed: false, expectations: [], invalid };
}

/** The same outcome whichever runtime checked the expectations. */
function expectationsCheck(file: string, scenario: string, notes: string[], results: readonly ExpectationResult[]): ScenarioCheck {
  return {
    file,
    scenario,
    passed: results.every((r) => r.held),
    expectations: results.map(expectationOutcome),
    notes,
    failures: results.filter((r) => !r.held).map(failureLine),
  };
}

function expectationOutcome(r: ExpectationResult): ScenarioCheck['expectations'][number] {
  return { description: describeExpectation(r.expectation), held: r.held, seen: r.seen };
}

function textOutput(checks: readonly ScenarioCheck[]): string {
  const lines = checks.flatMap((c) => {
    if (c.notRun) return [`NOT RUN  ${c.scenario} — ${c.file}`];
    if (c.invalid !== undefined) return [`INVALID  ${c.file}`];
    return [`${c.passed ? 'PASS' : 'FAIL'}     ${c.scenario} — ${c.file}`, ...(c.failures ?? []).map((f) => `           ${f}`)];
  });
  const count = (p: (c: ScenarioCheck) => boolean) => checks.filter(p).length;
  const notRun = count((c) => c.notRun === true);
  const total = `passed ${count((c) => c.passed)}, failed ${count((c) => !c.passed && c.invalid === undefined)}, invalid ${count((c) => c.invalid !== undefined && !c.notRun)}${notRun > 0 ? `, not run ${notRun}` : ''}`;
  return `${lines.join('\n')}\n\n${total}\n`;
}

function jsonOutput(checks: readonly ScenarioCheck[]): string {
  const documents = checks.map(({ file, scenario, passed, expectations, invalid }) => ({ file, scenario, passed, expectations, ...(invalid === undefined ? {} : { invalid }) }));
  return `${JSON.stringify(documents, null, 2)}\n`;
}

/** Unreadable or invalid files and the validator's notes go to stderr, as `ckpt-lab run` prints them. */
function problemLines(c: ScenarioCheck): string[] {
  if (c.invalid !== undefined) return [`ckpt-lab check: ${c.invalid}\n`];
  return (c.notes ?? []).map((n) => `note: ${c.file}: ${n}\n`);
}

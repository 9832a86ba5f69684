/**
 * `ckpt-lab check`: runs scenario files in the simulator, each with its own seed and run length,
 * and says which expectations held: the command docs CI runs over the scenarios a page shows.
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

export const checkUsage = `Usage: ckpt-lab check SCENARIO... [--json]

Runs each SCENARIO (a .yaml or .json scenario file) in the deterministic simulator, with the seed
and run length the file gives, and checks its expectations. Prints PASS or FAIL per scenario and,
per failed expectation, what was expected and what was seen.
  --json              print one JSON array: [{ file, scenario, passed, expectations: [{ description, held, seen }] }]

Exit codes: 0 every expectation held; 1 an expectation failed; 2 a file could not be read or is not
a valid scenario (the other files still run), or bad usage.
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
  /** the validator's notes (rewritten Flink keys, …) */
  notes?: string[];
  /** `expected …, got …`, one per failed expectation (text output only) */
  failures?: string[];
}

export function runCheckCommand(args: string[], readFile: ReadFile, lsmStorage?: LsmStorageFactory, showProgress?: ShowProgress): CommandResult {
  const parsed = parseCheckArguments(args);
  if ('problem' in parsed) return { stdout: '', stderr: `ckpt-lab check: ${parsed.problem}\n\n${checkUsage}`, exitCode: 2 };
  if ('help' in parsed) return { stdout: checkUsage, stderr: '', exitCode: 0 };
  const checks = parsed.files.map((file, i) => checkFile(file, readFile, lsmStorage, showProgress && ((line) => showProgress(`${file} (${i + 1} of ${parsed.files.length}): ${line}`))));
  const exitCode = checks.some((c) => c.invalid !== undefined) ? 2 : checks.some((c) => !c.passed) ? 1 : 0;
  const stderr = checks.flatMap(problemLines).join('');
  return { stdout: parsed.json ? jsonOutput(checks) : textOutput(checks), stderr, exitCode };
}

function parseCheckArguments(args: string[]): { files: string[]; json: boolean } | { help: true } | { problem: string } {
  const files: string[] = [];
  let json = false;
  for (const arg of args) {
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') return { help: true };
    else if (arg === '--live') return { problem: '--live (headless Chromium) is not available yet; check runs scenarios in the deterministic simulator only' };
    else if (arg.startsWith('-')) return { problem: `unknown option "${arg}" (allowed: --json)` };
    else files.push(arg);
  }
  return files.length === 0 ? { problem: 'missing SCENARIO (one or more .yaml or .json scenario files)' } : { files, json };
}

/** Validates and runs one file; invalid input becomes a value, so the next file still runs. */
function checkFile(file: string, readFile: ReadFile, lsmStorage: LsmStorageFactory | undefined, showProgress: ShowProgress | undefined): ScenarioCheck {
  const invalid = (message: string): ScenarioCheck => ({ file, scenario: null, passed: false, expectations: [], invalid: message });
  const valid = readScenarioFile(file, readFile);
  if (!valid.ok) return invalid('unreadable' in valid ? valid.unreadable : `${file} is not a valid scenario; it was not run.\n${valid.invalid}`);
  const progress = showProgress && ((p: RunProgress) => showProgress(runProgressLine(p)));
  const { report } = runScenario(valid.scenario, { ...(lsmStorage ? { lsmStorage } : {}), ...(progress ? { progress } : {}) });
  const results = report.expectations;
  return {
    file,
    scenario: valid.scenario.name,
    passed: results.every((r) => r.held),
    expectations: results.map(expectationOutcome),
    notes: valid.notes,
    failures: results.filter((r) => !r.held).map(failureLine),
  };
}

function expectationOutcome(r: ExpectationResult): ScenarioCheck['expectations'][number] {
  return { description: describeExpectation(r.expectation), held: r.held, seen: r.seen };
}

function textOutput(checks: readonly ScenarioCheck[]): string {
  const lines = checks.flatMap((c) => {
    if (c.invalid !== undefined) return [`INVALID  ${c.file}`];
    return [`${c.passed ? 'PASS' : 'FAIL'}     ${c.scenario} — ${c.file}`, ...(c.failures ?? []).map((f) => `           ${f}`)];
  });
  const count = (p: (c: ScenarioCheck) => boolean) => checks.filter(p).length;
  const total = `passed ${count((c) => c.passed)}, failed ${count((c) => !c.passed && c.invalid === undefined)}, invalid ${count((c) => c.invalid !== undefined)}`;
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

import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { runScenario } from '../../engine/run/run-report.ts';
import type { RunProgress } from '../../engine/run/run-progress.ts';
import { TerminalProgress, type ProgressStream } from '../../engine/cli/terminal-progress.ts';
import { chaosProgressLine, runProgressLine } from '../../engine/cli/progress-line.ts';
import { runRunCommand } from '../../engine/cli/run-command.ts';
import { runCheckCommand } from '../../engine/cli/check-command.ts';
import { tiny } from './tiny-scenario.ts';

/** A stand-in for process.stderr that keeps what was written. */
function fakeStream(isTTY: boolean, columns?: number): ProgressStream & { written: string } {
  const stream = { isTTY, written: '', write: (text: string) => ((stream.written += text), true), ...(columns === undefined ? {} : { columns }) };
  return stream;
}

/** 20 s of job time: two sources of 10,000 records at 1,000 records/s, a failure at 5 s. */
const LONG = tiny('  - { type: exactly-once }\n').replace('rate_per_s: 1000, count: 400', 'rate_per_s: 1000, count: 20000').replace('at: 250 ms', 'at: 5 s');

function scenarioOf(text: string) {
  const parsed = parseScenarioText(text);
  if (!parsed.ok) throw new Error('test scenario does not parse');
  const valid = validateScenario(parsed.value);
  if (!valid.ok) throw new Error(`test scenario is invalid: ${JSON.stringify(valid.errors)}`);
  return valid.scenario;
}

describe('the progress line on a terminal', () => {
  it('rewrites itself in place with a carriage return and a clear-line', () => {
    const stream = fakeStream(true);
    const progress = new TerminalProgress(stream);
    progress.show('one');
    progress.show('two');
    expect(stream.written).toBe('\r\x1b[2Kone\r\x1b[2Ktwo');
  });

  it('ends with a newline before the output, and only once', () => {
    const stream = fakeStream(true);
    const progress = new TerminalProgress(stream);
    progress.show('done');
    progress.end();
    progress.end();
    expect(stream.written).toBe('\r\x1b[2Kdone\n');
  });

  it('writes nothing when nothing was shown, even at the end', () => {
    const stream = fakeStream(true);
    new TerminalProgress(stream).end();
    expect(stream.written).toBe('');
  });

  it('writes nothing at all when the stream is not a terminal', () => {
    const stream = fakeStream(false);
    const progress = new TerminalProgress(stream);
    progress.show('one');
    progress.clear();
    progress.end();
    expect(progress.enabled).toBe(false);
    expect(stream.written).toBe('');
  });

  it('is cut to the terminal width so that it never wraps', () => {
    const stream = fakeStream(true, 10);
    new TerminalProgress(stream).show('a line much longer than ten columns');
    expect(stream.written).toBe('\r\x1b[2Ka line m…');
  });

  it('clears itself for other output and draws again on the next line shown', () => {
    const stream = fakeStream(true);
    const progress = new TerminalProgress(stream);
    progress.show('seed 1');
    progress.clear();
    progress.end();
    expect(stream.written).toBe('\r\x1b[2Kseed 1\r\x1b[2K');
  });
});

describe('the progress line says how far the run came', () => {
  const base: RunProgress = { phase: 'run', jobTimeMs: 12_345, untilMs: 60_000, completedCheckpoints: 11, failedCheckpoints: 1, restarts: 1, jobStatus: 'RUNNING' };

  it('gives job time of the run length, checkpoints completed and failed, restarts and the job status', () => {
    expect(runProgressLine(base)).toBe('job time 12.3 s of 60.0 s, 11 checkpoints completed, 1 failed, 1 restart, job RUNNING');
  });

  it('counts in the singular and plural', () => {
    expect(runProgressLine({ ...base, completedCheckpoints: 1, restarts: 2 })).toBe('job time 12.3 s of 60.0 s, 1 checkpoint completed, 1 failed, 2 restarts, job RUNNING');
  });

  it('gives the job time alone for a run that goes on until the job ends', () => {
    expect(runProgressLine({ ...base, untilMs: null })).toMatch(/^job time 12\.3 s, /);
  });

  it('names the failure-free reference run while it runs', () => {
    expect(runProgressLine({ ...base, phase: 'reference' })).toBe('failure-free reference run: job time 12.3 s of 60.0 s');
  });

  it('gives a chaos sweep\'s seeds done, failing seeds, checkpoints and restarts', () => {
    expect(chaosProgressLine({ seed: 100_041, done: 42, of: 10_000, failing: 1, checkpoints: 1, restarts: 300 })).toBe('seed 100041 (42 of 10000), 1 failing seed, 1 checkpoint completed, 300 restarts');
  });
});

describe('a run reports its progress', () => {
  it('as job time moves on, in order, ending with the run as it finished, without changing its result', () => {
    const scenario = scenarioOf(LONG);
    const seen: RunProgress[] = [];
    const withProgress = runScenario(scenario, { progress: (p) => seen.push(p) });
    const without = runScenario(scenario);
    expect(JSON.stringify(withProgress.report)).toBe(JSON.stringify(without.report));
    const run = seen.filter((p) => p.phase === 'run');
    expect(run.length).toBeGreaterThanOrEqual(10);
    for (let i = 1; i < run.length; i++) expect(run[i]!.jobTimeMs).toBeGreaterThanOrEqual(run[i - 1]!.jobTimeMs);
    const last = run.at(-1)!;
    const { counts } = withProgress.report.checkpoints as { counts: { completed: number; failed: number } };
    expect(last).toMatchObject({ jobTimeMs: withProgress.report.scenario.virtual_time_ms, completedCheckpoints: counts.completed, failedCheckpoints: counts.failed, restarts: withProgress.report.job.restarts, jobStatus: 'FINISHED' });
    expect(last.restarts).toBe(1);
    expect(seen.filter((p) => p.phase === 'reference').at(-1)!.restarts).toBe(0);
  });

  it('through ckpt-lab run and check, to the progress sink they are given', () => {
    const read = () => ({ ok: true as const, text: LONG });
    const runLines: string[] = [];
    expect(runRunCommand(['long.yaml', '--json'], read, undefined, (line) => runLines.push(line)).exitCode).toBe(0);
    expect(runLines.filter((l) => l.startsWith('job time')).at(-1)).toMatch(/^job time 20\.\d s, \d+ checkpoints completed, 0 failed, 1 restart, job FINISHED$/);
    const checkLines: string[] = [];
    runCheckCommand(['a.yaml', 'b.yaml'], read, undefined, (line) => checkLines.push(line));
    expect(checkLines.some((l) => l.startsWith('a.yaml (1 of 2): job time'))).toBe(true);
    expect(checkLines.at(-1)).toMatch(/^b\.yaml \(2 of 2\): failure-free reference run: job time/);
  });
});

describe('ckpt-lab run as a process', () => {
  const bin = JSON.parse(readFileSync('package.json', 'utf8')).bin['ckpt-lab'] as string;
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-lab-progress-'));
  const file = join(dir, 'long.yaml');
  writeFileSync(file, LONG);

  it('writes nothing on stderr when stderr is a pipe, and --json stays one clean document', () => {
    const run = spawnSync(process.execPath, [bin, 'run', file, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout).job.status).toBe('FINISHED');
  });

  it('shows its progress on stderr when stderr is a terminal, ending with a newline, and --json stays clean on stdout', () => {
    // script(1) gives the command a pseudo-terminal; stdout goes to a file, so what script captures is stderr
    const json = join(dir, 'out.json');
    const terminal = execFileSync('script', ['-qec', `"${process.execPath}" "${bin}" run "${file}" --json > "${json}"`, '/dev/null'], { encoding: 'utf8' });
    expect(terminal).toContain('\r\x1b[2Kjob time');
    expect(terminal).toMatch(/failure-free reference run: job time 20\.\d s\r?\n$/);
    expect(JSON.parse(readFileSync(json, 'utf8')).job.restarts).toBe(1);
  });
});

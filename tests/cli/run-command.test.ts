import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { runRunCommand } from '../../engine/cli/run-command.ts';
import { tiny } from './tiny-scenario.ts';

const files: Record<string, string> = {
  'ok.yaml': tiny('  - { type: exactly-once }\n  - { type: job-status, status: FINISHED }\n'),
  'unbounded.yaml': `
version: 1
name: Unbounded
job:
  vertices:
    - { id: src, type: source, source: { kind: sequence, keys: 4, rate_per_s: 1000 } }
    - { id: sink, type: sink }
  edges:
    - { from: src, to: sink }
`,
};
files['failing.yaml'] = files['ok.yaml']!.replace('{ type: job-status, status: FINISHED }', '{ type: min-sink-records, value: 1000000 }');
files['typo.yaml'] = files['ok.yaml']!.replace('execution.checkpointing.interval', 'execution.checkpointing.intervall');

const read = (path: string) => (path in files ? { ok: true as const, text: files[path]! } : { ok: false as const, message: `cannot read scenario file "${path}": no such file` });
const run = (...args: string[]) => runRunCommand(args, read);

describe('ckpt-lab run', () => {
  it('exits 0 and prints a summary when every expectation holds', () => {
    const r = run('ok.yaml');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/job FINISHED, 1 restarts/);
    expect(r.stdout).toMatch(/ok {3}sink output equals the failure-free output/);
  });

  it('exits 1 when an expectation does not hold, and says which', () => {
    const r = run('failing.yaml');
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/FAIL at least 1000000 records reach the sink/);
  });

  it('prints one JSON document with the contract keys under --json', () => {
    const r = run('ok.yaml', '--json');
    const doc = JSON.parse(r.stdout);
    for (const key of ['checkpoints', 'checkpointConfig', 'checkpointDetails', 'restores', 'output', 'job', 'expectations']) expect(doc).toHaveProperty(key);
    expect(doc.job).toMatchObject({ status: 'FINISHED', restarts: 1 });
    expect(doc.output).toMatchObject({ totalRecords: 800, duplicates: 0, missing: 0 });
    expect(doc.restores[0].subtasks[0]).toHaveProperty('source', 'remote');
    expect(doc.checkpoints.counts.completed).toBeGreaterThan(0);
    expect(Object.keys(doc.checkpointDetails).length).toBeGreaterThan(0);
  });

  it('gives the same document for the same seed and another for another seed', () => {
    const a = run('ok.yaml', '--json', '--seed', '9').stdout;
    expect(run('ok.yaml', '--json', '--seed', '9').stdout).toBe(a);
    expect(JSON.parse(a).scenario.seed).toBe(9);
    expect(run('ok.yaml', '--json', '--seed', '10').stdout).not.toBe(a);
  });

  it('stops at --until, in Flink duration syntax', () => {
    const doc = JSON.parse(run('unbounded.yaml', '--json', '--until', '1500 ms').stdout);
    expect(doc.scenario.virtual_time_ms).toBe(1500);
    expect(doc.job.status).toBe('RUNNING');
  });

  it.each([
    [['missing.yaml'], /cannot read scenario file "missing.yaml": no such file/],
    [[], /missing SCENARIO/],
    [['ok.yaml', '--seed', 'x'], /--seed must be an integer from 0 to 4294967295, got "x"/],
    [['ok.yaml', '--until', 'soon'], /--until must be a duration/],
    [['ok.yaml', '--speed', '2'], /unknown option "--speed" \(allowed: --seed, --until, --json\)/],
    [['unbounded.yaml'], /run.until: required because source "src" is unbounded/],
    [['typo.yaml'], /did you mean "execution.checkpointing.interval"/],
  ])('exits 2 with a clear message and runs nothing for %j', (args, message) => {
    const r = run(...(args as string[]));
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('the ckpt-lab command', () => {
  it('runs an example scenario through the package bin and exits with its code', () => {
    const bin = JSON.parse(readFileSync('package.json', 'utf8')).bin['ckpt-lab'];
    const out = execFileSync(process.execPath, [bin, 'run', 'public/scenarios/exactly-once-under-failures.yaml'], { encoding: 'utf8' });
    expect(out).toMatch(/0 duplicates, 0 missing against the failure-free run/);
  });

  it('prints each key\'s key group and subtask as Flink assigns them', () => {
    const bin = JSON.parse(readFileSync('package.json', 'utf8')).bin['ckpt-lab'];
    const out = JSON.parse(execFileSync(process.execPath, [bin, 'key-group', 'key-0', 'key-1', 'key-2', '--parallelism', '4', '--max-parallelism', '128', '--json'], { encoding: 'utf8' }));
    expect(out.keys.map((k: { keyGroup: number; subtask: number }) => [k.keyGroup, k.subtask])).toEqual([[31, 0], [54, 1], [126, 3]]);
  });

  it('exits 2 with the usage for an unknown command', () => {
    const bin = JSON.parse(readFileSync('package.json', 'utf8')).bin['ckpt-lab'];
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, [bin, 'rnu'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      status = (e as { status: number }).status;
      stderr = (e as { stderr: string }).stderr;
    }
    expect(status).toBe(2);
    expect(stderr).toMatch(/unknown command "rnu" \(allowed: run, check, compare, replay, key-group, inspect, export\)/);
  });
});

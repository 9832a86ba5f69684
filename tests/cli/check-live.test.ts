/**
 * `ckpt-lab check --live`: the scenarios run in headless Chromium on the live runtime (a Web
 * Worker per TaskManager, checkpoints in IndexedDB) and are reported as the sim check reports them.
 * Starts a browser: run it under `flock /tmp/browser.lock`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCkptLab } from './ckpt-lab-process.ts';
import { tiny } from './tiny-scenario.ts';

/**
 * A small bounded keyed count with a two-phase-commit sink that FINISHES after about 3 s of job
 * time, with a task failure at 1.5 s. Not tests/cli/tiny-scenario.ts: its failure at 250 ms of job
 * time raced the first deployment on a cold page (the first run of a session saw 0 restores),
 * where the sim deploys in no job time at all.
 */
const liveTiny = (expectations: string) => tiny(expectations, { name: 'Live tiny', ratePerS: 400, count: 1200, interval: '200 ms', failAt: '1500 ms' });

const scenarios = {
  'holds.yaml': liveTiny(`
  - { type: exactly-once }
  - { type: job-status, status: FINISHED }
  - { type: min-restores, value: 1 }
  - { type: min-sink-records, value: 2400 }
`),
  'fails.yaml': liveTiny(`
  - { type: exactly-once }
  - { type: min-sink-records, value: 1000000 }
  - { type: job-status, status: FAILED }
`),
  'typo.yaml': liveTiny(`
  - { type: restore-source, vertex: cnt, subtask: 1, source: local }
`),
};

let dir: string;
const path = (name: keyof typeof scenarios) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'check-live-'));
  for (const [name, text] of Object.entries(scenarios)) await writeFile(join(dir, name), text);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ckpt-lab check --live', () => {
  it('runs a scenario on Web Worker TaskManagers in Chromium and exits 0 with PASS when its expectations hold', async () => {
    const r = await runCkptLab(['check', '--live', path('holds.yaml')]);
    expect(r.stderr).toBe('');
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^PASS {5}Live tiny — .*holds\.yaml$/m);
    expect(r.stdout).toMatch(/^passed 1, failed 0, invalid 0$/m);
  }, 300_000);

  it('exits 1 and names each failed expectation with what the live run showed', async () => {
    const r = await runCkptLab(['check', '--live', path('fails.yaml'), '--json']);
    expect(r.exitCode, r.stdout).toBe(1);
    const [document] = JSON.parse(r.stdout) as { scenario: string; passed: boolean; expectations: { description: string; held: boolean; seen: string }[] }[];
    expect(document).toMatchObject({ scenario: 'Live tiny', passed: false });
    // The same figures as the sim check's for this job (`ckpt-lab check` of the same file): the bounded job's output is complete once it FINISHED.
    expect(document!.expectations).toEqual([
      { description: 'sink output equals the failure-free output', held: true, seen: 'duplicates 0, missing 0' },
      { description: 'at least 1000000 records reach the sink', held: false, seen: '2400' },
      { description: 'job status is FAILED', held: false, seen: 'FINISHED' },
    ]);
  }, 300_000);

  it('says which expectation failed in the text report, as the sim check does', async () => {
    const r = await runCkptLab(['check', '--live', path('fails.yaml'), path('holds.yaml')]);
    expect(r.exitCode, r.stdout).toBe(1);
    const lines = r.stdout.split('\n').map((l) => l.trim());
    expect(lines).toContain('expected sink records ≥ 1000000, got 2400');
    expect(lines).toContain('expected job status FAILED, got FINISHED');
    expect(lines.filter((l) => l.startsWith('expected'))).toHaveLength(2);
    expect(r.stdout).toMatch(/^FAIL {5}Live tiny — .*fails\.yaml$/m);
    expect(r.stdout).toMatch(/^PASS {5}Live tiny — .*holds\.yaml$/m);
    expect(r.stdout).toMatch(/^passed 1, failed 1, invalid 0$/m);
  }, 300_000);

  it('exits 2 naming CHROMIUM_PATH when it does not point at a browser, and runs nothing', async () => {
    const r = await runCkptLab(['check', '--live', path('holds.yaml')], { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^ckpt-lab check --live: CHROMIUM_PATH is set to \/nonexistent\/chromium, which is not an executable file\./);
  });

  it('exits 2 saying so when the program at CHROMIUM_PATH does not start as a browser', async () => {
    const r = await runCkptLab(['check', '--live', path('holds.yaml')], { ...process.env, CHROMIUM_PATH: '/bin/true' });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^ckpt-lab check --live: Chromium at \/bin\/true did not start: /);
  }, 120_000);

  it('exits 2 on a file that is not a valid scenario before it looks for a browser', async () => {
    const r = await runCkptLab(['check', '--live', path('typo.yaml')], { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toMatch(/^INVALID {2}.*typo\.yaml$/m);
    expect(r.stderr).toMatch(/expectations\[0\]\.vertex: no vertex has the id "cnt" \(allowed: src, count, sink\)/);
    expect(r.stderr).not.toContain('CHROMIUM_PATH');
  });
});

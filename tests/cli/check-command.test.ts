import { describe, expect, it } from 'vitest';
import { runCheckCommand } from '../../engine/cli/check-command.ts';
import { tiny } from './tiny-scenario.ts';



const files: Record<string, string> = {
  'holds.yaml': tiny(`
  - { type: exactly-once }
  - { type: job-status, status: FINISHED }
  - { type: restore-source, vertex: count, subtask: 1, source: remote, reason: local-recovery-disabled }
`),
  'fails.yaml': tiny(`
  - { type: exactly-once }
  - { type: restore-source, vertex: count, subtask: 1, source: local }
  - { type: statistic, statistic: end-to-end-duration, aggregate: p90, max: 1 ms }
  - { type: min-sink-records, value: 1000000 }
  - { type: job-status, status: FAILED }
`),
  'typo.yaml': tiny(`
  - { type: restore-source, vertex: cnt, subtask: 1, source: local }
`),
  'bad-restore.yaml': tiny(`
  - { type: restore-source, vertex: count, subtask: 5, source: nearby, restore: 0 }
`),
};

const read = (path: string) => (path in files ? { ok: true as const, text: files[path]! } : { ok: false as const, message: `cannot read scenario file "${path}": no such file` });
const check = (...args: string[]) => runCheckCommand(args, read);

describe('ckpt-lab check', () => {
  it.each([
    ['every expectation of every file held', ['holds.yaml'], 0],
    ['an expectation failed', ['holds.yaml', 'fails.yaml'], 1],
    ['a file is not a valid scenario, even next to a failing one', ['fails.yaml', 'typo.yaml'], 2],
    ['a file cannot be read', ['holds.yaml', 'missing.yaml'], 2],
    ['no file was given', [], 2],
    ['an unknown option was given', ['holds.yaml', '--seed', '4'], 2],
  ] as const)('exits with the right code when %s', (_name, args, exitCode) => {
    expect(check(...args).exitCode).toBe(exitCode);
  });

  it('prints one PASS or FAIL line per scenario with its name and file', () => {
    const r = check('holds.yaml', 'fails.yaml');
    expect(r.stdout).toMatch(/^PASS {5}Tiny — holds\.yaml$/m);
    expect(r.stdout).toMatch(/^FAIL {5}Tiny — fails\.yaml$/m);
    expect(r.stdout).toMatch(/^passed 1, failed 1, invalid 0$/m);
  });

  it('says what was expected and what was seen for each failed expectation, and nothing for those that held', () => {
    const lines = check('fails.yaml').stdout.split('\n').map((l) => l.trim());
    expect(lines).toContain('expected count#1 to restore from local, got remote (local-recovery-disabled)');
    expect(lines).toContain('expected p90 end-to-end-duration ≤ 1 ms, got 51.2 ms');
    expect(lines).toContain('expected sink records ≥ 1000000, got 800');
    expect(lines).toContain('expected job status FAILED, got FINISHED');
    expect(lines.filter((l) => l.startsWith('expected'))).toHaveLength(4);
  });

  it('reports a bad file and still runs the others', () => {
    const r = check('typo.yaml', 'holds.yaml', 'missing.yaml');
    expect(r.stdout).toMatch(/^INVALID {2}typo\.yaml$/m);
    expect(r.stdout).toMatch(/^PASS {5}Tiny — holds\.yaml$/m);
    expect(r.stdout).toMatch(/^INVALID {2}missing\.yaml$/m);
    expect(r.stderr).toContain('typo.yaml is not a valid scenario; it was not run.');
    expect(r.stderr).toMatch(/expectations\[0\]\.vertex: no vertex has the id "cnt" \(allowed: src, count, sink\)/);
    expect(r.stderr).toContain('cannot read scenario file "missing.yaml": no such file');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('names each bad field of a restore-source expectation and what is allowed', () => {
    const { stderr, exitCode } = check('bad-restore.yaml');
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(/expectations\[0\]\.subtask: "count" has parallelism 2, so it has no subtask 5 \(allowed: a subtask index from 0 to 1\)/);
    expect(stderr).toContain('expectations[0].source: unknown restore source "nearby" (allowed: local, remote)');
    expect(stderr).toContain('expectations[0].restore: 0 is out of range (allowed: an integer at least 1)');
  });

  it('prints an array of { file, scenario, passed, expectations: [{ description, held, seen }] } under --json', () => {
    const r = check('holds.yaml', 'fails.yaml', '--json');
    const documents = JSON.parse(r.stdout) as unknown[];
    expect(documents).toHaveLength(2);
    expect(documents[0]).toEqual({
      file: 'holds.yaml',
      scenario: 'Tiny',
      passed: true,
      expectations: [
        { description: 'sink output equals the failure-free output', held: true, seen: 'duplicates 0, missing 0' },
        { description: 'job status is FINISHED', held: true, seen: 'FINISHED' },
        { description: 'count#1 restores from remote (local-recovery-disabled) in every restore of it', held: true, seen: 'remote (local-recovery-disabled)' },
      ],
    });
    expect(documents[1]).toMatchObject({ file: 'fails.yaml', passed: false, expectations: expect.arrayContaining([{ description: 'job status is FAILED', held: false, seen: 'FINISHED' }]) });
    expect(r.exitCode).toBe(1);
  });

  it('marks an unreadable file in --json and keeps stdout one JSON document', () => {
    const r = check('missing.yaml', '--json');
    expect(JSON.parse(r.stdout)).toEqual([{ file: 'missing.yaml', scenario: null, passed: false, expectations: [], invalid: 'cannot read scenario file "missing.yaml": no such file' }]);
  });

  // --live itself runs in Chromium: tests/cli/check-live.test.ts.
  it('leaves --live to the command that has a browser: the sim check alone exits 2 naming it', () => {
    const r = check('holds.yaml', '--live');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^ckpt-lab check: --live needs a browser to run in/);
  });
});

/**
 * What a failing chaos seed leaves behind: the scenario file, the run's event trace, and a link
 * that opens the very run in the playground, paused at the first violation (the browser test
 * tests/browser/chaos-link.test.ts opens such a link and finds the page where the sim was).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chaosCase } from '../../engine/chaos/chaos-case.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { sharedRunFromHash } from '../../web/embed/shared-run.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { describeFailingSeed, recordFailingSeed } from './chaos-sweep.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

/** Seed 69: keyed counts rescaled twice (at 111 and 565 ms) among thirteen faults. */
const SEED = 69;

describe('a failing chaos seed', () => {
  it('writes its scenario, its trace and a playground link paused at its first violation', () => {
    const c = chaosCase(SEED);
    const violations = [
      { invariant: 'fencing', time: 912.5, message: 'count#0 of attempt 1 acknowledged checkpoint 4 at 912.5 ms, after its attempt was cancelled at 900 ms' },
      { invariant: 'exactly-once', time: null, message: 'the output differs' },
      { invariant: 'fencing', time: 700.25, message: 'an earlier one' },
    ];
    const failing = recordFailingSeed(c, violations, { rescale: 2 }, lsmStorage);

    expect(parse(readFileSync(failing.file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(c.document)));
    const trace = readFileSync(failing.trace, 'utf8').trimEnd().split('\n');
    expect(trace.length).toBeGreaterThan(1000);
    expect(trace.every((line) => /^\d+\.\d{6} \S/.test(line))).toBe(true);
    expect(trace.some((line) => line.includes('operation {"type":"rescale"'))).toBe(true);

    const url = new URL(failing.link);
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:5173/');
    const run = sharedRunFromHash(url.hash)!;
    expect(parse(run.text)).toEqual(parse(readFileSync(failing.file, 'utf8')));
    expect(run.operations).toEqual(c.operations);
    expect(run.atMs).toBe(700.25);
    expect(readFileSync(failing.file.replace('.yaml', '.link.txt'), 'utf8').trim()).toBe(failing.link);

    const printed = describeFailingSeed(failing);
    expect(printed).toContain(`replay: npm run chaos -- --seeds 1 --from ${SEED}`);
    expect(printed).toContain(`trace: ${failing.trace}`);
    expect(printed).toContain(failing.link);
  });

  it('links to the end of its run when no violation has a time (the output is judged there)', () => {
    const c = chaosCase(SEED);
    const failing = recordFailingSeed(c, [{ invariant: 'exactly-once', time: null, message: 'the output differs' }], {}, lsmStorage);
    const last = readFileSync(failing.trace, 'utf8').trimEnd().split('\n').at(-1)!;
    const at = sharedRunFromHash(new URL(failing.link).hash)!.atMs!;
    expect(at).toBeGreaterThanOrEqual(Number(last.split(' ')[0]));
    expect(at).toBeLessThanOrEqual(c.scenario.run.until_ms);
    expect(at).toBeGreaterThan(8000);
  });
});

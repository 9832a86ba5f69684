/**
 * Seeded chaos in `npm test`: CHAOS_SEEDS seeds (500) from CHAOS_FIRST_SEED (1), each a whole
 * scenario and fault profile of every fault kind (engine/chaos/), a safety phase with faults and a
 * liveness phase without, judged by every invariant checker. All seeds run; a failure lists every
 * failing seed with its violations, the command that replays it and the scenario file it wrote.
 * (`npm run soak` runs 10,000 more seeds, outside `npm test`.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { CHAOS_FAULT_KINDS } from '../../engine/chaos/chaos-faults.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { describeFailingSeed, describeTally, sweepChaos } from './chaos-sweep.ts';

/**
 * Seeds of 1–500 that fail for a bug not fixed yet, each with what breaks. They must keep failing
 * (a seed that starts passing is taken off this list, so the net tightens), and no other may fail.
 * Empty now: seeds 62 and 311 (a window rescaled from an unaligned checkpoint whose neighbours held
 * in-flight data) pass since such a rescale is refused, as long as channel state is not
 * redistributed by key group the way Flink's is.
 */
const KNOWN_FAILURES: ReadonlyMap<number, string> = new Map();

const SEEDS = Number(process.env['CHAOS_SEEDS'] ?? 500);
const FIRST_SEED = Number(process.env['CHAOS_FIRST_SEED'] ?? 1);

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

describe('seeded chaos', () => {
  it(`holds every invariant over ${SEEDS} seeded fault profiles from seed ${FIRST_SEED}`, () => {
    const tally = sweepChaos(FIRST_SEED, SEEDS, { lsmStorage });
    console.log(describeTally(tally));
    const inRange = (seed: number) => seed >= FIRST_SEED && seed < FIRST_SEED + SEEDS;
    const unexpected = tally.failing.filter((f) => !KNOWN_FAILURES.has(f.seed));
    expect.soft(unexpected.map(describeFailingSeed).join('\n'), `${unexpected.length} of ${SEEDS} seeds failed`).toBe('');
    const fixed = [...KNOWN_FAILURES.keys()].filter((seed) => inRange(seed) && !tally.failing.some((f) => f.seed === seed));
    expect.soft(fixed, 'known failures that pass now: take them off KNOWN_FAILURES').toEqual([]);
    if (SEEDS >= 200) {
      // the profiles really exercised what they claim: every fault kind was carried out, jobs failed over
      for (const kind of CHAOS_FAULT_KINDS) expect(tally.injected[kind] ?? 0, `${kind} injected`).toBeGreaterThan(0);
      expect(tally.restarts).toBeGreaterThanOrEqual(SEEDS / 2);
      expect(tally.running, 'unbounded jobs still running after the liveness phase').toBeGreaterThan(SEEDS / 10);
    }
  }, 600_000);
});

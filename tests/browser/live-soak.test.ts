/**
 * The live soak's short version in `npm test` (tests/browser/live-soak.ts says what it does and
 * judges; `npm run soak:live` runs the full one): 16 random kills, stalls, host losses and
 * remote-storage faults on four TaskManagers over two hosts in real Chromium. The seed comes from
 * CHAOS_SEED, or from the clock, and is printed with the command that replays it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './browser-session.ts';
import { closeLiveTestPage, openLiveTestPage } from './live-test-page.ts';
import { liveSoakProblems, runLiveSoak } from './live-soak.ts';

const FAULTS = 16;

describe('live soak (short)', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it(`stays exactly-once through ${FAULTS} random faults, leaks nothing in IndexedDB, OPFS or the heap, and keeps the page responsive`, async () => {
    const seed = Number(process.env['CHAOS_SEED'] ?? Date.now() % 1_000_000);
    const why = `CHAOS_SEED=${seed}`;
    console.log(`live soak: ${why} (replay: ${why} npx vitest run tests/browser/live-soak.test.ts)`);
    const figures = await runLiveSoak(session, { seed, faults: FAULTS }).catch((error: unknown) => {
      throw new Error(`${why}: ${error instanceof Error ? error.message : String(error)}`);
    });
    console.log(`live soak ${why}: ${JSON.stringify({ ...figures, output: undefined, storage: undefined })}`);
    expect(liveSoakProblems(figures), why).toEqual([]);
    // Not vacuous: the faults happened and the job failed over for them.
    const injected = Object.values(figures.injected).reduce((n, c) => n + c, 0);
    expect(injected + Object.values(figures.refused).reduce((n, c) => n + c, 0), why).toBe(FAULTS);
    expect(figures.restarts, why).toBeGreaterThanOrEqual((figures.injected['kill-task-manager'] ?? 0) + (figures.injected['stall-task-manager'] ?? 0));
    expect(figures.output.liveRecords, why).toBeGreaterThan(0);
  }, 420_000);
});

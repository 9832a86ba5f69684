/**
 * The live runtime under repeated TaskManager kills, in real Chromium: Web Worker TaskManagers
 * upload their snapshots to IndexedDB (remote checkpoint storage), the JobManager writes
 * `_metadata`, deletes what it no longer needs and restores by reading checkpoints back; task-local
 * recovery restores keyed subtasks from their host's local disk.
 *
 * A seeded schedule kills a random TaskManager worker, up to KILLS times, each once the job runs
 * again and completed a checkpoint since the previous kill, after a random delay. Afterwards the
 * two-phase-commit sink's output must equal a failure-free run's (exactly-once), and the job
 * directory in IndexedDB must hold nothing the leak checker objects to. The seed is printed, and
 * named in every assertion; rerun one with CHAOS_SEED=<seed> (as the sim's chaos takes its seeds;
 * the older LIVE_CHAOS_SEED still works). Without one the seed comes from the clock, and is printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveTestStatus, OutputAgainstSim, StorageCheck } from '../../web/live/live-test.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { keyedCountsJob } from './scenarios.ts';

const KILLS = 20;

/**
 * Job time per second of wall clock once the kills are done: the rest of the input is played fast,
 * so that the input can be long enough for every kill on a loaded machine and the test still ends soon.
 */
const FINISH_SPEED = 10;

/** Keyed counts, parallelism 4 on four single-slot TaskManagers over two hosts, 200 s of input at speed 1. */
const CHAOS_COUNTS = {
  version: 1,
  name: 'Live keyed counts under kills',
  seed: 11,
  job: keyedCountsJob({ keys: 24, rate: 1000, count: 200_000 }),
  config: {
    'parallelism.default': 4,
    'execution.checkpointing.interval': '300 ms',
    'execution.checkpointing.min-pause': '50 ms',
    'execution.state-recovery.from-local': true,
    // 1 s / 10 s at 1/20 on the wall clock: a killed worker is noticed within about half a second.
    'heartbeat.interval': '1 s',
    'heartbeat.timeout': '10 s',
    'restart-strategy.type': 'fixed-delay',
    'restart-strategy.fixed-delay.attempts': KILLS + 10,
    'restart-strategy.fixed-delay.delay': '100 ms',
  },
  cluster: { hosts: 2, task_managers_per_host: 2, slots_per_task_manager: 1 },
};

/** mulberry32: the kill schedule's random numbers. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('live runtime under repeated kills (IndexedDB checkpoint storage, task-local recovery)', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession();
    await session.page.goto(`${session.baseUrl}/live/live-test.html`);
    await session.page.waitForFunction(() => window.liveTest !== undefined);
  });

  afterAll(async () => {
    await session?.page.evaluate(() => window.liveTest?.dispose()).catch(() => {});
    await session?.close();
  });

  it(`stays exactly-once through ${KILLS} random TaskManager kills and leaks nothing in IndexedDB`, async () => {
    const seed = Number(process.env['CHAOS_SEED'] ?? process.env['LIVE_CHAOS_SEED'] ?? Date.now() % 1_000_000);
    const why = `CHAOS_SEED=${seed}`;
    console.log(`live chaos: ${why} (replay: ${why} npx vitest run tests/browser/live-chaos.test.ts)`);
    const next = random(seed);
    const status = (): Promise<LiveTestStatus> => session.page.evaluate(() => window.liveTest!.status());
    await session.page.evaluate(([scenario]) => window.liveTest!.start(scenario, { heartbeatScale: 1 / 20 }).then(() => undefined), [CHAOS_COUNTS] as const);

    const killed: string[] = [];
    try {
      for (let k = 0; k < KILLS; k++) {
        const before = await status();
        // Running again, with a checkpoint completed since the last kill: the job makes progress.
        await session.page.waitForFunction(
          `(() => { const s = window.liveTest.status(); return s.jobStatus !== 'RUNNING' && s.jobStatus !== 'RESTARTING' || (s.jobStatus === 'RUNNING' && s.attempt === ${before.attempt} && s.completedCheckpoints > ${before.completedCheckpoints}); })()`,
          null,
          { timeout: 20_000, polling: 20 },
        );
        await new Promise((r) => setTimeout(r, 50 + next() * 400));
        const now = await status();
        if (now.jobStatus !== 'RUNNING') break;
        const victim = now.taskManagers[Math.floor(next() * now.taskManagers.length)]!.id;
        const error = await session.page.evaluate((id) => window.liveDriver!.killTaskManager(id), victim);
        expect(error, why).toBeUndefined();
        killed.push(victim);
        if (k === KILLS / 2) {
          // Mid-run: the retained checkpoints are in IndexedDB (the leak check proper waits for the end,
          // when no upload is in flight).
          const mid: StorageCheck = await session.page.evaluate(() => window.liveTest!.checkStorage());
          expect(mid.retainedCheckpointIds.length, why).toBeGreaterThan(0);
          expect(mid.files.length, why).toBeGreaterThan(0);
          expect(mid.files.some((f) => f.endsWith(`chk-${mid.retainedCheckpointIds.at(-1)}/_metadata`)), why).toBe(true);
        }
        // The kill is noticed (a restart) before the next one is scheduled.
        await session.page.waitForFunction(`window.liveTest.status().attempt > ${now.attempt} || window.liveTest.status().jobStatus !== 'RUNNING'`, null, { timeout: 10_000, polling: 20 });
      }
      expect(await session.page.evaluate((speed) => window.liveDriver!.setSpeed(speed), FINISH_SPEED), why).toBeUndefined();
      await session.page.waitForFunction(`(() => { const s = window.liveTest.status().jobStatus; return s === 'FINISHED' || s === 'FAILED'; })()`, null, { timeout: 120_000, polling: 50 });
    } catch (error) {
      throw new Error(`${why}: ${error instanceof Error ? error.message : String(error)} (kills so far: ${killed.join(' ')})`);
    }
    const finished = await status();
    console.log(`live chaos ${why}: ${killed.length} kills (${killed.join(' ')}), ${finished.restarts} restarts, ${finished.completedCheckpoints} checkpoints completed`);
    expect(finished.jobStatus, why).toBe('FINISHED');
    expect(killed.length, why).toBe(KILLS);
    // Every kill restarts the job; on a loaded machine a worker may also miss heartbeat.timeout now
    // and then (it is scaled to half a second of wall clock), which is a failure too, as in Flink.
    expect(finished.restarts, why).toBeGreaterThanOrEqual(KILLS);

    const output: OutputAgainstSim = await session.page.evaluate(() => window.liveTest!.compareWithSim());
    expect(output, why).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(output.liveRecords, why).toBe(output.simRecords);

    const storage: StorageCheck = await session.page.evaluate(() => window.liveTest!.checkStorage(500));
    console.log(`live chaos ${why}: restores per subtask ${JSON.stringify(storage.restoreSources)}`);
    expect(storage, why).toMatchObject({ orphaned: [], missing: [], unreadable: [], storageErrors: [] });
    // FINISHED: Flink discards the job's checkpoints whatever the retention; nothing is left.
    expect(storage.files, why).toEqual([]);
    // Keyed subtasks came back from their host's disk (the killed worker's replacement too).
    expect(storage.restoreSources.local, why).toBeGreaterThan(0);
    expect(session.errors, why).toEqual([]);
  }, 240_000);
});

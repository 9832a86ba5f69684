/**
 * `window.playground.exportSession()` in real Chromium: a live run on the playground page is
 * exported as a session document; read back in Node, it validates and replays in the sim driver
 * with the same sink output and the same completed checkpoints. In sim the call rejects.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaygroundApi, PlaygroundStats } from '../../web/playground/api/playground-api-types.ts';
import type { SessionDocument } from '../../engine/replay/session-document.ts';
import { decodeSessionDocument } from '../../engine/replay/session-document.ts';
import { SessionRecorder } from '../../engine/replay/session-recorder.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { openPlaygroundSession, type BrowserSession } from './browser-session.ts';
import { keyedCountsJob } from './scenarios.ts';
import { replayOf } from '../../engine/replay/replay-pacer.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

/** Keyed counts, parallelism 2, bounded (2 s of input), a checkpoint every 400 ms. */
const SCENARIO = {
  version: 1,
  name: 'Exported keyed counts',
  seed: 8,
  job: keyedCountsJob({ keys: 16, rate: 1000, count: 2000 }),
  config: { 'parallelism.default': 2, 'execution.checkpointing.interval': '400 ms' },
  cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 },
};

function api<T>(page: Page, body: string): Promise<T> {
  return page.evaluate(`(async (api) => { ${body} })(window.playground)`) as Promise<T>;
}

describe('playground.exportSession()', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    session = await openPlaygroundSession();
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('rejects in sim, saying that it records live runs', async () => {
    await page.evaluate((s) => window.playground!.load(s), SCENARIO);
    const message = await api<string>(page, `try { await api.exportSession(); return 'resolved'; } catch (e) { return e.message; }`);
    expect(message).toMatch(/^exportSession\(\) records live runs/);
  });

  it('exports a live run that replays in sim with the same sink output and completed checkpoints', async () => {
    await api(page, `await api.setDriver('live');`);
    await page.evaluate((s) => window.playground!.load(s), SCENARIO);
    await api(page, `await api.runUntil('4 s');`);
    const stats = await api<PlaygroundStats>(page, 'return api.stats();');
    expect(stats.job.status).toBe('FINISHED');
    const doc = await api<SessionDocument>(page, 'return api.exportSession();');
    expect(doc.version).toBe(1);
    expect(doc.seed).toBe(8);
    const reading = decodeSessionDocument(JSON.stringify(doc));
    if (!reading.ok) throw new Error(JSON.stringify(reading.errors));
    expect(reading.scenario.name).toBe('Exported keyed counts');
    expect(reading.document.recording.subtasks.length).toBeGreaterThanOrEqual(6);
    const recorder = new SessionRecorder();
    const sim = new Simulation({ ...reading.scenario, run: { until_ms: doc.recording.endTime } }, { seed: doc.seed, replay: replayOf(doc.recording), recorder });
    sim.runToEnd();
    expect(recorder.log(sim.now).subtasks).toEqual(doc.recording.subtasks);
    expect(sim.sinkOutput.perKey()).toEqual(stats.output.perKey);
    const completed = sim.events.filter((e) => e.type === 'checkpoint-completed').length;
    expect(completed).toBe((stats.checkpoints as { counts: { completed: number } }).counts.completed);
  }, 60_000);
});

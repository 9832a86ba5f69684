/**
 * `window.playground` after `setDriver('live')`, in real Chromium: the same calls as in sim on
 * Web Worker TaskManagers (load, runUntil on the wall clock, pause holding the job clock, speed,
 * triggerCheckpoint, failTask, topology, stats, on), step() rejected as sim-only, and
 * setDriver('sim') going back with the same scenario and no worker left.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaygroundApi, PlaygroundEvent, PlaygroundStats } from '../../web/playground/api/playground-api-types.ts';
import { openPlaygroundSession, type BrowserSession } from './browser-session.ts';
import { animationFrames } from './animation-frames.ts';
import { keyedCountsJob } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
    liveEvents?: PlaygroundEvent[];
  }
}

/** Keyed counts into a two-phase-commit sink on two single-slot TaskManagers, unbounded. */
const SCENARIO = {
  version: 1,
  name: 'Live API counts',
  seed: 21,
  job: keyedCountsJob({ keys: 16, rate: 500 }),
  config: {
    'parallelism.default': 2,
    'execution.checkpointing.interval': '1 s',
    'heartbeat.interval': '2 s',
    'heartbeat.timeout': '20 s',
    'restart-strategy.type': 'fixed-delay',
    'restart-strategy.fixed-delay.attempts': 5,
    'restart-strategy.fixed-delay.delay': '200 ms',
  },
  cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 1 },
  run: { until: '10 min' },
};

function api<T>(page: Page, body: string): Promise<T> {
  return page.evaluate(`(async (api) => { ${body} })(window.playground)`) as Promise<T>;
}

/** The message a call rejects with, or 'resolved'. */
function rejection(page: Page, call: string): Promise<string> {
  return api(page, `try { await ${call}; return 'resolved'; } catch (error) { return error instanceof Error ? 'Error: ' + error.message : 'not an Error'; }`);
}

function taskManagerWorkers(page: Page): number {
  return page.workers().filter((w) => w.url().includes('task-manager.worker')).length;
}

describe('window.playground in the live driver', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    session = await openPlaygroundSession();
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('switches to live with setDriver and loads a scenario paused at time 0 on real TaskManager workers', async () => {
    await api(page, `await api.setDriver('live');`);
    const loaded = await page.evaluate((scenario) => window.playground!.load(scenario), SCENARIO);
    expect(loaded).toEqual({ name: 'Live API counts', seed: 21, untilMs: 600_000, notes: [] });
    const status = await api<{ driver: string; running: boolean; time: number; jobStatus: string }>(page, 'return api.status();');
    expect(status).toMatchObject({ driver: 'live', running: false, jobStatus: 'RUNNING' });
    // Loaded paused: the job clock crawls (1/1000) while the workers start.
    expect(status.time).toBeLessThan(100);
    expect(taskManagerWorkers(page)).toBe(2);
    const topology = await api<{ subtasks: { vertexId: string; taskManager: string; host: string }[] }>(page, 'return api.topology();');
    expect(topology.subtasks.filter((s) => s.vertexId === 'count').map((s) => `${s.taskManager}@${s.host}`)).toEqual(['tm-0@host-0', 'tm-1@host-1']);
  }, 60_000);

  it('rejects step() as sim-only, naming what to use instead', async () => {
    const message = await rejection(page, 'api.step()');
    expect(message).toMatch(/^Error: step\(\) is for the 'sim' driver only/);
    expect(message).toContain('runUntil(time)');
  });

  it('rejects seek() and branches() as sim-only: a live run\'s past cannot be replayed', async () => {
    expect(await rejection(page, 'api.seek(0)')).toMatch(/^Error: seek\(\) needs the 'sim' driver/);
    expect(await rejection(page, 'api.branches()')).toMatch(/^Error: seek\(\) needs the 'sim' driver/);
  });

  it('runs until a time on the wall clock at the chosen speed, then pauses', async () => {
    await api(page, `await api.setSpeed(2);`);
    // The job time read at every frame until runUntil resolves: a run that jumped to 3 s would show
    // no time between the start and the target (the clock's rate itself: tests/live/live-driver.test.ts).
    const { reached, seen } = await api<{ reached: { time: number }; seen: number[] }>(
      page,
      `const seen = [(await api.status()).time];
       let done = false;
       const run = api.runUntil('3 s').finally(() => { done = true; });
       while (!done) { seen.push((await api.status()).time); await new Promise((r) => requestAnimationFrame(r)); }
       return { reached: await run, seen };`,
    );
    expect(reached.time).toBeGreaterThanOrEqual(3000);
    expect(seen.some((time) => time > seen[0]! && time < 3000)).toBe(true);
    expect(await api(page, 'return api.status();')).toMatchObject({ running: false, speed: 2, driver: 'live' });
  }, 60_000);

  it('holds the job clock while paused', async () => {
    const before = await api<number>(page, 'return (await api.status()).time;');
    // Ten frames: a running live clock (wall time × speed) would have moved by far more than 5 ms.
    await animationFrames(page, 10);
    const after = await api<number>(page, 'return (await api.status()).time;');
    expect(after - before).toBeLessThan(5);
  });

  it('triggers a checkpoint and reports it through on() and stats() in Flink’s shapes', async () => {
    await api(page, `window.liveEvents = []; window.offLive = api.on('checkpoint-completed', (e) => window.liveEvents.push(e));`);
    await api(page, `await api.start(); await api.triggerCheckpoint();`);
    await page.waitForFunction(() => (window.liveEvents?.length ?? 0) >= 2, null, { timeout: 30_000 });
    await api(page, `await api.pause(); window.offLive();`);
    const stats = await api<PlaygroundStats>(page, 'return api.stats();');
    expect(stats.checkpoints.counts.completed).toBeGreaterThanOrEqual(2);
    expect(stats.checkpoints.latest.completed).toMatchObject({ status: 'COMPLETED', is_savepoint: false });
    expect(Object.keys(stats.checkpointDetails).length).toBeGreaterThanOrEqual(2);
    expect(stats.checkpointConfig).toMatchObject({ interval: 1000, mode: 'exactly_once' });
    expect(stats.job).toMatchObject({ status: 'RUNNING', restarts: 0 });
    expect(stats.metrics.vertices['source']?.numRecordsOut).toBeGreaterThan(0);
    expect(stats.output.duplicates).toBe(0);
    expect(stats.scenario).toMatchObject({ name: 'Live API counts', seed: 21, until_ms: 600_000 });
  }, 60_000);

  it('rejects operations it cannot do with the runtime’s own message', async () => {
    expect(await rejection(page, `api.killTaskManager('tm-9')`)).toMatch(/^Error: no TaskManager "tm-9"/);
    expect(await rejection(page, `api.failTask('nope', 0)`)).toMatch(/^Error: no subtask nope#0/);
    expect(await rejection(page, `api.setSpeed(0)`)).toMatch(/^Error: The speed must be a number/);
  });

  it('fails a task: the job restarts on the same workers and restores the latest checkpoint', async () => {
    await api(page, `await api.failTask('count', 0); const t = (await api.status()).time; await api.runUntil(t + 3000);`);
    const stats = await api<PlaygroundStats>(page, 'return api.stats();');
    expect(stats.job.restarts).toBe(1);
    expect(stats.restores).toHaveLength(1);
    expect(stats.checkpoints.latest.restored?.id).toBe(stats.restores[0]!.checkpointId);
    expect(taskManagerWorkers(page)).toBe(2);
  }, 60_000);

  it('goes back to sim with setDriver("sim"): the same scenario from time 0, step works, no worker left', async () => {
    await api(page, `await api.setDriver('sim');`);
    expect(await api(page, 'return api.status();')).toMatchObject({ driver: 'sim', time: 0, scenario: { name: 'Live API counts', seed: 21 } });
    expect(await api(page, 'return api.step();')).toMatchObject({ handled: true });
    await expect.poll(() => taskManagerWorkers(page)).toBe(0);
  }, 60_000);

  it('lets a switch back to sim win over live workers that are still starting: none is left running', async () => {
    const started = () => page.evaluate(() => performance.getEntriesByName('checkpoint-playground:task-manager-started').length);
    const before = await started();
    const name = await api<string>(page, 'return (await api.status()).scenario.name;');
    const outcome = await api<string>(page, `const live = api.setDriver('live').then(() => 'resolved', (e) => String(e)); await api.setDriver('sim'); return live;`);
    expect(outcome).toBe('resolved');
    // The live boot finishes after the switch and is thrown away: its workers go again.
    await expect.poll(started, { timeout: 20_000 }).toBe(before + 2);
    await expect.poll(() => taskManagerWorkers(page)).toBe(0);
    expect(await api(page, 'return api.status();')).toMatchObject({ driver: 'sim', scenario: { name } });
    expect(await api(page, 'return api.step();')).toMatchObject({ handled: true });
    expect(session.errors).toEqual([]);
  }, 60_000);
});

/**
 * Compare mode on the live runtime, in real Chromium: with Live selected, the Compare button runs
 * the scenario's two configurations (without and with min-pause) as two real live runs at once,
 * each with its own TaskManager Web Workers and its own checkpoint database; both complete
 * checkpoints on their wall-clock job time, the view says the runs are live and that differences
 * are called out only above the live noise threshold, in English and in Chinese (screenshots in
 * test-artifacts/screenshots/compare-live-*.png), and the min-pause difference is called out.
 * Closing compare mode leaves none of the two runs' workers or databases behind. Where the
 * machine cannot hold two live runs, the view says why and offers the sim.
 *
 * Starts a browser: run it under `flock /tmp/browser.lock`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { Comparison } from '../../web/playground/api/playground-api-types.ts';
import { inPage } from './playground-in-page.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { keyedCountsJob } from './scenarios.ts';

/**
 * Two TaskManagers per run (4 workers for both: what a 2-core machine holds), and checkpoints
 * slower than the 500 ms interval (1500 keys of state, and the sink's pending transactions, over 0.1 MB/s), so the side without
 * min-pause starts the next checkpoint the moment one ends and the side with it pauses 250 ms.
 */
const SCENARIO = {
  version: 1,
  name: 'Live compare',
  seed: 11,
  job: keyedCountsJob({ keys: 1500, rate: 3000 }),
  config: {
    'parallelism.default': 2,
    'execution.checkpointing.interval': '500 ms',
    'execution.checkpointing.min-pause': '0 ms',
  },
  costs: { remote_bandwidth_mb_per_s: 0.1, remote_latency_ms: 20 },
  cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 },
  // beyond the timeline's 10 s minimum axis, so the axis ends where the clocks are
  run: { until: '11 s' },
};

/** Booting 4 workers and 11 s of job time on the wall clock, on a loaded 2-core machine. */
const LIVE_RUN_MS = 120_000;

/** TaskManager workers started and not terminated on the page, from their performance marks. */
function workersRunning(page: Page): Promise<number> {
  return page.evaluate(
    () => performance.getEntriesByName('checkpoint-playground:task-manager-started').length - performance.getEntriesByName('checkpoint-playground:task-manager-terminated').length,
  );
}

/** The live runs that have IndexedDB databases (checkpoints, sink output, host disks), by run id: `checkpoint-playground-live/<run id>/…`. */
function liveRunsWithDatabases(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    indexedDB.databases().then((dbs) => [...new Set(dbs.map((d) => d.name ?? '').filter((n) => n.startsWith('checkpoint-playground-live/')).map((n) => n.split('/')[1]!))].sort()),
  );
}

/** A message template with each `{param}` filled from `params`. */
function filled(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

describe('compare mode on the live runtime', () => {
  let session: BrowserSession;
  /** the page's own live run (its id and its 2 TaskManager workers), which compare mode leaves as it is */
  let ownRun: string[];
  const ownWorkers = 2;
  const view = () => session.page.getByTestId('compare-view');
  const comparison = () => inPage(session, (api) => api.comparison(), null) as Promise<Comparison | null>;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await session.page.goto(`${session.baseUrl}/?driver=live`);
    await inPage(session, (api, scenario) => api.load(scenario).then(() => undefined), SCENARIO);
    await session.page.locator('[data-testid="driver-status"][data-driver="live"]').waitFor();
    await session.page.waitForFunction(() => document.querySelector<HTMLButtonElement>('[data-testid="compare-button"]')?.disabled === false);
  }, LIVE_RUN_MS);

  afterAll(async () => {
    await session?.close();
  });

  it('runs both sides as live runs with their own workers and databases, and both complete checkpoints', async () => {
    // the first page's run, replaced by this load, is gone once only this run's workers and databases are left
    await expect.poll(() => workersRunning(session.page), { timeout: 30_000 }).toBe(ownWorkers);
    await expect.poll(async () => (await liveRunsWithDatabases(session.page)).length, { timeout: 30_000 }).toBe(1);
    ownRun = await liveRunsWithDatabases(session.page);
    await session.page.getByTestId('compare-button').click();
    await expect.poll(() => view().getAttribute('data-runtime')).toBe('live');
    await expect.poll(() => view().getAttribute('data-variation')).toBe('min-pause');
    await session.page.getByTestId('compare-side-b').getByTestId('checkpoint-timeline').waitFor({ timeout: LIVE_RUN_MS });
    // both runs' TaskManagers are Web Workers on this page, besides the page's own held run
    await expect.poll(() => workersRunning(session.page), { timeout: LIVE_RUN_MS }).toBe(ownWorkers + 4);
    // two runs of their own, beside the page's: checkpoint databases that do not collide
    await expect.poll(async () => (await liveRunsWithDatabases(session.page)).filter((run) => !ownRun.includes(run)).length).toBe(2);
    await expect
      .poll(async () => {
        const shown = await comparison();
        return Math.min(shown?.a.figures['completed-checkpoints'] ?? 0, shown?.b.figures['completed-checkpoints'] ?? 0);
      }, { timeout: LIVE_RUN_MS })
      .toBeGreaterThanOrEqual(3);
    expect(session.errors).toEqual([]);
  }, LIVE_RUN_MS * 2);

  it('runs both to the same job time and calls out the min-pause gap, a difference far above the live noise', async () => {
    await expect.poll(async () => (await comparison())?.time ?? 0, { timeout: LIVE_RUN_MS }).toBeGreaterThanOrEqual(11_000);
    const shown = (await comparison())!;
    expect([shown.runtime, shown.noise]).toEqual(['live', { relative: 0.25, absoluteMs: 100 }]);
    expect(Math.abs(shown.a.time - shown.b.time)).toBeLessThan(1000);
    const pause = shown.differences.find((d) => d.code === 'checkpoint-pause-p50');
    expect(pause).toBeDefined();
    expect(pause!.b).toBeGreaterThanOrEqual(250);
    expect(pause!.a).toBeLessThan(pause!.b);
    // every difference called out is above the live noise
    for (const d of shown.differences) {
      expect(d.relative).toBeGreaterThanOrEqual(0.25);
      if (d.unit === 'ms') expect(Math.abs(d.a - d.b)).toBeGreaterThanOrEqual(100);
    }
    await expect(session.page.getByTestId('compare-differences').locator('li[data-code="checkpoint-pause-p50"]').textContent()).resolves.toBe(pause!.text);
    // one time axis: the same ticks at the same places on both timelines, though the job clocks
    // differ by a frame or so (both read in one task, so the held clocks' crawl cannot come between)
    const [axisA, axisB] = await session.page.evaluate(() =>
      (['a', 'b'] as const).map((side) =>
        [...document.querySelectorAll(`[data-testid="compare-side-${side}"] [data-testid="checkpoint-timeline"] g.axis text`)].map((text) => `${text.textContent} @ ${text.getAttribute('x')}`),
      ),
    );
    expect(axisA!.length).toBeGreaterThan(2);
    expect(axisB).toEqual(axisA);
  }, LIVE_RUN_MS);

  it('says the runs are live and where the noise ends, in English and in Chinese', async () => {
    const note = session.page.getByTestId('compare-live-note');
    const noise = session.page.getByTestId('compare-live-noise');
    await expect(note.textContent()).resolves.toBe(filled(en['compare.liveNote'], { seed: 11, workers: 4 }));
    await expect(noise.textContent()).resolves.toBe(filled(en['compare.liveNoise'], { percent: 25, ms: 100 }));
    await session.screenshot('compare-live-en', { fullPage: true });
    await session.page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => note.textContent()).toBe(filled(zhCN['compare.liveNote'], { seed: 11, workers: 4 }));
    await expect(noise.textContent()).resolves.toBe(filled(zhCN['compare.liveNoise'], { percent: 25, ms: 100 }));
    await expect(session.page.getByTestId('compare-close').textContent()).resolves.toContain(zhCN['compare.close']);
    await session.screenshot('compare-live-zh-CN', { fullPage: true });
    await session.page.getByTestId('locale-select').selectOption({ label: 'English' });
  });

  it('leaves no worker or database of either run after closing', async () => {
    await session.page.getByTestId('compare-close').click();
    await expect.poll(() => workersRunning(session.page), { timeout: 30_000 }).toBe(ownWorkers);
    await expect.poll(() => liveRunsWithDatabases(session.page), { timeout: 30_000 }).toEqual(ownRun);
    await expect(comparison()).resolves.toBeNull();
    expect(session.errors).toEqual([]);
  }, 60_000);

  it('says in one sentence when the machine cannot hold two live runs, and compares in the sim instead', async () => {
    // a 1-core machine holds 2 TaskManager workers; two runs of this scenario need 4
    await session.page.evaluate(() => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 1, configurable: true }));
    const refused = await inPage(session, (api) => api.compare('min-pause').then(() => 'resolved', (error: Error) => error.message), null);
    expect(refused).toMatch(/^This machine cannot hold two live runs of this scenario: they need 4 TaskManager workers, and 1 logical cores hold at most 2 /);
    const sentence = session.page.getByTestId('compare-live-refused');
    await expect.poll(() => sentence.textContent()).toContain(filled(en['compare.liveRefused.cores'], { needed: 4, cores: 1, limit: 2 }));
    expect(await workersRunning(session.page)).toBe(ownWorkers);
    await session.page.getByTestId('compare-in-sim').click();
    await expect.poll(() => view().getAttribute('data-runtime')).toBe('sim');
    await session.page.getByTestId('compare-side-b').getByTestId('checkpoint-timeline').waitFor({ timeout: 30_000 });
    await session.page.getByTestId('compare-why-sim').waitFor();
    expect(await workersRunning(session.page)).toBe(ownWorkers);
    await inPage(session, (api) => api.closeCompare(), null);
  }, LIVE_RUN_MS);
});

/**
 * A `runtime: scale` scenario on the playground page (issue 15) in real Chromium: the shipped
 * production-scale scenario (parallelism 1,000, a terabyte of modelled state, an hour of job time)
 * loads from the picker in English and from a share link in Chinese, runs in the scale runtime's
 * worker while the main thread stays responsive (no task over 50 ms), and shows its checkpoints in
 * the Overview and the timeline, a job graph of vertices with parallelism 1,000, and the restores
 * after the TaskManager kill (local copies) and the host loss (remote storage).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encodeScenario } from '../../web/embed/share-link.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';

const MINUTE = 60_000;
const SCENARIO_FILE = 'production-scale.yaml';

/** Every main-thread task over 50 ms from the page's start, as [start, duration]; a string so no bundler helper leaks in. */
const OBSERVE_LONG_TASKS = `
  globalThis.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.__longTasks.push([e.startTime, e.duration]); })
    .observe({ type: 'longtask', buffered: true });`;

async function longTasksSince(page: Page, since: number): Promise<Array<[number, number]>> {
  return page.evaluate((from) => (globalThis as unknown as { __longTasks: Array<[number, number]> }).__longTasks.filter(([start]) => start >= from), since);
}

/** Runs the loaded scale scenario at 1000× until its first checkpoint completed: the run is loaded and going. */
async function runToFirstCheckpoint(page: Page): Promise<void> {
  await page.evaluate(() => window.playground!.setSpeed(1000));
  await expect.poll(() => page.locator('[data-count="completed"] dd').getAttribute('data-value'), { timeout: 120_000 }).not.toBe('0');
}

/**
 * Runs on until the job clock passed both faults (20 and 40 min). Polled through status(), a few
 * fields: stats() is the whole report (each restore's 3,000 subtasks), and reading it while
 * measuring would measure the test's own reads.
 */
async function runPastTheHostLoss(page: Page): Promise<void> {
  await expect.poll(async () => page.evaluate(async () => (await window.playground!.status()).time), { timeout: 300_000, interval: 500 }).toBeGreaterThanOrEqual(45 * MINUTE);
}

/** What every scale run must show, in whichever language. */
async function expectScaleRunShown(page: Page): Promise<void> {
  const stats = await page.evaluate(() => window.playground!.stats());
  // Overview: the counts are Flink's, read from the worker's documents
  const completed = page.locator('[data-count="completed"] dd');
  await expect.poll(() => completed.getAttribute('data-value')).toBe(String((await page.evaluate(() => window.playground!.stats())).checkpoints.counts.completed));
  expect(stats.checkpoints.counts.completed).toBeGreaterThanOrEqual(40);
  expect(Number(await page.locator('[data-count="restored"] dd').getAttribute('data-value'))).toBeGreaterThanOrEqual(2);
  // timeline: a bar per checkpoint
  expect(await page.locator('[data-testid="checkpoint-timeline"] .bar[data-checkpoint-id]').count()).toBeGreaterThan(10);
  // job graph: vertices with their parallelism, not subtask boxes
  const vertices = page.getByTestId('scale-vertex');
  expect(await vertices.count()).toBe(3);
  expect(await vertices.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-parallelism')))).toEqual(['1000', '1000', '1000']);
  expect(await page.locator('[data-testid="job-graph"]').count()).toBe(0);
  // restores: the kill restored from local copies, the host loss read host-42's subtasks remotely
  const [kill, loss] = stats.restores;
  expect(kill!.time).toBeGreaterThanOrEqual(20 * MINUTE);
  expect(kill!.subtasks.filter((s) => s.source === 'local').length).toBeGreaterThan(0);
  expect(loss!.time).toBeGreaterThanOrEqual(40 * MINUTE);
  expect(loss!.subtasks.filter((s) => s.source === 'remote').length).toBeGreaterThan(0);
  const count = page.locator('[data-testid="scale-vertex"][data-vertex-id="count"] [data-testid="scale-restore"]');
  expect(Number(await count.getAttribute('data-remote'))).toBeGreaterThan(0);
  expect(Number(await count.getAttribute('data-local'))).toBeGreaterThan(0);
  await page.getByTestId('latest-restore').getByTestId('restore-subtasks').waitFor();
}

describe('a scale scenario on the playground page', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 1400 } });
    await session.page.addInitScript({ content: OBSERVE_LONG_TASKS });
    await session.page.goto(`${session.baseUrl}/`);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('runs the picked production-scale scenario in a worker, with no main-thread task over 50 ms, and shows its checkpoints, vertices and restores', async () => {
    const page = session.page;
    await page.getByTestId('scenario-select').selectOption(SCENARIO_FILE);
    await page.getByTestId('scale-job-graph').waitFor({ timeout: 120_000 });
    await expect(page.getByTestId('scale-notice').textContent()).resolves.toBe(en['scale.notice']);
    await runToFirstCheckpoint(page);
    const since = await page.evaluate(() => performance.now());
    await runPastTheHostLoss(page);
    expect(await longTasksSince(page, since)).toEqual([]);

    await expectScaleRunShown(page);
    await expect(page.getByTestId('scale-no-sink').textContent()).resolves.toBe(en['scale.noSink']);
    await expect(page.getByTestId('scale-unsupported').textContent()).resolves.toBe(en['scale.unsupported']);
    expect(await page.getByTestId('fail-task-button').isDisabled()).toBe(true);
    expect(await page.getByTestId('kill-tm-button').isDisabled()).toBe(false);
    await expect(page.getByTestId('driver-status').getAttribute('data-driver')).resolves.toBe('scale');
    await session.screenshot('scale-run-en', { fullPage: true });
  });

  it('runs it from a share link in Chinese, with the same figures and its sentences in Chinese', async () => {
    const page = session.page;
    await page.getByTestId('locale-select').selectOption('zh-CN');
    await expect.poll(() => page.getByTestId('scale-notice').textContent()).toBe(zhCN['scale.notice']);
    const yaml = readFileSync(`public/scenarios/${SCENARIO_FILE}`, 'utf8');
    await page.evaluate((hash) => (location.hash = hash), `#scenario=${encodeScenario(yaml)}`);
    // the share link loads a new run: its clock starts again from 0
    await expect.poll(async () => page.evaluate(async () => (await window.playground!.status()).time), { timeout: 120_000 }).toBeLessThan(20 * MINUTE);
    await page.getByTestId('scale-job-graph').waitFor({ timeout: 120_000 });
    await runToFirstCheckpoint(page);
    const since = await page.evaluate(() => performance.now());
    await runPastTheHostLoss(page);
    expect(await longTasksSince(page, since)).toEqual([]);

    await expectScaleRunShown(page);
    await expect(page.locator('[data-testid="scale-job-graph"] caption').textContent()).resolves.toBe(zhCN['scale.graph.caption']);
    await expect(page.getByTestId('scale-no-sink').textContent()).resolves.toBe(zhCN['scale.noSink']);
    await expect(page.getByTestId('scale-no-charts').textContent()).resolves.toBe(zhCN['scale.noCharts']);
    await session.screenshot('scale-run-zh-CN', { fullPage: true });
    expect(session.errors).toEqual([]);
    expect(session.svelteWarnings).toEqual([]);
  });
});

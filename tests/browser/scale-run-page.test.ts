/**
 * A `runtime: scale` scenario on the playground page (issue 15) in real Chromium: the shipped
 * production-scale scenario (parallelism 1,000, a terabyte of modelled state, an hour of job time)
 * loads from the picker in English and from a share link in Chinese, runs in the scale runtime's
 * worker (the main thread's long tasks meanwhile are measured by `npm run bench -- --only scale-browser`,
 * not here: a timed figure on a loaded machine), and shows its checkpoints in
 * the Overview and the timeline, a job graph of vertices with parallelism 1,000, and the restores
 * after the TaskManager kill (local copies) and the host loss (remote storage).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encodeScenario } from '../../web/embed/share-link.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { MINUTE, runPastTheHostLoss, runToFirstCheckpoint } from './scale-run-page-steps.ts';

const SCENARIO_FILE = 'production-scale.yaml';

/** What every scale run must show, in whichever language. */
async function expectScaleRunShown(page: Page): Promise<void> {
  // Paused, so that the page's figures and the worker's documents describe the same moment (the
  // run goes on to its hour at 1000×: a checkpoint every 60 ms of wall time).
  await page.evaluate(() => window.playground!.pause());
  const stats = await page.evaluate(() => window.playground!.stats());
  // Overview: the counts are Flink's, read from the worker's documents
  const completed = page.locator('[data-count="completed"] dd');
  await expect.poll(() => completed.getAttribute('data-value')).toBe(String(stats.checkpoints.counts.completed));
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
    await session.page.goto(`${session.baseUrl}/`);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('runs the picked production-scale scenario in a worker and shows its checkpoints, vertices and restores', async () => {
    const page = session.page;
    await page.getByTestId('scenario-select').selectOption(SCENARIO_FILE);
    await page.getByTestId('scale-job-graph').waitFor({ timeout: 120_000 });
    await expect(page.getByTestId('scale-notice').textContent()).resolves.toBe(en['scale.notice']);
    await runToFirstCheckpoint(page);
    await runPastTheHostLoss(page);

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
    await runPastTheHostLoss(page);

    await expectScaleRunShown(page);
    await expect(page.locator('[data-testid="scale-job-graph"] caption').textContent()).resolves.toBe(zhCN['scale.graph.caption']);
    await expect(page.getByTestId('scale-no-sink').textContent()).resolves.toBe(zhCN['scale.noSink']);
    await expect(page.getByTestId('scale-no-charts').textContent()).resolves.toBe(zhCN['scale.noCharts']);
    await session.screenshot('scale-run-zh-CN', { fullPage: true });
    expect(session.errors).toEqual([]);
    expect(session.svelteWarnings).toEqual([]);
  });
});

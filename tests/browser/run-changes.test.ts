/**
 * What the page does when a run ends or is replaced, in real Chromium: a finished job's subtasks
 * show no busy or backpressured time; Restart after a run that ended by itself starts running
 * again (it came back paused); and what Break things said about the old run (an error too) is
 * cleared when the run is restarted or another scenario is loaded.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaygroundApi, PlaygroundStatus } from '../../web/playground/api/playground-api-types.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { openPlayground } from './channel-view-helpers.ts';
import { keyedCountsJob } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

/** Keyed counts over 4,000 records: the job finishes after about 2 s of job time. */
const BOUNDED = {
  version: 1,
  name: 'Bounded keyed counts',
  seed: 3,
  job: keyedCountsJob({ keys: 8, rate: 2000, count: 4000 }),
  config: { 'parallelism.default': 2, 'execution.checkpointing.interval': '500 ms' },
  cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 },
  run: { until: '1 min' },
};

const status = (page: Page) => page.evaluate(() => window.playground!.status()) as Promise<PlaygroundStatus>;

describe('when a run ends or is replaced', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = session.page;
    await openPlayground(session);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('shows no busy time on finished subtasks, and Restart runs a job that ended by itself again', async () => {
    await page.evaluate((s) => window.playground!.load(s), BOUNDED);
    await page.evaluate(() => window.playground!.setSpeed(20));
    await page.getByTestId('run-button').click();
    await expect.poll(async () => (await status(page)).jobStatus, { timeout: 60_000 }).toBe('FINISHED');
    await expect.poll(async () => (await status(page)).running).toBe(false);

    const finishedRows = page.locator('[data-testid="job-graph"] .subtask[data-status="FINISHED"]');
    await expect.poll(() => finishedRows.count()).toBe(6);
    const widths = await finishedRows.locator('rect.busy').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('width'))));
    expect(widths).toEqual([0, 0, 0, 0, 0, 0]);

    // At 1× the 2 s job is still running when looked at (at 20× it is over in 100 ms).
    await page.evaluate(() => window.playground!.setSpeed(1));
    await page.getByTestId('reset-button').click();
    await expect.poll(async () => (await status(page)).running).toBe(true);
    await expect.poll(async () => (await status(page)).time).toBeGreaterThan(0);
    await page.getByTestId('pause-button').click();
  }, 90_000);

  it('clears what Break things said about the old run once the run is restarted or replaced', async () => {
    await page.evaluate((s) => window.playground!.load(s), BOUNDED);
    const feedback = page.getByTestId('action-feedback');
    // No savepoint yet: the action is refused, and the error stays while the run does.
    await page.getByTestId('restart-savepoint-button').click();
    await expect.poll(() => feedback.textContent()).not.toBe('');
    expect(await feedback.getAttribute('class')).toContain('error');

    await page.getByTestId('reset-button').click();
    await expect.poll(() => feedback.textContent()).toBe('');

    await page.getByTestId('restart-savepoint-button').click();
    await expect.poll(() => feedback.textContent()).not.toBe('');
    await page.evaluate((s) => window.playground!.load({ ...s, name: 'Another scenario' }), BOUNDED);
    await expect.poll(() => feedback.textContent()).toBe('');
  }, 60_000);

  it('logs no errors, and Svelte no dev-mode warnings', () => {
    expect(session.errors).toEqual([]);
    expect(session.svelteWarnings).toEqual([]);
  });
});

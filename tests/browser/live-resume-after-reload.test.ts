/**
 * The page reloaded in the middle of a live run: the next page offers to resume the run from its
 * latest completed checkpoint (as Flink's JobManager failover recovers it from the HA store), and
 * keeps the run's storage until the learner resumes or discards it. Resumed, the job finishes
 * exactly-once against the failure-free run; discarded, its storage goes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { keyedCountsJob } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

/** Bounded (about 8 s of input at the page's speed), a two-phase-commit sink, checkpoints every 300 ms. */
const LIVE_TWO_PHASE = {
  version: 1,
  name: 'Reloaded live run',
  seed: 11,
  job: keyedCountsJob({ keys: 20, rate: 1500, count: 12_000 }),
  config: { 'parallelism.default': 2, 'execution.checkpointing.interval': '300 ms' },
  cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 },
};

const liveDatabases = (page: Page) =>
  page.evaluate(() => indexedDB.databases().then((dbs) => dbs.map((d) => d.name ?? '').filter((n) => n.startsWith('checkpoint-playground-live/')).sort()));

const completedCheckpoints = (page: Page) => page.evaluate(() => window.playground!.stats().then((s) => s.checkpoints.counts.completed));

/** Starts the live run and reloads the page once two checkpoints completed; resolves with the run's root. */
async function reloadMidRun(session: BrowserSession): Promise<string> {
  const page = session.page;
  await page.goto(`${session.baseUrl}/?driver=live`);
  await page.waitForFunction(() => window.playground !== undefined);
  await page.evaluate((s) => window.playground!.load(s).then(() => window.playground!.start()), LIVE_TWO_PHASE);
  await expect.poll(() => completedCheckpoints(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  const root = (await liveDatabases(page))[0]!.split('/').slice(0, 2).join('/');
  await page.reload();
  await page.waitForFunction(() => window.playground !== undefined);
  await page.getByRole('button', { name: 'Resume', exact: true }).waitFor({ timeout: 20_000 });
  return root;
}

describe('a live run interrupted by a reload', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('is offered again, resumes from its latest checkpoint, and finishes exactly-once', async () => {
    const page = session.page;
    const root = await reloadMidRun(session);
    const offer = await page.getByRole('status').filter({ hasText: 'Resume the run interrupted at job time' }).textContent();
    const offeredCheckpoint = Number(/from checkpoint (\d+)/.exec(offer ?? '')?.[1]);
    // The sweep of abandoned runs kept it: it can still be resumed.
    expect((await liveDatabases(page)).some((name) => name.startsWith(`${root}/`))).toBe(true);
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect.poll(() => page.evaluate(() => window.playground!.status().then((s) => s.jobStatus)), { timeout: 60_000 }).toBe('FINISHED');
    const stats = await page.evaluate(() => window.playground!.stats());
    expect(stats.restores[0]?.checkpointId).toBeGreaterThanOrEqual(offeredCheckpoint);
    expect(stats.restores[0]?.isSavepoint).toBe(false);
    expect({ duplicates: stats.output.duplicates, missing: stats.output.missing }).toEqual({ duplicates: 0, missing: 0 });
    expect(stats.output.totalRecords).toBeGreaterThan(0);
    expect(session.errors).toEqual([]);
  }, 150_000);

  it('deletes the run’s storage when it is discarded, and leaves none behind', async () => {
    const page = session.page;
    const root = await reloadMidRun(session);
    await page.getByRole('button', { name: 'Discard', exact: true }).click();
    await expect.poll(async () => (await liveDatabases(page)).filter((name) => name.startsWith(`${root}/`)), { timeout: 20_000 }).toEqual([]);
    expect(await page.getByRole('button', { name: 'Resume', exact: true }).count()).toBe(0);
    // Reloaded again, nothing is offered: the discarded run is gone.
    await page.reload();
    await page.waitForFunction(() => window.playground !== undefined);
    expect((await liveDatabases(page)).filter((name) => name.startsWith(`${root}/`))).toEqual([]);
    expect(await page.getByRole('button', { name: 'Resume', exact: true }).count()).toBe(0);
    expect(session.errors).toEqual([]);
  }, 150_000);
});

/**
 * The playground page in the live driver, in real Chromium: the Runtime chooser reloads the
 * scenario (with its configuration edits) on real Web Worker TaskManagers, the dashboard shows
 * their checkpoints, a TaskManager killed from the Break things panel is replaced and restores
 * from local copies, a lost host's subtasks restore from remote storage, and the output equals
 * the failure-free run's. Workers are counted twice, independently: by Chromium (playwright's
 * page.workers()) and by the page's performance marks. Screenshots land in
 * test-artifacts/screenshots/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi, PlaygroundStats } from '../../web/playground/api/playground-api-types.ts';
import { openPlaygroundSession, type BrowserSession } from './browser-session.ts';
import { keyedCountsJob } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

/**
 * Keyed counts into a two-phase-commit sink, parallelism 4 on two hosts of two single-slot
 * TaskManagers, with task-local recovery; bounded (25 s of input), so the test ends with the
 * complete outputs compared. Heartbeats of 2 s / 20 s run at 1/20 on the wall clock (100 ms / 1 s).
 */
const LIVE_SCENARIO = {
  version: 1,
  name: 'Live local recovery',
  seed: 7,
  job: keyedCountsJob({ keys: 40, rate: 1000, count: 25000 }),
  config: {
    'parallelism.default': 4,
    'execution.checkpointing.interval': '1 s',
    'execution.checkpointing.local-backup.enabled': true,
    'execution.state-recovery.from-local': true,
    'heartbeat.interval': '2 s',
    'heartbeat.timeout': '20 s',
    'restart-strategy.type': 'fixed-delay',
    'restart-strategy.fixed-delay.attempts': 5,
    'restart-strategy.fixed-delay.delay': '200 ms',
  },
  cluster: { hosts: 2, task_managers_per_host: 2, slots_per_task_manager: 1 },
};

/** TaskManager workers Chromium runs for the page now. */
function taskManagerWorkers(page: Page): number {
  return page.workers().filter((w) => w.url().includes('task-manager.worker')).length;
}

/** The page's own performance marks: [started, terminated]. */
async function workerMarks(page: Page): Promise<[number, number]> {
  return page.evaluate(() => [
    performance.getEntriesByName('checkpoint-playground:task-manager-started').length,
    performance.getEntriesByName('checkpoint-playground:task-manager-terminated').length,
  ]);
}

/** The IndexedDB databases of live runs (remote checkpoint storage, one per run). */
async function liveDatabases(page: Page): Promise<string[]> {
  const names = await page.evaluate(() => indexedDB.databases().then((dbs) => dbs.map((d) => d.name ?? '')));
  return names.filter((name) => name.startsWith('checkpoint-playground-live/'));
}

async function count(page: Page, key: string): Promise<number> {
  return Number(await page.locator(`[data-count="${key}"] dd`).getAttribute('data-value'));
}

async function stats(page: Page): Promise<PlaygroundStats> {
  return page.evaluate(() => window.playground!.stats());
}

/** "{remote} from remote storage, {local} from a local copy" of the Overview's latest restore. */
async function latestRestoreSources(page: Page): Promise<{ remote: number; local: number }> {
  const text = (await page.getByTestId('latest-restore').textContent()) ?? '';
  const match = /(\d+) from remote storage, (\d+) from a local copy/.exec(text);
  if (!match) throw new Error(`no restore sources in: ${text}`);
  return { remote: Number(match[1]), local: Number(match[2]) };
}

describe('the playground page in the live driver', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openPlaygroundSession();
    await session.page.evaluate((scenario) => window.playground!.load(scenario).then(() => undefined), LIVE_SCENARIO);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('reloads the scenario with its configuration edits on four TaskManager workers when Live workers is chosen', async () => {
    const page = session.page;
    expect(taskManagerWorkers(page)).toBe(0);
    const config = page.getByTestId('config-panel');
    await config.locator('[data-option="execution.checkpointing.interval"] input').fill('500 ms');
    await config.getByTestId('config-apply').click();
    await expect(config.getByTestId('config-applied').textContent()).resolves.toBe(en['config.editor.applied']);

    const choice = page.getByTestId('driver-choice');
    await choice.getByRole('radio', { name: en['driver.live'] }).check();
    await expect.poll(() => page.getByTestId('driver-status').getAttribute('data-workers'), { timeout: 30_000 }).toBe('4');
    await expect(page.getByTestId('driver-status').textContent()).resolves.toContain('live · 4 workers');
    expect(taskManagerWorkers(page)).toBe(4);
    expect(await workerMarks(page)).toEqual([4, 0]);
    expect(await page.evaluate(() => window.playground!.status())).toMatchObject({ driver: 'live', running: false, scenario: { name: 'Live local recovery', seed: 7 } });
    expect(new URL(page.url()).searchParams.get('driver')).toBe('live');

    const topology = await page.evaluate(() => window.playground!.topology());
    expect(new Set(topology.subtasks.map((s) => `${s.taskManager}@${s.host}`))).toEqual(new Set(['tm-0@host-0', 'tm-1@host-0', 'tm-2@host-1', 'tm-3@host-1']));
    // The edit made in sim came along: checkpoints every 500 ms, not the scenario's 1 s.
    expect((await stats(page)).checkpointConfig?.interval).toBe(500);
    await expect(page.getByTestId('step-button').isDisabled()).resolves.toBe(true);

    await page.getByRole('button', { name: en['controls.run'], exact: true }).click();
    await expect.poll(() => count(page, 'completed'), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.getByTestId('remote-storage').getAttribute('data-checkpoints'), { timeout: 10_000 }).not.toBe('0');
    await session.screenshot('playground-live-en');

    await page.getByTestId('locale-select').selectOption('zh-CN');
    await expect.poll(() => page.getByTestId('driver-status').textContent()).toContain(zhCN['status.driverLive'].replace('{n}', '4'));
    await expect(page.getByTestId('driver-choice').textContent()).resolves.toContain(zhCN['driver.live']);
    await session.screenshot('playground-live-zh');
    await page.getByTestId('locale-select').selectOption('en');
  }, 90_000);

  it('replaces a TaskManager killed from the Break things panel with a new worker whose subtasks restore from local copies', async () => {
    const page = session.page;
    const panel = page.getByTestId('break-things');
    await panel.getByLabel(en['break.taskManager'], { exact: true }).selectOption('tm-1');
    await panel.getByRole('button', { name: en['break.killTm'], exact: true }).click();
    await expect.poll(() => page.getByTestId('action-feedback').textContent()).toContain('Killed TaskManager tm-1');

    await expect.poll(() => count(page, 'restored'), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 30_000 }).toContain('RUNNING');
    await expect.poll(() => page.getByTestId('restarts').textContent()).toBe('1');
    const sources = await latestRestoreSources(page);
    expect(sources.local).toBeGreaterThanOrEqual(1);
    const restore = (await stats(page)).restores[0]!;
    // tm-1 came back on host-0, whose disk kept its copies: its keyed subtask read it there.
    const count1 = restore.subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 1)!;
    expect(count1.source).toBe('local');
    expect(count1.bytes).toBeGreaterThan(0);

    await expect.poll(() => taskManagerWorkers(page)).toBe(4);
    expect(await workerMarks(page)).toEqual([5, 1]);
    await expect.poll(() => page.getByTestId('driver-status').getAttribute('data-workers')).toBe('4');
  }, 90_000);

  it('restores the subtasks of a lost host from remote storage, and ends with the failure-free output', async () => {
    const page = session.page;
    await expect.poll(() => count(page, 'completed'), { timeout: 30_000 }).toBeGreaterThanOrEqual((await count(page, 'completed')) + 1);
    const panel = page.getByTestId('break-things');
    await panel.getByLabel(en['break.host'], { exact: true }).selectOption('host-1');
    await panel.getByRole('button', { name: en['break.loseHost'], exact: true }).click();
    await expect.poll(() => page.getByTestId('action-feedback').textContent()).toContain('host-1');
    expect(await page.getByTestId('action-feedback').getAttribute('class')).not.toContain('error');

    await expect.poll(() => count(page, 'restored'), { timeout: 30_000 }).toBe(2);
    const sources = await latestRestoreSources(page);
    expect(sources.remote).toBeGreaterThanOrEqual(1);
    const restore = (await stats(page)).restores[1]!;
    // host-1's disk is gone: its keyed subtasks (count#2, count#3) run elsewhere and read remote storage.
    for (const index of [2, 3]) expect(restore.subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === index)!.source).toBe('remote');
    const topology = await page.evaluate(() => window.playground!.topology());
    expect(new Set(topology.subtasks.map((s) => s.host))).toEqual(new Set(['host-0']));
    await expect.poll(() => taskManagerWorkers(page)).toBe(4);

    await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 60_000 }).toContain('FINISHED');
    await expect.poll(async () => (await stats(page)).output.missing, { timeout: 10_000 }).toBe(0);
    const done = await stats(page);
    expect(done.output).toMatchObject({ totalRecords: 100_000, duplicates: 0, missing: 0 });
    expect(done.job).toMatchObject({ status: 'FINISHED', restarts: 2 });
    expect(await page.getByTestId('sink-output').textContent()).toBeTruthy();
  }, 120_000);

  it('terminates the live workers and deletes their checkpoint database when switched back to sim', async () => {
    const page = session.page;
    // The run's remote checkpoint storage, the sink's committed output (kept for a resume after a
    // reload), and one local disk per host (task-local copies).
    const databases = await liveDatabases(page);
    expect(databases.filter((name) => !name.includes('/local-disk/') && !name.endsWith('/sink-output'))).toHaveLength(1);
    expect(databases.filter((name) => name.endsWith('/sink-output'))).toHaveLength(1);
    expect(databases.filter((name) => name.includes('/local-disk/')).map((name) => name.split('/').at(-1)).sort()).toEqual(['host-0', 'host-1']);
    await page.getByTestId('driver-choice').getByRole('radio', { name: en['driver.sim'] }).check();
    await expect.poll(() => page.evaluate(() => window.playground!.status().then((s) => s.driver))).toBe('sim');
    await expect.poll(() => taskManagerWorkers(page)).toBe(0);
    const [started, terminated] = await workerMarks(page);
    expect(terminated).toBe(started);
    await expect(page.getByTestId('driver-status').textContent()).resolves.toContain('sim');
    await expect(page.getByTestId('step-button').isDisabled()).resolves.toBe(false);
    await expect.poll(() => liveDatabases(page), { timeout: 15_000 }).toEqual([]);
    expect(session.errors).toEqual([]);
  }, 60_000);
});

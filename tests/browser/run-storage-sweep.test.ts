/**
 * A tab closed in the middle of a live run never disposes it: its checkpoint database, its hosts'
 * disks and its rocksdb working directories in OPFS stay behind. The next page sweeps them, but
 * only those of runs no open tab holds (run-storage-lease.ts), and never the sim's checkpoint
 * database, which keeps what a retention policy retains.
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

const LIVE_ROCKSDB = {
  version: 1,
  name: 'Abandoned live run',
  seed: 5,
  job: keyedCountsJob({ keys: 40, rate: 1000, count: 600_000 }),
  config: { 'parallelism.default': 2, 'state.backend.type': 'rocksdb', 'execution.checkpointing.interval': '500 ms' },
  cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 1 },
};

/** The databases and OPFS directories of live runs, by run root. */
async function liveRunStorage(page: Page): Promise<{ databases: string[]; opfs: string[] }> {
  return page.evaluate(async () => {
    const databases = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('checkpoint-playground-live/'));
    const opfs: string[] = [];
    try {
      const root = await (await navigator.storage.getDirectory()).getDirectoryHandle('checkpoint-playground-live');
      for await (const [name] of root as unknown as AsyncIterable<[string, FileSystemHandle]>) opfs.push(name);
    } catch {
      // no live run ever wrote to OPFS
    }
    return { databases: databases.sort(), opfs: opfs.sort() };
  });
}

/** Opens the page in the live driver and starts `scenario`; resolves with the run's root once its working directories exist. */
async function startLiveRun(session: BrowserSession, page: Page): Promise<string> {
  await page.goto(`${session.baseUrl}/?driver=live`);
  await page.waitForFunction(() => window.playground !== undefined);
  await page.evaluate((s) => window.playground!.load(s).then(() => window.playground!.start()), LIVE_ROCKSDB);
  await expect.poll(async () => (await liveRunStorage(page)).opfs.length, { timeout: 30_000 }).toBeGreaterThan(0);
  const { opfs } = await liveRunStorage(page);
  return `checkpoint-playground-live/${opfs.at(-1)}`;
}

describe('sweeping the storage of runs whose tab closed', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('deletes a closed tab’s live run databases and OPFS directories when the next page opens', async () => {
    const closing = await session.context.newPage();
    await startLiveRun(session, closing);
    const left = await liveRunStorage(closing);
    expect(left.databases.length).toBeGreaterThan(0);
    await closing.close(); // no dispose: the tab just goes
    await session.page.goto(`${session.baseUrl}/`);
    await session.page.waitForFunction(() => window.playground !== undefined);
    await expect.poll(() => liveRunStorage(session.page), { timeout: 20_000 }).toEqual({ databases: [], opfs: [] });
  }, 120_000);

  it('keeps the storage of a live run another open tab is running, and that run goes on checkpointing', async () => {
    const running = await session.context.newPage();
    const root = await startLiveRun(session, running);
    const completedBefore = await running.evaluate(() => window.playground!.stats().then((s) => s.checkpoints.counts.completed));
    const other = await session.context.newPage();
    await other.goto(`${session.baseUrl}/`);
    await other.waitForFunction(() => window.playground !== undefined);
    // The other page's sweep is done (main.ts marks it in the page's performance timeline).
    await other.waitForFunction(() => performance.getEntriesByName('run-storage-swept').length > 0);
    const { databases, opfs } = await liveRunStorage(other);
    expect(databases.some((d) => d.startsWith(`${root}/`))).toBe(true);
    expect(opfs).toContain(root.split('/')[1]);
    await expect.poll(() => running.evaluate(() => window.playground!.stats().then((s) => s.checkpoints.counts.completed)), { timeout: 20_000 }).toBeGreaterThan(completedBefore + 1);
    await other.close();
    await running.close();
  }, 120_000);

  it('never sweeps the sim’s checkpoint database, which keeps retained checkpoints', async () => {
    const page = session.page;
    await page.evaluate(async () => {
      const p = window.playground!;
      await p.load(await (await fetch('/scenarios/min-pause.yaml')).text());
      await p.runUntil('6 s');
      await p.cancel();
    });
    const simDatabases = () => page.evaluate(() => indexedDB.databases().then((dbs) => dbs.map((d) => d.name ?? '').filter((n) => n.startsWith('checkpoint-playground/') && n.endsWith('/checkpoints'))));
    await expect.poll(simDatabases, { timeout: 20_000 }).not.toEqual([]);
    const before = await simDatabases();
    const next = await session.context.newPage();
    await next.goto(`${session.baseUrl}/`);
    await next.waitForFunction(() => window.playground !== undefined);
    await next.waitForFunction(() => performance.getEntriesByName('run-storage-swept').length > 0);
    expect(await simDatabases()).toEqual(before);
    await next.close();
    expect(session.errors).toEqual([]);
  }, 120_000);
});

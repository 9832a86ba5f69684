/**
 * `state.backend.type: rocksdb` in the live runtime of a browser that offers no Origin Private
 * File System (the page's `navigator.storage.getDirectory` removed before any script runs): the
 * JobManager finds no OPFS, says so once (one `runtime-notice` event, also to the Playground API's
 * subscribers; one sentence on the playground page, in English and Chinese) and the TaskManagers keep their working databases in
 * IndexedDB instead, one database per instance directory. Checkpoints complete, a killed
 * TaskManager's subtasks restore, the output is exactly-once against a failure-free run, and
 * disposing the run leaves none of those databases behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { checkLiveStorage, closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, startLive, waitForLive } from './live-test-page.ts';
import { keyedCountsJob } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

const SCENARIO = keyedCounts({
  name: 'Live rocksdb without OPFS',
  count: 16_000,
  rate: 1500,
  config: { 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true, 'execution.checkpointing.num-retained': 2 },
});

/** IndexedDB databases whose names start with `prefix`. */
function databasesUnder(session: BrowserSession, prefix: string): Promise<string[]> {
  return session.page.evaluate((p) => indexedDB.databases().then((dbs) => dbs.map((d) => d.name ?? '').filter((n) => n.startsWith(p)).sort()), prefix);
}

describe('rocksdb working directories in a browser without OPFS', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession();
    await session.context.addInitScript(() => {
      delete (StorageManager.prototype as { getDirectory?: unknown }).getDirectory;
    });
    await session.page.goto(`${session.baseUrl}/live/live-test.html`);
    await session.page.waitForFunction(() => window.liveTest !== undefined);
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('keeps the working databases in IndexedDB, says so once, restores a killed TaskManager exactly-once and leaves nothing behind', async () => {
    expect(await session.page.evaluate(() => typeof navigator.storage.getDirectory)).toBe('undefined');
    await startLive(session, SCENARIO);
    const db = await session.page.evaluate(() => window.liveDriver!.checkpointStorageSpec.databaseName);
    await waitForLive(session, `s.completedCheckpoints >= 3 || s.jobStatus !== 'RUNNING'`, 60_000);
    // Every TaskManager's working database of attempt 0 is an IndexedDB database named after its instance directory.
    const working = await databasesUnder(session, `${db}/hosts/`);
    expect(working, JSON.stringify(working)).toHaveLength(4);
    for (const name of working) expect(name).toMatch(new RegExp(`^${db}/hosts/host-[01]/tm-[0-3]/incarnation-\\d+/attempt-0$`));
    expect(await session.page.evaluate(() => window.liveDriver!.killTaskManager('tm-1'))).toBeUndefined();

    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`, 90_000);
    const notices = eventsOfType(finished.events, 'runtime-notice');
    expect(notices).toEqual([{ type: 'runtime-notice', time: 0, notice: { kind: 'rocksdb-local-dir-in-indexeddb' } }]);
    expect(finished.restarts).toBe(1);
    const restores = eventsOfType(finished.events, 'restore');
    expect(restores).toHaveLength(1);
    expect(restores[0]!.restore.subtasks.filter((s) => s.vertexId === 'count' && s.bytes > 0)).toHaveLength(4);
    const output = await compareLiveWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(output.liveRecords).toBe(output.simRecords);
    const storage = await checkLiveStorage(session);
    expect(storage).toMatchObject({ orphaned: [], missing: [], unreadable: [], storageErrors: [] });

    await session.page.evaluate(() => {
      const driver = window.liveDriver!;
      window.liveTest!.dispose();
      return driver.localDirsDeleted();
    });
    expect(await databasesUnder(session, `${db}/hosts/`)).toEqual([]);
    expect(session.errors).toEqual([]);
  }, 180_000);

  it('says once on the playground page, in English and in Chinese, and to the API\'s subscribers, where the working directories went', async () => {
    const page = session.page;
    await page.goto(`${session.baseUrl}/?driver=live`);
    await page.waitForFunction(() => window.playground !== undefined);
    const scenario = {
      version: 1,
      name: 'Live rocksdb notice',
      seed: 3,
      job: keyedCountsJob({ keys: 24, rate: 1000, count: 4_000 }),
      config: { 'parallelism.default': 2, 'state.backend.type': 'rocksdb', 'execution.checkpointing.interval': '500 ms' },
      cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 },
    };
    const noticed = await page.evaluateHandle(() => {
      const events: unknown[] = [];
      window.playground!.on('runtime-notice', (event) => events.push(event));
      return events;
    });
    await page.evaluate((s) => window.playground!.load(s).then(() => undefined), scenario);
    // The Playground API's subscribers hear it once, right after the load.
    expect(await noticed.evaluate((events) => events)).toEqual([{ type: 'runtime-notice', time: 0, notice: { kind: 'rocksdb-local-dir-in-indexeddb' } }]);
    await page.getByRole('button', { name: en['controls.run'], exact: true }).click();
    const notice = page.getByTestId('runtime-notice');
    await expect.poll(() => notice.count(), { timeout: 30_000 }).toBe(1);
    expect(await notice.textContent()).toBe(en['driver.rocksdbLocalDirInIndexedDb']);
    // The host's disk panel says where each working database is.
    const workingDb = page.locator('[data-testid="local-disk"][data-host="host-0"] [data-testid="rocksdb-working-dbs"] li').first();
    await expect.poll(() => workingDb.getAttribute('title'), { timeout: 30_000 }).toMatch(/in the IndexedDB database checkpoint-playground-live\/.+\/hosts\/host-0\/tm-\d\/incarnation-\d+\/attempt-0 \(this browser offers no OPFS\)$/);
    await page.getByTestId('locale-select').selectOption('zh-CN');
    await expect.poll(() => notice.textContent()).toBe(zhCN['driver.rocksdbLocalDirInIndexedDb']);
    await page.getByTestId('locale-select').selectOption('en');
    expect(await notice.count()).toBe(1);
    expect(session.errors).toEqual([]);
  }, 90_000);
});

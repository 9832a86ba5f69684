/**
 * The playground page in the live driver with `state.backend.type: rocksdb`, in real Chromium:
 * each host's disk panel lists its TaskManagers' rocksdb working directories (the wa-sqlite LSM
 * databases in the host's OPFS directory) with their sizes, in English and in Chinese.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { openPlaygroundSession, type BrowserSession } from './browser-session.ts';
import { keyedCountsJob } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

const SCENARIO = {
  version: 1,
  name: 'Live rocksdb disks',
  seed: 3,
  job: keyedCountsJob({ keys: 40, rate: 1000, count: 60_000 }),
  config: {
    'parallelism.default': 4,
    'state.backend.type': 'rocksdb',
    'execution.checkpointing.interval': '500 ms',
    'heartbeat.interval': '2 s',
    'heartbeat.timeout': '20 s',
  },
  cluster: { hosts: 2, task_managers_per_host: 2, slots_per_task_manager: 1 },
};

/** The working directories the host's disk panel lists: TaskManager and bytes. */
function listed(session: BrowserSession, host: string): Promise<Array<{ taskManager: string; bytes: number; title: string }>> {
  return session.page
    .locator(`[data-testid="local-disk"][data-host="${host}"] [data-testid="rocksdb-working-dbs"] li`)
    .evaluateAll((items) => items.map((li) => ({ taskManager: li.getAttribute('data-task-manager') ?? '', bytes: Number(li.getAttribute('data-bytes')), title: li.getAttribute('title') ?? '' })));
}

describe('the host disk panel in the live driver with the rocksdb backend', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openPlaygroundSession({}, '/?driver=live');
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lists each TaskManager\'s RocksDB working directory on its host\'s disk with its OPFS size', async () => {
    const page = session.page;
    await page.evaluate((scenario) => window.playground!.load(scenario).then(() => undefined), SCENARIO);
    await expect.poll(() => page.getByTestId('driver-status').getAttribute('data-workers'), { timeout: 30_000 }).toBe('4');
    await page.getByRole('button', { name: en['controls.run'], exact: true }).click();
    await expect.poll(async () => (await listed(session, 'host-0')).filter((w) => w.bytes > 0).map((w) => w.taskManager), { timeout: 30_000 }).toEqual(['tm-0', 'tm-1']);
    // The disk's size counts its working directories too (no local copies here: local recovery is off).
    const disk = page.locator('[data-testid="local-disk"][data-host="host-0"]');
    const workingBytes = (await listed(session, 'host-0')).reduce((n, w) => n + w.bytes, 0);
    expect(Number(await disk.getAttribute('data-bytes'))).toBeGreaterThanOrEqual(workingBytes);
    const host1 = await listed(session, 'host-1');
    expect(host1.map((w) => w.taskManager)).toEqual(['tm-2', 'tm-3']);
    expect(host1[0]!.title).toContain('state.backend.rocksdb.localdir');
    expect(host1[0]!.title).toContain('/hosts/host-1/tm-2/');
    await expect(page.locator('[data-testid="local-disk"][data-host="host-0"] [data-testid="rocksdb-working-dbs"]').textContent()).resolves.toContain(en['storage.rocksdbWorkingDb']);
    await page.locator('.cluster-panel').scrollIntoViewIfNeeded();
    await session.screenshot('storage-live-rocksdb-working-dirs');

    await page.getByTestId('locale-select').selectOption('zh-CN');
    await expect.poll(() => page.locator('[data-testid="local-disk"][data-host="host-0"] [data-testid="rocksdb-working-dbs"]').textContent()).toContain(zhCN['storage.rocksdbWorkingDb']);
    await page.getByTestId('locale-select').selectOption('en');
    expect(session.errors).toEqual([]);
  }, 90_000);
});

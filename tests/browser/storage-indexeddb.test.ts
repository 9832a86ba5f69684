/**
 * The IndexedDB checkpoint storage on Chromium's real IndexedDB (the contract suite runs it on
 * fake-indexeddb in Node): a 10 MB checkpoint round trip, an injected failure that leaves nothing,
 * the quota, and the throughput bench's plumbing (tiny sizes; the figures come from
 * `npx tsx tests/bench/storage-throughput.ts`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { callInPage, openStorageBenchPage } from '../bench/storage-throughput.ts';
import type { StorageBenchResult } from './storage-bench-in-page.ts';

describe('IndexedDB checkpoint storage in Chromium', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession();
    await openStorageBenchPage(session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('writes a 10 MB checkpoint atomically, rolls back an injected failure, and enforces the quota', async () => {
    const r = await callInPage<Record<string, any>>(session, 'storageSmoke');
    expect(r.firstError).toBeUndefined();
    expect(r.bigRoundTrip).toBe(true);
    expect(r.injected).toMatchObject({ reason: 'IO_EXCEPTION', cause: 'injected' });
    expect(r.injected.message).toContain('injected in Chromium');
    expect(r.afterInjected).toEqual([]);
    expect(r.quota).toMatchObject({ reason: 'IO_EXCEPTION', cause: 'quota-exceeded' });
    expect(r.quota.message).toContain('The DiskSpace quota of file:///bench-checkpoints is exceeded: quota = 33554432 B = 32 MB');
    expect(r.afterQuota).toEqual([]);
    expect(r.usage).toEqual({ fileCount: 2, bytes: 10_000_003 });
    expect(r.discard).toBeUndefined();
    expect(r.afterDiscard).toEqual({ fileCount: 0, bytes: 0 });
    expect(session.errors).toEqual([]);
  }, 120_000);

  it('runs the throughput bench against raw idb in the page', async () => {
    const [result] = await callInPage<StorageBenchResult[]>(session, 'runStorageBench', { scenarios: [{ fileBytes: 64 * 1024, filesPerCheckpoint: 4, checkpoints: 4 }], rounds: 1 });
    expect(result!.files).toBe(16);
    for (const figure of [result!.storageWriteMiBps, result!.rawWriteMiBps, result!.storageReadMiBps, result!.rawReadMiBps, result!.writeRatio, result!.readRatio]) {
      expect(Number.isFinite(figure) && figure > 0).toBe(true);
    }
    expect(session.errors).toEqual([]);
  }, 120_000);
});

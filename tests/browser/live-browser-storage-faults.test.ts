/**
 * Faults of the browser's own storage under a live run, in real Chromium: each fails checkpoints
 * with Flink's reason while it lasts, never the job or the page, and nothing is lost.
 * - IndexedDB's quota used up: the origin's quota is shrunk for real through the DevTools
 *   protocol (Storage.overrideQuotaForOrigin), so every put throws QuotaExceededError. Uploads
 *   fail (CHECKPOINT_ASYNC_EXCEPTION, the TaskManager's decline names QuotaExceededError) or
 *   `_metadata` cannot be written (FINALIZE_CHECKPOINT_FAILURE); once the quota is lifted
 *   checkpoints complete again and the job finishes exactly-once with nothing left in storage.
 * - A transaction aborted in the middle of the JobManager's `_metadata` write: that checkpoint
 *   fails with FINALIZE_CHECKPOINT_FAILURE; the deletions aborted with it are retried after the
 *   next completed checkpoint, so the failed checkpoints' files do not stay behind.
 * - Another tab upgrading the run's checkpoint database: every connection of the run gives way
 *   (idb's `blocking`), and from then on checkpoints fail with a storage error that says so,
 *   never IndexedDB's InvalidStateError; the job keeps running (without reconnecting).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './browser-session.ts';
import { checkLiveStorage, closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, openLiveTestPage, playRestFast, startLive, waitForLive } from './live-test-page.ts';

const SCENARIO = keyedCounts({
  name: 'Browser storage faults',
  count: 24_000,
  config: { 'execution.checkpointing.tolerable-failed-checkpoints': 1000 },
});

/** The reasons a checkpoint fails for when storage fails, in Flink's names. */
const STORAGE_FAILURE_REASONS = ['CHECKPOINT_ASYNC_EXCEPTION', 'FINALIZE_CHECKPOINT_FAILURE'];

const START_QUOTA_BYTES = 8 * 1024 * 1024;

/**
 * Writes more than START_QUOTA_BYTES (random, so IndexedDB cannot compress it) to a scratch
 * database: Chromium then looks at the quota again instead of trusting its cached free space, and
 * every write of the origin after it sees the new quota. Returns the error name, or 'ok'.
 */
function writeMoreThanTheStartQuota(session: BrowserSession): Promise<string> {
  return session.page.evaluate(
    (size) =>
      new Promise<string>((resolve) => {
        const bytes = new Uint8Array(size);
        for (let i = 0; i < size; i += 65_536) crypto.getRandomValues(bytes.subarray(i, i + 65_536));
        const open = indexedDB.open('quota-probe', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('bytes');
        open.onerror = () => resolve(open.error?.name ?? 'open failed');
        open.onsuccess = () => {
          const tx = open.result.transaction('bytes', 'readwrite');
          tx.objectStore('bytes').put(bytes, 'probe');
          const done = (outcome: string) => {
            open.result.close();
            indexedDB.deleteDatabase('quota-probe');
            resolve(outcome);
          };
          tx.oncomplete = () => done('ok');
          tx.onabort = () => done(tx.error?.name ?? 'aborted');
        };
      }),
    START_QUOTA_BYTES + 1024 * 1024,
  );
}

describe('browser storage faults under a live run', () => {
  let session: BrowserSession;

  // One browser for the three runs: each starts its own run (with its own checkpoint database) on the page.
  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('fails checkpoints while IndexedDB quota is exceeded, keeps the job running, and completes them again once there is room', async () => {
    const cdp = await session.context.newCDPSession(session.page);
    // A quota Chromium checks often: it trusts its last look at the free space until writes used it up.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: session.baseUrl, quotaSize: START_QUOTA_BYTES });
    await startLive(session, SCENARIO);
    const before = await waitForLive(session, 's.completedCheckpoints >= 2');
    // One byte: every write of the origin (IndexedDB of the JobManager, the TaskManagers and the host disks) is over quota.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: session.baseUrl, quotaSize: 1 });
    expect(await writeMoreThanTheStartQuota(session)).toBe('QuotaExceededError');

    const full = await waitForLive(session, `s.failedCheckpoints >= ${before.failedCheckpoints + 2}`);
    expect(full.jobStatus).toBe('RUNNING');
    const failures = eventsOfType(full.events, 'checkpoint-failed').filter((e) => e.checkpointId > before.latestCheckpointId!);
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures.map((f) => f.reason).filter((r) => !STORAGE_FAILURE_REASONS.includes(r))).toEqual([]);
    // Why, as Flink would log it: the declines and the JobManager's failed writes name the browser's quota.
    const why = await session.page.evaluate(() => [...window.liveDriver!.declineCauses, ...window.liveDriver!.storageErrors]);
    expect(why.some((m) => m.includes("QuotaExceededError: the browser's storage quota for this origin is used up"))).toBe(true);
    const detail = await session.page.evaluate((id) => window.liveDriver!.coordinator.stats.checkpointDetails(id), failures[0]!.checkpointId);
    expect(detail).toMatchObject({ status: 'FAILED' });

    // Room again (the override lifted): checkpoints complete, the failure count resets.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: session.baseUrl });
    const recovered = await waitForLive(session, `s.latestCheckpointId > ${full.latestCheckpointId ?? 0} && s.completedCheckpoints > ${full.completedCheckpoints}`);
    expect(recovered.jobStatus).toBe('RUNNING');

    await playRestFast(session);
    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`, 90_000);
    expect(finished.restarts).toBe(0);
    expect(await compareLiveWithSim(session)).toMatchObject({ liveStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    const storage = await checkLiveStorage(session);
    expect(storage).toMatchObject({ orphaned: [], missing: [], unreadable: [] });
    expect(storage.files).toEqual([]);
    expect(session.errors).toEqual([]);
  }, 120_000);

  it('fails the checkpoint whose _metadata transaction was aborted with FINALIZE_CHECKPOINT_FAILURE, and deletes its files after the next one completes', async () => {
    await startLive(session, SCENARIO);
    const before = await waitForLive(session, 's.completedCheckpoints >= 2');
    // Every read-write transaction of the JobManager's connection is aborted, in the middle of its requests.
    await session.page.evaluate(() => {
      const storage = window.liveDriver!.checkpointStorage as unknown as { onReadWriteTransaction: ((tx: IDBTransaction) => void) | undefined };
      storage.onReadWriteTransaction = (tx) => tx.abort();
    });
    const aborted = await waitForLive(session, `s.events.some((e) => e.type === 'checkpoint-failed' && e.reason === 'FINALIZE_CHECKPOINT_FAILURE' && e.checkpointId > ${before.latestCheckpointId})`);
    await session.page.evaluate(() => {
      (window.liveDriver!.checkpointStorage as unknown as { onReadWriteTransaction: undefined }).onReadWriteTransaction = undefined;
    });
    expect(aborted.jobStatus).toBe('RUNNING');
    const failedIds = eventsOfType(aborted.events, 'checkpoint-failed')
      .filter((e) => e.checkpointId > before.latestCheckpointId!)
      .map((e) => e.checkpointId);
    const errors = await session.page.evaluate(() => [...window.liveDriver!.storageErrors]);
    expect(errors, errors.join('\n')).toContainEqual(expect.stringMatching(/_metadata in order to obtain the stream state handle\. Caused by: AbortError: the IndexedDB transaction was aborted$/));

    // The next completed checkpoint retries what the aborted transactions could not delete.
    const next = await waitForLive(session, `s.completedCheckpoints > ${aborted.completedCheckpoints} && s.latestCheckpointId > ${aborted.latestCheckpointId ?? 0}`);
    expect(next.jobStatus).toBe('RUNNING');
    const leftBehind = async () => (await checkLiveStorage(session, 0)).files.filter((f) => failedIds.some((id) => f.includes(`/chk-${id}/`)));
    await expect.poll(leftBehind, { timeout: 20_000, interval: 100 }).toEqual([]);

    await playRestFast(session);
    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`, 90_000);
    expect(finished.restarts).toBe(0);
    expect(await compareLiveWithSim(session)).toMatchObject({ liveStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    const storage = await checkLiveStorage(session);
    expect(storage).toMatchObject({ orphaned: [], missing: [], unreadable: [] });
    expect(storage.files).toEqual([]);
    expect(session.errors).toEqual([]);
  }, 120_000);

  it('fails checkpoints with a storage error naming the upgrade once another tab upgrades the checkpoint database, and keeps the job running', async () => {
    await startLive(session, SCENARIO);
    const before = await waitForLive(session, 's.completedCheckpoints >= 2');
    // Another tab (here: the page itself) opens the run's database at a newer version: every connection of the run gives way.
    await session.page.evaluate(
      (name) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open(name, 2);
          open.onsuccess = () => {
            open.result.close();
            resolve();
          };
          open.onerror = () => reject(open.error);
        }),
      await session.page.evaluate(() => window.liveDriver!.checkpointStorageSpec.databaseName),
    );
    const failing = await waitForLive(session, `s.failedCheckpoints >= ${before.failedCheckpoints + 2}`);
    expect(failing.jobStatus).toBe('RUNNING');
    const failures = eventsOfType(failing.events, 'checkpoint-failed').filter((e) => e.checkpointId > before.latestCheckpointId!);
    expect(failures.map((f) => f.reason).filter((r) => !STORAGE_FAILURE_REASONS.includes(r))).toEqual([]);
    const why = await session.page.evaluate(() => [...window.liveDriver!.declineCauses, ...window.liveDriver!.storageErrors]);
    expect(why.some((m) => m.includes('the checkpoint database was closed: another tab or connection upgrades it to a newer version'))).toBe(true);
    expect(why.filter((m) => m.includes('InvalidStateError'))).toEqual([]);

    // The run's storage stays closed to it: checkpoints go on failing, each counted (the tolerable
    // count is high here), and the job keeps running. Its two-phase-commit sink cannot finish
    // without a completed checkpoint, as in Flink, so the job does not finish either.
    const later = await waitForLive(session, `s.failedCheckpoints >= ${failing.failedCheckpoints + 3}`);
    expect(later).toMatchObject({ jobStatus: 'RUNNING', restarts: 0, completedCheckpoints: failing.completedCheckpoints });
    expect(session.errors).toEqual([]);
  }, 120_000);
});

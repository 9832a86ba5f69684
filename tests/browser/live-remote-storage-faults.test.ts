/**
 * Faults of the remote checkpoint storage in the live runtime, in real Chromium: the JobManager
 * and every TaskManager worker talk to the same IndexedDB store through the remote cost model, and
 * slow-remote-storage / fail-remote-storage / heal-remote-storage apply to all of them.
 * - slow ×10: every upload waits ten times the modelled latency, which shows as the subtasks'
 *   async durations in Flink's checkpoint statistics;
 * - failing: uploads fail, the subtasks decline, checkpoints fail with CHECKPOINT_ASYNC_EXCEPTION and the
 *   failure manager counts them; the completed checkpoint before stays readable in storage;
 * - healed: checkpoints complete again (the count resets), the job finishes exactly-once, and
 *   nothing the failing store could not delete is left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './browser-session.ts';
import { checkLiveStorage, closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, openLiveTestPage, startLive, waitForLive } from './live-test-page.ts';

const REMOTE_LATENCY_MS = 50;
const SLOW_FACTOR = 10;
const SCENARIO = {
  ...keyedCounts({
    name: 'Live remote storage faults',
    count: 30_000,
    config: { 'execution.checkpointing.tolerable-failed-checkpoints': 1000 },
  }),
  costs: { remote_latency_ms: REMOTE_LATENCY_MS },
};

/** Per completed checkpoint: its trigger time and the shortest async phase of any of its subtasks (job ms). */
interface CheckpointAsync {
  id: number;
  trigger: number;
  minAsync: number;
}

async function completedAsyncDurations(session: BrowserSession): Promise<CheckpointAsync[]> {
  return session.page.evaluate(() => {
    const driver = window.liveDriver!;
    const stats = driver.coordinator.stats;
    return stats
      .checkpointingStatistics()
      .history.filter((h) => h.status === 'COMPLETED')
      .map((h) => {
        const asyncs = driver.graph.vertices.flatMap((v) => stats.taskCheckpointStatistics(h.id, v.id)?.subtasks.map((s) => ('checkpoint' in s ? s.checkpoint.async : Infinity)) ?? []);
        return { id: h.id, trigger: h.trigger_timestamp, minAsync: Math.min(...asyncs) };
      });
  });
}

describe('slow-remote-storage, fail-remote-storage and heal-remote-storage in the live runtime', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('stretches async durations when slow, fails checkpoints with CHECKPOINT_ASYNC_EXCEPTION when failing, and completes them again once healed', async () => {
    await startLive(session, SCENARIO);
    const started = await waitForLive(session, `s.completedCheckpoints >= 2`);
    const before = await completedAsyncDurations(session);

    // Slow: checkpoints triggered once every worker heard of it (after the next completed one) upload ten times slower.
    expect(await session.page.evaluate((f) => window.liveDriver!.slowRemoteStorage(f), SLOW_FACTOR)).toBeUndefined();
    const slowAt = (await waitForLive(session, `s.completedCheckpoints >= ${started.completedCheckpoints + 1}`)).time;
    const slowDone = await waitForLive(session, `s.completedCheckpoints >= ${started.completedCheckpoints + 4}`);
    expect(await session.page.evaluate(() => window.liveDriver!.slowRemoteStorage(1))).toBeUndefined();
    const slow = (await completedAsyncDurations(session)).filter((c) => c.trigger > slowAt);
    expect(slow.length).toBeGreaterThanOrEqual(2);
    for (const c of slow) expect(c.minAsync).toBeGreaterThanOrEqual(SLOW_FACTOR * REMOTE_LATENCY_MS);
    const mean = (cs: CheckpointAsync[]) => cs.reduce((n, c) => n + c.minAsync, 0) / cs.length;
    expect(mean(slow)).toBeGreaterThan(mean(before));

    // Failing: checkpoints fail with CHECKPOINT_ASYNC_EXCEPTION, counted by the failure manager; the job runs on.
    const failedBefore = slowDone.failedCheckpoints;
    // The store fails once the latest completed checkpoint's `_metadata` is written.
    const lastGood = await session.page.evaluate(async () => {
      const driver = window.liveDriver!;
      const latest = driver.coordinator.latestCheckpoint()!.id;
      await driver.storageIdle();
      driver.failRemoteStorage(true);
      return latest;
    });
    const failing = await waitForLive(session, `s.failedCheckpoints >= ${failedBefore + 2}`);
    expect(failing.jobStatus).toBe('RUNNING');
    const failures = eventsOfType(failing.events, 'checkpoint-failed').filter((e) => e.checkpointId > lastGood);
    expect(failures.length).toBeGreaterThanOrEqual(2);
    // Uploads fail (CHECKPOINT_ASYNC_EXCEPTION); one whose uploads were done before the store failed fails when
    // its `_metadata` cannot be written (FINALIZE_CHECKPOINT_FAILURE), as in Flink.
    const reasons = failures.map((e) => e.reason);
    expect(reasons.filter((r) => r !== 'CHECKPOINT_ASYNC_EXCEPTION' && r !== 'FINALIZE_CHECKPOINT_FAILURE')).toEqual([]);
    const ioFailure = failures.find((e) => e.reason === 'CHECKPOINT_ASYNC_EXCEPTION');
    expect(ioFailure).toBeDefined();
    const detail = await session.page.evaluate((id) => window.liveDriver!.coordinator.stats.checkpointDetails(id), ioFailure!.checkpointId);
    expect(detail).toMatchObject({ className: 'failed', status: 'FAILED', failure_message: 'Asynchronous task checkpoint failed.' });
    expect(await session.page.evaluate(() => window.liveDriver!.coordinator.continuousFailureCount)).toBeGreaterThanOrEqual(2);
    // What was completed is unharmed: every retained checkpoint, at least as new as lastGood, is
    // restorable from IndexedDB (its `_metadata` is there; nothing is deleted while the store fails).
    const midStorage = await checkLiveStorage(session, 0);
    const metadataIdsOf = (files: string[]) => files.flatMap((f) => /\/chk-(\d+)\/_metadata$/.exec(f)?.[1] ?? []).map(Number);
    expect(Math.min(...midStorage.retainedCheckpointIds)).toBeGreaterThanOrEqual(lastGood);
    expect(metadataIdsOf(midStorage.files)).toEqual(expect.arrayContaining(midStorage.retainedCheckpointIds));

    // Healed: checkpoints complete again and the failure count resets.
    expect(await session.page.evaluate(() => window.liveDriver!.failRemoteStorage(false))).toBeUndefined();
    const healed = await waitForLive(session, `s.latestCheckpointId > ${failing.latestCheckpointId}`);
    expect(healed.jobStatus).toBe('RUNNING');
    // Restorable again: the new checkpoint's `_metadata` (or a newer one's) is in IndexedDB.
    const healedStorage = await checkLiveStorage(session, 0);
    expect(Math.max(...metadataIdsOf(healedStorage.files))).toBeGreaterThanOrEqual(healed.latestCheckpointId!);
    expect(await session.page.evaluate(() => window.liveDriver!.coordinator.continuousFailureCount)).toBe(0);

    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`, 90_000);
    expect(eventsOfType(finished.events, 'fault').map((e) => e.description)).toEqual([
      'remote storage ×10 slower',
      'remote storage ×1 slower',
      'remote storage fails every request',
      'remote storage works again',
    ]);
    // As data too, for the UI to say in the reader's language.
    expect(eventsOfType(finished.events, 'fault').map((e) => e.fault)).toEqual([
      { kind: 'slow-remote-storage', factor: 10 },
      { kind: 'slow-remote-storage', factor: 1 },
      { kind: 'fail-remote-storage' },
      { kind: 'heal-remote-storage' },
    ]);
    expect(finished.restarts).toBe(0);
    const output = await compareLiveWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    const storage = await checkLiveStorage(session);
    expect(storage).toMatchObject({ orphaned: [], missing: [], unreadable: [] });
    expect(storage.files).toEqual([]);
    // The only storage errors the JobManager saw were the injected ones (deletions while failing).
    expect(storage.storageErrors.filter((e) => !e.includes('Injected I/O error'))).toEqual([]);
    expect(session.errors).toEqual([]);
  }, 120_000);
});

/**
 * `state.backend.type: rocksdb` in the live runtime, in real Chromium: each TaskManager worker
 * loads wa-sqlite (its working database in an OPFS directory of its host, never reused by a
 * replacement, like the RocksDB instances of a dead TaskManager; live-rocksdb-local-dir.test.ts)
 * and its keyed subtasks keep state in the LSM tree. With
 * incremental checkpoints the workers upload only the SST runs the last confirmed checkpoint did
 * not have (shared files in IndexedDB), so checkpointed_size stays below state_size; a killed
 * worker's subtasks restore from the runs read back from IndexedDB; the output is exactly-once
 * against a failure-free run, and no shared file outlives the job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './browser-session.ts';
import { checkLiveStorage, closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, liveStatus, openLiveTestPage, startLive, waitForLive } from './live-test-page.ts';

const SCENARIO = (() => {
  const base = keyedCounts({
    name: 'Live rocksdb incremental',
    count: 24_000,
    rate: 1500,
    config: {
      'state.backend.type': 'rocksdb',
      'execution.checkpointing.incremental': true,
      'execution.checkpointing.num-retained': 2,
    },
  }) as { job: { vertices: Array<{ id: string; source?: object }> } };
  // Many keys, few of them hot: each interval changes part of the state.
  const vertices = base.job.vertices.map((v) => (v.id === 'source' ? { ...v, source: { kind: 'random', keys: 20_000, skew: 0.6, rate_per_s: 1500, count: 24_000 } } : v));
  return { ...base, job: { ...base.job, vertices } };
})();

interface CheckpointSizes {
  id: number;
  checkpointed: number;
  state: number;
}

async function completedSizes(session: BrowserSession): Promise<CheckpointSizes[]> {
  return session.page.evaluate(() =>
    window
      .liveDriver!.coordinator.stats.checkpointingStatistics()
      .history.filter((h) => h.status === 'COMPLETED' && !h.is_savepoint)
      .map((h) => ({ id: h.id, checkpointed: h.checkpointed_size, state: h.state_size }))
      .sort((a, b) => a.id - b.id),
  );
}

describe('state.backend.type: rocksdb in the live runtime', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('runs incremental rocksdb checkpoints on the workers, survives a killed worker exactly-once, and uploads less than the full state', async () => {
    await startLive(session, SCENARIO);
    const running = await waitForLive(session, `s.completedCheckpoints >= 5 || s.jobStatus !== 'RUNNING'`, 90_000);
    expect(running.jobStatus).toBe('RUNNING');
    const beforeKill = await completedSizes(session);
    const midStorage = await checkLiveStorage(session, 0);
    // The SST runs are shared files in IndexedDB, referred to by the retained checkpoints.
    expect(midStorage.files.some((f) => f.startsWith('indexeddb://checkpoints/live-job/shared/'))).toBe(true);
    // (Uploads in flight are not referred to yet, so only what retained checkpoints refer to is checked now.)
    expect(midStorage.missing).toEqual([]);
    expect(await session.page.evaluate(() => window.liveDriver!.killTaskManager('tm-1'))).toBeUndefined();
    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`, 90_000);

    // Later checkpoints upload only new runs and the manifest: less than the state they stand for
    // (but after a compaction that rewrote every run, as RocksDB's compactions can).
    const later = beforeKill.slice(1);
    const sizes = JSON.stringify(later);
    expect(later.length, sizes).toBeGreaterThanOrEqual(3);
    expect(later.filter((c) => c.checkpointed < c.state).length, sizes).toBeGreaterThanOrEqual(later.length / 2);
    const sum = (key: 'checkpointed' | 'state') => later.reduce((n, c) => n + c[key], 0);
    expect(sum('checkpointed'), sizes).toBeLessThan(sum('state'));
    for (const c of later) expect(c.checkpointed, sizes).toBeLessThanOrEqual(c.state);
    const restores = eventsOfType(finished.events, 'restore');
    expect(restores).toHaveLength(1);
    const count = restores[0]!.restore.subtasks.filter((s) => s.vertexId === 'count');
    expect(count).toHaveLength(4);
    expect(count.every((s) => s.bytes > 0)).toBe(true);
    expect(finished.restarts).toBe(1);

    const output = await compareLiveWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(output.liveRecords).toBe(output.simRecords);
    const storage = await checkLiveStorage(session);
    expect(storage).toMatchObject({ orphaned: [], missing: [], unreadable: [], storageErrors: [] });
    expect(storage.files).toEqual([]);
    expect((await liveStatus(session)).jobStatus).toBe('FINISHED');
    expect(session.errors).toEqual([]);
  }, 180_000);
});

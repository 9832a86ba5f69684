/**
 * Rescaling and restarting from a savepoint in the live runtime, in real Chromium. A rescale
 * restarts the job from its latest completed checkpoint with another parallelism for one vertex:
 * the keyed state is split or merged by key groups (Flink's StateAssignmentOperation) and read
 * back from IndexedDB, and the new subtasks take the cluster's free slots on the TaskManager
 * workers. The sink's totals stay exactly those of a failure-free sim run. A restart from an older
 * savepoint writes again what later checkpoints committed, as Flink does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './browser-session.ts';
import { checkLiveStorage, closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, openLiveTestPage, startLive, waitForLive } from './live-test-page.ts';

/** Parallelism 2 on four single-slot TaskManagers; the count → sink edge is hash, so the count can change alone. */
const SCENARIO = keyedCounts({ name: 'Live rescale', parallelism: 2, count: 12_000, rate: 1500, sinkEdge: 'hash' });

async function countSubtasks(session: BrowserSession): Promise<Array<{ taskManager: string; keyGroups: string }>> {
  return session.page.evaluate(() =>
    window
      .liveDriver!.topology()
      .subtasks.filter((s) => s.vertexId === 'count')
      .map((s) => ({ taskManager: s.taskManager, keyGroups: `${s.keyGroupRange?.start}-${s.keyGroupRange?.end}` })),
  );
}

describe('rescale and restartFromSavepoint in the live runtime', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('rescales the keyed count 2 → 4 → 2 from the latest checkpoint by key groups and keeps the totals exact', async () => {
    await startLive(session, SCENARIO);
    expect(await countSubtasks(session)).toEqual([
      { taskManager: 'tm-0', keyGroups: '0-63' },
      { taskManager: 'tm-1', keyGroups: '64-127' },
    ]);
    const first = await waitForLive(session, `s.latestCheckpointId !== null && s.latestCheckpointId >= 2`);
    expect(await session.page.evaluate(() => window.liveDriver!.rescale('count', 4))).toBeUndefined();
    const up = await waitForLive(session, `s.jobStatus === 'RUNNING' && s.attempt === ${first.attempt + 1} && s.latestCheckpointId > ${first.latestCheckpointId! + 1}`);
    // Four count subtasks over the four TaskManagers, with Flink's key-group ranges for max parallelism 128.
    expect(await countSubtasks(session)).toEqual([
      { taskManager: 'tm-0', keyGroups: '0-31' },
      { taskManager: 'tm-1', keyGroups: '32-63' },
      { taskManager: 'tm-2', keyGroups: '64-95' },
      { taskManager: 'tm-3', keyGroups: '96-127' },
    ]);
    expect(await session.page.evaluate(() => window.liveDriver!.rescale('count', 2))).toBeUndefined();
    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`, 90_000);
    expect(await countSubtasks(session)).toHaveLength(2);

    expect(finished.restarts).toBe(0);
    expect(finished.workersCreated).toBe(4);
    const faults = eventsOfType(finished.events, 'fault').map((e) => e.description);
    expect(faults).toHaveLength(2);
    const [toFour, toTwo] = faults.map((f) => /^rescale count to parallelism (\d) from checkpoint (\d+)$/.exec(f));
    expect(toFour?.[1]).toBe('4');
    expect(Number(toFour?.[2])).toBeGreaterThanOrEqual(first.latestCheckpointId!);
    expect(toTwo?.[1]).toBe('2');
    expect(Number(toTwo?.[2])).toBeGreaterThanOrEqual(up.latestCheckpointId!);
    const restores = eventsOfType(finished.events, 'restore');
    expect(restores).toHaveLength(2);
    // Every count subtask read its key groups from remote storage: local copies never serve a rescale.
    const countRestores = restores.map((r) => r.restore.subtasks.filter((s) => s.vertexId === 'count'));
    expect(countRestores.map((r) => r.map((s) => [s.source, 'reason' in s ? s.reason : undefined]))).toEqual([
      [['remote', 'rescaled'], ['remote', 'rescaled'], ['remote', 'rescaled'], ['remote', 'rescaled']],
      [['remote', 'rescaled'], ['remote', 'rescaled']],
    ]);
    expect(countRestores.flat().every((s) => s.bytes > 0)).toBe(true);

    const output = await compareLiveWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(output.liveRecords).toBe(output.simRecords);
    expect(session.errors).toEqual([]);
  }, 120_000);

  it('answers a rescale it cannot do with the same messages as the sim driver', async () => {
    await startLive(session, keyedCounts({ name: 'Live rescale refusals', parallelism: 2 }));
    const early = await session.page.evaluate(() => window.liveDriver!.rescale('count', 3));
    expect(early).toBe('no completed checkpoint or savepoint to rescale from yet');
    await waitForLive(session, `s.latestCheckpointId !== null`);
    const answers = await session.page.evaluate(() => [
      window.liveDriver!.rescale('nope', 2),
      window.liveDriver!.rescale('count', 5),
      window.liveDriver!.rescale('count', 3),
      window.liveDriver!.rescale('source', 3),
    ]);
    expect(answers).toEqual([
      'unknown vertex "nope" (vertices: source, count, sink)',
      'parallelism 5 needs 5 slots; the cluster has 4',
      'cannot rescale "count": its edge count → sink is forward, which needs equal parallelism on both ends',
      'cannot rescale source "source": its 2 splits are fixed (like Kafka partitions)',
    ]);
  }, 60_000);

  it('restarts from an older savepoint and writes again what the checkpoints after it committed', async () => {
    await startLive(session, SCENARIO);
    expect(await session.page.evaluate(() => window.liveDriver!.restartFromSavepoint())).toBe('no savepoint has completed yet');
    await waitForLive(session, `s.latestCheckpointId !== null`);
    expect(await session.page.evaluate(() => window.liveDriver!.triggerCheckpoint('savepoint'))).toBeUndefined();
    const withSavepoint = await waitForLive(session, `s.events.some((e) => e.type === 'checkpoint-completed' && e.isSavepoint)`);
    const savepointId = eventsOfType(withSavepoint.events, 'checkpoint-completed').find((e) => e.isSavepoint)!.checkpointId;
    // A checkpoint after the savepoint completes and its transactions are committed.
    await waitForLive(session, `s.latestCheckpointId > ${savepointId}`);
    await checkLiveStorage(session, 100);
    expect(await session.page.evaluate(() => window.liveDriver!.restartFromSavepoint(9999))).toBe(`no savepoint 9999 (savepoints: ${savepointId})`);
    expect(await session.page.evaluate(() => window.liveDriver!.restartFromSavepoint())).toBeUndefined();
    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`, 90_000);
    const restores = eventsOfType(finished.events, 'restore');
    expect(finished.restarts).toBe(0);
    expect(restores.map((r) => [r.restore.checkpointId, r.restore.isSavepoint])).toEqual([[savepointId, true]]);
    expect(eventsOfType(finished.events, 'fault').map((e) => e.description)).toEqual([`restart from savepoint ${savepointId}`]);
    const output = await compareLiveWithSim(session);
    expect(output.missing).toBe(0);
    expect(output.duplicates).toBeGreaterThan(0);
    expect(session.errors).toEqual([]);
  }, 120_000);
});

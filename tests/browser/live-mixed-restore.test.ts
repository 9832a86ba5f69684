/**
 * A restore that mixes local and remote within one subtask, in the live runtime in real Chromium
 * (Flink's PrioritizedOperatorSubtaskState: the local alternative first, per state handle, and the
 * job manager's copy only for what it lacks): while the job restarts after a killed TaskManager
 * worker, one key-group handle of count#1's local copy is deleted or corrupted (`key_group`).
 * count#1 then reads its three intact handles from its host's disk and only the damaged one from
 * remote storage (IndexedDB), with the reason, and the output stays exactly-once against the
 * failure-free run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './browser-session.ts';
import { closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, openLiveTestPage, startLive, waitForLive } from './live-test-page.ts';

/** A restart delay long enough to damage a handle between the failover and the restore. */
const SCENARIO = keyedCounts({ name: 'Live mixed restore', config: { 'restart-strategy.fixed-delay.delay': '1500 ms' } });

/** count#1 of 4 owns key groups 32–63 (max parallelism 128); its local copy is 4 handles of 8. */
const DAMAGED_KEY_GROUP = 40;

describe('a live restore mixes local and remote per key-group handle', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it.each([
    ['deleteLocalCopy', 'partial'],
    ['corruptLocalCopy', 'corrupt'],
  ] as const)('%s of one key-group handle: count#1 reads the other three from its host and that one from remote (%s), exactly once', async (fault, reason) => {
    await startLive(session, SCENARIO);
    await waitForLive(session, `s.latestCheckpointId !== null && s.latestCheckpointId >= 2`);
    expect(await session.page.evaluate(() => window.liveDriver!.killTaskManager('tm-1'))).toBeUndefined();
    await waitForLive(session, `s.jobStatus === 'RESTARTING'`);
    const host = await session.page.evaluate(() => window.liveDriver!.topology().subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 1)!.host);
    const answer = await session.page.evaluate(([f, h, g]) => window.liveDriver![f](h, 'count', 1, g), [fault, host, DAMAGED_KEY_GROUP] as const);
    expect(answer).toBeUndefined();

    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`);
    const restores = eventsOfType(finished.events, 'restore');
    expect(restores).toHaveLength(1);
    const count1 = restores[0]!.restore.subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 1)!;
    expect([count1.source, count1.reason]).toEqual(['remote', reason]);
    expect(count1.handles!.map((h) => [h.kind, h.keyGroupRange, h.source, h.reason])).toEqual([
      ['key-groups', { start: 32, end: 39 }, 'local', undefined],
      ['key-groups', { start: 40, end: 47 }, 'remote', reason],
      ['key-groups', { start: 48, end: 55 }, 'local', undefined],
      ['key-groups', { start: 56, end: 63 }, 'local', undefined],
    ]);
    // Only the damaged handle's share is read from remote storage.
    expect(count1.remoteBytes).toBeGreaterThan(0);
    expect(count1.remoteBytes).toBeLessThan(count1.bytes / 2);
    const others = restores[0]!.restore.subtasks.filter((s) => s.vertexId === 'count' && s.subtaskIndex !== 1);
    for (const s of others) expect(s.handles!.length).toBeGreaterThan(0);
    const output = await compareLiveWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(session.errors).toEqual([]);
  }, 90_000);
});

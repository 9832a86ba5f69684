/**
 * Damaged task-local copies in the live runtime, in real Chromium: while the job restarts after a
 * killed TaskManager worker, one keyed subtask's copy on its host's disk is corrupted and another's
 * deleted. Those two fall back to remote (IndexedDB) with the reason (`corrupt`, `missing`); the
 * other keyed subtasks restore from their local copies; the output stays exactly-once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './browser-session.ts';
import { closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, openLiveTestPage, startLive, waitForLive } from './live-test-page.ts';

/** A restart delay long enough to damage the disks between the failover and the restore. */
const SCENARIO = keyedCounts({ name: 'Live damaged local copies', config: { 'restart-strategy.fixed-delay.delay': '1500 ms' } });

describe('corrupt-local-copy and delete-local-copy in the live runtime', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('restores a subtask whose local copy was corrupted or deleted from remote with the reason, and the others from their local copies', async () => {
    await startLive(session, SCENARIO);
    await waitForLive(session, `s.latestCheckpointId !== null && s.latestCheckpointId >= 2`);
    expect(await session.page.evaluate(() => window.liveDriver!.killTaskManager('tm-1'))).toBeUndefined();
    await waitForLive(session, `s.jobStatus === 'RESTARTING'`);
    const damage = await session.page.evaluate(() => [window.liveDriver!.corruptLocalCopy('host-0', 'count', 1), window.liveDriver!.deleteLocalCopy('host-0', 'count', 0)]);
    expect(damage).toEqual([undefined, undefined]);

    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`);
    const faults = eventsOfType(finished.events, 'fault').map((e) => e.description);
    expect(faults[1]).toMatch(/^corrupt local copy of count#1 on host-0: aid_tm-1\/slot-0\/jid_live-job\/vtx_count_sti_1\/chk_\d+/);
    expect(faults[2]).toMatch(/^delete local copy of count#0 on host-0: aid_tm-0\/slot-0\/jid_live-job\/vtx_count_sti_0\/chk_\d+/);
    const restores = eventsOfType(finished.events, 'restore');
    expect(restores).toHaveLength(1);
    const count = restores[0]!.restore.subtasks.filter((s) => s.vertexId === 'count');
    expect(count.map((s) => [s.subtaskIndex, s.source, 'reason' in s ? s.reason : undefined])).toEqual([
      [0, 'remote', 'missing'],
      [1, 'remote', 'corrupt'],
      [2, 'local', undefined],
      [3, 'local', undefined],
    ]);
    expect(count.every((s) => s.bytes > 0)).toBe(true);
    const output = await compareLiveWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(session.errors).toEqual([]);
  }, 90_000);

  it('refuses to damage a local copy the host does not hold, and names an unknown host', async () => {
    await startLive(session, SCENARIO);
    const answers = await session.page.evaluate(() => [window.liveDriver!.corruptLocalCopy('host-1', 'count', 0), window.liveDriver!.deleteLocalCopy('host-7', 'count', 0)]);
    expect(answers).toEqual(['host-1 holds no local copy of count#0', 'no host "host-7" (hosts: host-0, host-1)']);
  }, 30_000);
});

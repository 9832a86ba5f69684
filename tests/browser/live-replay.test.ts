/**
 * A live session on real Web Worker TaskManagers in Chromium is recorded (the order each input
 * gate handed out its buffers' contents, where each source injected each barrier, the checkpoint
 * triggers, faults and restores), exported as a session document, read back and replayed in the
 * sim driver on the same page: every subtask must consume exactly what it consumed live, in the
 * same order, the same checkpoints must complete, and the sink must hold what the live sink holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './browser-session.ts';
import { closeLiveTestPage, keyedCounts, openLiveTestPage, startLive, waitForLive } from './live-test-page.ts';
import type { ReplayCheck } from '../../web/live/session-replay-check.ts';

function replayInSim(session: BrowserSession): Promise<ReplayCheck> {
  return session.page.evaluate(() => window.liveTest!.replayInSim());
}

/**
 * A run that restarted once replays to the same restore, the same consumption per subtask of the
 * attempt after it, the same completed checkpoints and the same sink output. The attempt before
 * it ran on live until its cancellation arrived; the replay cancels it where it was recorded, so
 * only its subtasks may have consumed a prefix.
 */
function expectRestartReplayed(check: ReplayCheck): void {
  expect(check.divergence).toBeNull();
  expect(check.liveRestores).toHaveLength(1);
  expect(check.replayRestores).toEqual(check.liveRestores);
  expect(check.differingSubtasks).toEqual([]);
  expect(check.prefixSubtasks.every((key) => key.startsWith('0/'))).toBe(true);
  expect(check.replayCheckpoints.completed).toEqual(check.liveCheckpoints.completed);
  expect(check.replayRecords).toBe(check.liveRecords);
  expect(check.differingKeys).toEqual([]);
}

describe('replaying a recorded live session in sim', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('replays a failure-free live run (parallelism 4, keyed count): same order per subtask, same checkpoints, same sink output', async () => {
    await startLive(session, keyedCounts({ name: 'Recorded keyed counts', count: 5000, rate: 2000 }));
    const done = await waitForLive(session, "s.jobStatus === 'FINISHED'");
    expect(done.completedCheckpoints).toBeGreaterThanOrEqual(1);
    const check = await replayInSim(session);
    expect(check.divergence).toBeNull();
    expect(check.recordedSubtasks).toHaveLength(12);
    expect(check.differingSubtasks).toEqual([]);
    expect(check.prefixSubtasks).toEqual([]);
    // A trigger live sent while its last subtasks drained may find the replay's job finished: it completed nothing either way.
    expect(check.replayCheckpoints.completed).toEqual(check.liveCheckpoints.completed);
    expect(check.replayStatus).toBe('FINISHED');
    expect(check.liveRecords).toBeGreaterThan(0);
    expect(check.replayRecords).toBe(check.liveRecords);
    expect(check.differingKeys).toEqual([]);
  });

  it('replays a live run with a failed task: the restart restores the recorded checkpoint and the outputs agree', async () => {
    const scenario = { ...keyedCounts({ name: 'Recorded keyed counts with a failure', count: 6000, rate: 2000 }), faults: [{ at: '1500 ms', type: 'fail-task', vertex: 'count', subtask: 1 }] };
    await startLive(session, scenario);
    const done = await waitForLive(session, "s.jobStatus === 'FINISHED'", 90_000);
    expect(done.restarts).toBe(1);
    expectRestartReplayed(await replayInSim(session));
  });

  it('replays a live run rescaled through the API: the replay rescales from the recorded checkpoint and the outputs agree', async () => {
    await startLive(session, keyedCounts({ name: 'Recorded keyed counts rescaled', count: 6000, rate: 2000, sinkEdge: 'hash' }));
    await waitForLive(session, 's.latestCheckpointId !== null');
    expect(await session.page.evaluate(() => window.liveDriver!.rescale('count', 2))).toBeUndefined();
    const done = await waitForLive(session, "s.jobStatus === 'FINISHED'", 90_000);
    expect(done.restarts).toBe(0);
    const check = await replayInSim(session);
    expectRestartReplayed(check);
    // Attempt 1 runs count with parallelism 2: four sources, two counts, four sinks.
    expect(check.recordedSubtasks.filter((key) => key.startsWith('1/count#'))).toHaveLength(2);
  });

  it('replays a live run with a killed TaskManager: the restart restores the recorded checkpoint and the outputs agree', async () => {
    const scenario = { ...keyedCounts({ name: 'Recorded keyed counts with a killed TaskManager', count: 6000, rate: 2000 }), faults: [{ at: '1500 ms', type: 'kill-task-manager', task_manager: 'tm-2' }] };
    await startLive(session, scenario);
    const done = await waitForLive(session, "s.jobStatus === 'FINISHED'", 90_000);
    expect(done.restarts).toBe(1);
    expectRestartReplayed(await replayInSim(session));
  });

  it('replays a live run restarted from a savepoint: the replay restores the recorded savepoint and the outputs agree', async () => {
    await startLive(session, keyedCounts({ name: 'Recorded keyed counts restarted from a savepoint', count: 6000, rate: 2000 }));
    await waitForLive(session, 's.latestCheckpointId !== null');
    expect(await session.page.evaluate(() => window.liveDriver!.triggerCheckpoint('savepoint'))).toBeUndefined();
    await expect.poll(() => session.page.evaluate(() => window.liveDriver!.coordinator.savepoints.length), { timeout: 30_000 }).toBe(1);
    expect(await session.page.evaluate(() => window.liveDriver!.restartFromSavepoint())).toBeUndefined();
    const done = await waitForLive(session, "s.jobStatus === 'FINISHED'", 90_000);
    expect(done.restarts).toBe(0);
    expectRestartReplayed(await replayInSim(session));
  });
});

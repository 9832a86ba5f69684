/**
 * A stalled TaskManager in the live runtime, in real Chromium: the worker stays alive but stops
 * answering (no turns, heartbeats, reports or data-plane traffic). The JobManager notices only
 * after heartbeat.timeout (scaled like every live heartbeat), fails the worker's tasks with
 * Flink's heartbeat-timeout cause, terminates the hung worker, starts a new one on the same host,
 * and restores; the two-phase-commit sink's output equals a failure-free sim run's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './browser-session.ts';
import { closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, liveStatus, openLiveTestPage, startLive, waitForLive } from './live-test-page.ts';

const SCENARIO = keyedCounts({ name: 'Live stalled TaskManager' });
/** heartbeat.timeout 20 s at the tests' heartbeat scale of 1/20, in job ms at speed 1 */
const SCALED_HEARTBEAT_TIMEOUT_MS = 20_000 / 20;

describe('stall-task-manager in the live runtime', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('notices a hung TaskManager worker only after heartbeat.timeout, replaces it, restores its tasks and stays exactly-once', async () => {
    await startLive(session, SCENARIO);
    await waitForLive(session, `s.latestCheckpointId !== null && s.latestCheckpointId >= 2`);
    expect(await session.page.evaluate(() => window.liveDriver!.stallTaskManager('tm-1'))).toBeUndefined();
    // Hung, not dead: the worker is still there and the job still runs.
    const hung = await liveStatus(session);
    expect(hung.workersTerminated).toBe(0);
    expect(hung.jobStatus).toBe('RUNNING');

    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`);
    const stalled = eventsOfType(finished.events, 'fault');
    expect(stalled.map((e) => e.description)).toEqual(['stall TaskManager tm-1; the JobManager notices after heartbeat.timeout (20000 ms)']);
    const failed = eventsOfType(finished.events, 'task-failed');
    expect(failed.map((e) => `${e.vertexId}#${e.subtaskIndex}`)).toEqual(['source#1', 'count#1', 'sink#1']);
    expect(failed[0]!.cause).toContain('Heartbeat of TaskManager with id tm-1 timed out.');
    expect(failed[0]!.time - stalled[0]!.time).toBeGreaterThanOrEqual(SCALED_HEARTBEAT_TIMEOUT_MS);
    // The hung worker was terminated and a new one took its place on its host.
    expect(finished.workersTerminated).toBe(1);
    expect(finished.workersCreated).toBe(4 + 1);
    expect(finished.restarts).toBe(1);
    expect(finished.taskManagers).toContainEqual({ id: 'tm-1', host: 'host-0' });
    const restores = eventsOfType(finished.events, 'restore');
    expect(restores).toHaveLength(1);
    expect(restores[0]!.restore.subtasks).toHaveLength(12);
    const output = await compareLiveWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(output.liveRecords).toBe(output.simRecords);
    expect(session.errors).toEqual([]);
  }, 90_000);

  it('refuses to stall a TaskManager that does not exist, naming the ones that run', async () => {
    await startLive(session, SCENARIO);
    expect(await session.page.evaluate(() => window.liveDriver!.stallTaskManager('tm-9'))).toBe('no TaskManager "tm-9" (running: tm-0, tm-1, tm-2, tm-3)');
  }, 30_000);
});

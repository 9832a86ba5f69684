/**
 * The live runtime in real Chromium: TaskManagers are Web Workers (counted by the test page, which
 * wraps the Worker constructor), records travel between them over MessageChannels, time is the
 * wall clock. The oracle for the sink is a failure-free run of the same scenario and seed in the
 * sim driver, computed in the page (SinkOutputLog.compareTo, and every key's records, sum and
 * last value).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobEvent } from '../../engine/run/job-events.ts';
import type { LiveTestStatus, OutputAgainstSim } from '../../web/live/live-test.ts';
import type { BrowserSession } from './browser-session.ts';
import { closeLiveTestPage, openLiveTestPage } from './live-test-page.ts';
import { keyedCountsJob } from './scenarios.ts';

/**
 * Keyed counts with a two-phase-commit sink, parallelism 4 on four single-slot TaskManagers over
 * two hosts; bounded (6 s of input). Heartbeats of 2 s / 20 s run at 1/20 on the wall clock in
 * these tests (100 ms / 1 s), so a killed worker is noticed within about a second.
 */
const KEYED_COUNTS = {
  version: 1,
  name: 'Live keyed counts',
  seed: 3,
  job: keyedCountsJob({ keys: 24, rate: 2500, count: 15000 }),
  config: {
    'parallelism.default': 4,
    'execution.checkpointing.interval': '500 ms',
    'execution.checkpointing.min-pause': '100 ms',
    'heartbeat.interval': '2 s',
    'heartbeat.timeout': '20 s',
    'restart-strategy.type': 'fixed-delay',
    'restart-strategy.fixed-delay.attempts': 5,
    'restart-strategy.fixed-delay.delay': '200 ms',
  },
  cluster: { hosts: 2, task_managers_per_host: 2, slots_per_task_manager: 1 },
};

const OPTIONS = { heartbeatScale: 1 / 20 };

async function start(session: BrowserSession, scenario: object = KEYED_COUNTS): Promise<void> {
  await session.page.evaluate(([s, options]) => window.liveTest!.start(s, options).then(() => undefined), [scenario, OPTIONS] as const);
}

/** 12 s of input: two failovers (each noticed, restarted and caught up again) fit in, even on a loaded machine. */
const LONGER_KEYED_COUNTS = { ...KEYED_COUNTS, job: keyedCountsJob({ keys: 24, rate: 2500, count: 30000 }) };

async function status(session: BrowserSession): Promise<LiveTestStatus> {
  return session.page.evaluate(() => window.liveTest!.status());
}

async function waitForStatus(session: BrowserSession, predicate: string, timeout = 40_000): Promise<LiveTestStatus> {
  await session.page.waitForFunction(`(() => { const s = window.liveTest.status(); return ${predicate}; })()`, null, { timeout, polling: 50 });
  return status(session);
}

async function compareWithSim(session: BrowserSession): Promise<OutputAgainstSim> {
  return session.page.evaluate(() => window.liveTest!.compareWithSim());
}

function ofType<T extends JobEvent['type']>(events: JobEvent[], type: T): Extract<JobEvent, { type: T }>[] {
  return events.filter((e): e is Extract<JobEvent, { type: T }> => e.type === type);
}

describe('live runtime (Web Worker TaskManagers)', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('runs a keyed count with parallelism 4 on four TaskManager workers, completes checkpoints, and writes what the sim writes', async () => {
    await start(session);
    const running = await status(session);
    expect(running.workersCreated).toBe(4);
    expect(running.taskManagers).toEqual([
      { id: 'tm-0', host: 'host-0' },
      { id: 'tm-1', host: 'host-0' },
      { id: 'tm-2', host: 'host-1' },
      { id: 'tm-3', host: 'host-1' },
    ]);
    const topology = await session.page.evaluate(() => window.liveDriver!.topology());
    expect(new Set(topology.subtasks.map((s) => s.taskManager))).toEqual(new Set(['tm-0', 'tm-1', 'tm-2', 'tm-3']));
    expect(topology.channels.filter((c) => !c.local)).toHaveLength(12);

    const finished = await waitForStatus(session, `s.jobStatus === 'FINISHED'`);
    expect(finished.completedCheckpoints).toBeGreaterThanOrEqual(3);
    expect(finished.restarts).toBe(0);
    expect(finished.workersCreated).toBe(4);
    const metrics = await session.page.evaluate(() => window.liveDriver!.metrics());
    expect(metrics.vertices['source']?.numRecordsOut).toBeGreaterThan(0);
    const output = await compareWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(output.liveRecords).toBe(60_000);
    expect(session.errors).toEqual([]);
  }, 60_000);

  it('replaces a killed TaskManager worker at once with a new one on the same host and restores every subtask from the latest completed checkpoint', async () => {
    await start(session);
    await waitForStatus(session, `s.latestCheckpointId !== null && s.latestCheckpointId >= 2`);
    const killed = await session.page.evaluate(() => window.liveDriver!.killTaskManager('tm-2'));
    expect(killed).toBeUndefined();
    const finished = await waitForStatus(session, `s.jobStatus === 'FINISHED'`);
    const restarting = finished.events.findIndex((e) => e.type === 'job-status' && e.status === 'RESTARTING');
    const latestAtFailover = ofType(finished.events.slice(0, restarting), 'checkpoint-completed').at(-1)?.checkpointId;
    expect(latestAtFailover).toBeGreaterThanOrEqual(2);

    expect(finished.workersCreated).toBe(4 + 1);
    expect(finished.workersTerminated).toBe(1);
    expect(finished.restarts).toBe(1);
    // A new worker, the same TaskManager: it restarts on its host with its resource ID (as in the sim).
    expect(finished.taskManagers).toEqual([
      { id: 'tm-0', host: 'host-0' },
      { id: 'tm-1', host: 'host-0' },
      { id: 'tm-2', host: 'host-1' },
      { id: 'tm-3', host: 'host-1' },
    ]);
    expect(ofType(finished.events, 'fault').map((e) => e.description)).toEqual(['kill TaskManager tm-2 on host-1; it restarts on host-1']);
    const failed = ofType(finished.events, 'task-failed');
    expect(failed.map((e) => `${e.vertexId}#${e.subtaskIndex}`)).toEqual(['source#2', 'count#2', 'sink#2']);
    // The worker is gone and its connections with it: lost at once, not after heartbeat.timeout.
    expect(failed[0]!.cause).toBe('TaskManager tm-2 on host-1 was killed');
    const restores = ofType(finished.events, 'restore');
    expect(restores).toHaveLength(1);
    expect(restores[0]!.restore.checkpointId).toBe(latestAtFailover);
    expect(restores[0]!.restore.subtasks).toHaveLength(12);
    const output = await compareWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(session.errors).toEqual([]);
  }, 60_000);

  it('stays exactly-once with the two-phase-commit sink through a killed worker and a lost host', async () => {
    await start(session, LONGER_KEYED_COUNTS);
    await waitForStatus(session, `s.latestCheckpointId !== null`);
    expect(await session.page.evaluate(() => window.liveDriver!.killTaskManager('tm-0'))).toBeUndefined();
    await waitForStatus(session, `s.restarts === 1 && s.jobStatus === 'RUNNING' && s.latestCheckpointId !== null && s.events.filter((e) => e.type === 'restore').length === 1 && s.completedCheckpoints >= 2`);
    expect(await session.page.evaluate(() => window.liveDriver!.loseHost('host-1'))).toBeUndefined();
    const finished = await waitForStatus(session, `s.jobStatus === 'FINISHED'`, 70_000);

    expect(finished.restarts).toBe(2);
    expect(finished.workersCreated).toBe(4 + 3);
    // tm-2 and tm-3 lived on host-1, which is gone: their replacements run on host-0.
    expect(finished.taskManagers.map((t) => t.host)).toEqual(['host-0', 'host-0', 'host-0', 'host-0']);
    const output = await compareWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(output.liveRecords).toBe(120_000);
    expect(session.errors).toEqual([]);
  }, 90_000);
});

/**
 * The TaskManager hosting glue on its own, in Node: two TaskManagers wired by real MessageChannels
 * (one per remote channel), driven directly through their gateway methods, with reports read off
 * their report ports. No JobManager: the test plays it.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { readCompletedCheckpoint } from '../../engine/storage/checkpoint-files.ts';
import { checkpointDirectory } from '../../engine/storage/checkpoint-layout.ts';
import { decodeTaskStateSnapshot } from '../../engine/storage/snapshot-codec.ts';
import { IndexedDbCheckpointStorage } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { readConfig } from '../../engine/config/flink-options.ts';
import { ExecutionGraph } from '../../engine/job/execution-graph.ts';
import { buildTaskDeployments } from '../../engine/job/task-deployments.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { clockFrom, jobTimeAt, wallNow, wallTimeAt } from '../../workers/job-clock.ts';
import type { ChannelPort, CheckpointStorageSpec, JobClock, ReportBatch, TaskManagerReport, TaskToDeploy } from '../../workers/protocol.ts';
import { TaskManager } from '../../workers/task-manager.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { until as waitUntil } from './until.ts';

/** source → count (hash) → sink (forward), parallelism 2, one slot per TaskManager: tm-0 and tm-1. */
function twoTaskManagerJob(count = 500): Scenario {
  const base = keyedCountJob({ keys: 6, rate: 100_000, count, parallelism: 2 });
  return { ...base, cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 } };
}

let databases = 0;

function storageSpec(quotaBytes?: number): CheckpointStorageSpec {
  return {
    ...(quotaBytes === undefined ? {} : { quotaBytes }),
    databaseName: `tm-test-${++databases}`,
    location: { checkpointDir: 'indexeddb://checkpoints', jobId: 'job' },
    remote: { latencyMs: 2, bandwidthMbPerS: 1000 },
    local: { latencyMs: 1, bandwidthMbPerS: 1000 },
    localBackupEnabled: true,
  };
}

interface Harness {
  storage: CheckpointStorageSpec;
  taskManagers: TaskManager[];
  reports: TaskManagerReport[][];
  /** each TaskManager's end of its report port, for drained() */
  reportPorts: MessagePort[];
  attempt: number;
  /** the job clock the TaskManagers were deployed with */
  clock: JobClock;
  /** wall-clock time each report arrived on its port */
  arrivedAt: Map<TaskManagerReport, number>;
}

const open: TaskManager[] = [];
afterEach(() => {
  for (const tm of open.splice(0)) tm.shutdown();
});

/** Registers two TaskManagers and deploys the job on them, as the JobManager does. */
function deploy(scenario: Scenario, attempt = 0, storage = storageSpec(), speed = 1): Harness {
  const config = readConfig(scenario.config);
  const graph = new ExecutionGraph(scenario, config.maxParallelism);
  const deployments = buildTaskDeployments(graph, scenario, { ...config, incremental: false }, attempt);
  const taskManagers = [new TaskManager(), new TaskManager()];
  open.push(...taskManagers);
  const reports: TaskManagerReport[][] = [[], []];
  const reportPorts: MessagePort[] = [];
  const arrivedAt = new Map<TaskManagerReport, number>();
  taskManagers.forEach((tm, i) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = (e: MessageEvent<ReportBatch>) => {
      if (e.data.taskManagerId.startsWith(MARKER)) markersArrived.add(`${i}:${e.data.taskManagerId}`);
      else {
        const wall = wallNow();
        for (const r of e.data.reports) arrivedAt.set(r, wall);
        reports[i]!.push(...e.data.reports);
      }
    };
    reportPorts.push(port2);
    tm.register({ taskManagerId: `tm-${i}`, host: 'host-0', reportPort: port2, storage });
  });
  const tmIndex = (taskManager: string) => Number(taskManager.slice(3));
  const tasks: TaskToDeploy[][] = [[], []];
  const ports: ChannelPort[][] = [[], []];
  graph.subtasks.forEach((s, i) => tasks[tmIndex(s.slot.taskManager)]!.push({ taskIndex: i, slotId: s.slot.id, deployment: deployments[i]!, slowdown: 1 }));
  for (const c of graph.channels) {
    if (c.local) continue;
    const { port1, port2 } = new MessageChannel();
    ports[tmIndex(graph.subtask(c.from).slot.taskManager)]!.push({ channelId: c.id, end: 'sender', port: port1 });
    ports[tmIndex(graph.subtask(c.to).slot.taskManager)]!.push({ channelId: c.id, end: 'receiver', port: port2 });
  }
  const clock = clockFrom(0, speed);
  taskManagers.forEach((tm, i) => tm.deploy({ attempt, clock, config, tasks: tasks[i]!, ports: ports[i]! }));
  return { storage, taskManagers, reports, reportPorts, attempt, clock, arrivedAt };
}

/** drained()'s markers: report batches from no TaskManager, sent by the test itself */
const MARKER = 'drained-';
const markersArrived = new Set<string>();
let markers = 0;

/**
 * Resolves once every report batch the TaskManagers posted before this call has arrived: a marker
 * sent down each report port after them arrives after them (a port delivers in order).
 */
async function drained(h: Harness): Promise<void> {
  const marker = `${MARKER}${++markers}`;
  h.reportPorts.forEach((port) => port.postMessage({ taskManagerId: marker, reports: [] } satisfies ReportBatch));
  await until(() => h.reportPorts.every((_, i) => markersArrived.has(`${i}:${marker}`)));
}

/** This file's waits: up to 20 s. */
const until = (condition: () => boolean, timeoutMs = 20_000) => waitUntil(condition, timeoutMs, 5);

const allReports = (h: Harness) => h.reports.flat();
const sinkRecords = (h: Harness) => allReports(h).reduce((n, r) => n + (r.type === 'sink-output' ? r.records.values.length : 0), 0);
const finished = (h: Harness) => allReports(h).filter((r) => r.type === 'task-state' && r.state === 'FINISHED').length;

describe('TaskManager', () => {
  it('runs its subtasks, moves records between TaskManagers over their ports, and reports the sink and the states', async () => {
    const h = deploy(twoTaskManagerJob(500));
    await until(() => finished(h) === 6);
    expect(sinkRecords(h)).toBe(1000);
    const states = allReports(h).filter((r) => r.type === 'task-state').map((r) => r.type === 'task-state' && `${r.taskIndex}:${r.state}`);
    expect(states.filter((s) => s && s.endsWith('RUNNING'))).toHaveLength(6);
    // Each TaskManager's count subtask got records from the other TaskManager's source (hash edge).
    const beat = await Promise.all(h.taskManagers.map((tm) => tm.heartbeat(1)));
    for (const payload of beat) {
      const count = payload.subtasks.find((s) => s.vertexId === 'count')!;
      expect(count.numRecordsIn).toBeGreaterThan(0);
      expect(payload.attempt).toBe(0);
    }
    expect(beat.flatMap((p) => p.subtasks.map((s) => s.taskIndex)).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('snapshots on a trigger, uploads to IndexedDB and acknowledges after the write; ignores a trigger of another attempt', async () => {
    const h = deploy(twoTaskManagerJob(200_000), 3);
    const barrier = { kind: 'barrier' as const, checkpointId: 1, timestamp: 0, checkpointKind: 'CHECKPOINT' as const, alignment: 'ALIGNED' as const };
    h.taskManagers[0]!.triggerCheckpoint(2, 0, { ...barrier, checkpointId: 9 });
    h.taskManagers[0]!.triggerCheckpoint(3, 0, barrier);
    h.taskManagers[1]!.triggerCheckpoint(3, 1, barrier);
    await until(() => allReports(h).filter((r) => r.type === 'acknowledge-checkpoint').length === 6);
    const acks = allReports(h).flatMap((r) => (r.type === 'acknowledge-checkpoint' ? [r] : []));
    expect(new Set(acks.map((r) => r.checkpointId))).toEqual(new Set([1]));
    expect(acks.every((r) => r.attempt === 3)).toBe(true);
    // Every acknowledged file is in storage, and holds the snapshot the acknowledgement carries.
    const store = await IndexedDbCheckpointStorage.open({ databaseName: h.storage.databaseName, location: h.storage.location });
    for (const ack of acks) {
      const bytes = await store.readFile(ack.reference.statePath);
      expect(bytes).toBeDefined();
      expect(decodeTaskStateSnapshot(bytes!).subtask).toEqual(decodeTaskStateSnapshot(ack.snapshot).subtask);
    }
    expect((await store.list(`${checkpointDirectory(h.storage.location, 1)}/`)).length).toBe(6);
    expect((await readCompletedCheckpoint(store, checkpointDirectory(h.storage.location, 1))).ok).toBe(false); // no _metadata: the JobManager writes it
    // The count subtasks' keyed state also went to the host's disk (task-local recovery).
    await until(() => allReports(h).filter((r) => r.type === 'local-copy').length === 2);
    await store.close();
    for (const tm of h.taskManagers) tm.cancel(3);
  });

  it('starts the upload when the synchronous part ends, as the simulation does: each acknowledgement comes at least the remote latency after its syncEndTime', async () => {
    // At a hundredth of real speed the modelled sync part (0.05 job ms, 5 ms of wall time) is far
    // longer than the real encoding of the small state: an upload begun at once would acknowledge
    // less than the remote latency (2 job ms) after the sync part's end.
    const h = deploy(twoTaskManagerJob(200_000), 0, storageSpec(), 0.01);
    const barrier = { kind: 'barrier' as const, checkpointId: 1, timestamp: 0, checkpointKind: 'CHECKPOINT' as const, alignment: 'ALIGNED' as const };
    h.taskManagers[0]!.triggerCheckpoint(0, 0, barrier);
    h.taskManagers[1]!.triggerCheckpoint(0, 1, barrier);
    await until(() => allReports(h).filter((r) => r.type === 'acknowledge-checkpoint').length === 6);
    const acks = allReports(h).flatMap((r) => (r.type === 'acknowledge-checkpoint' ? [r] : []));
    for (const ack of acks) {
      expect(ack.metrics.syncDurationMs).toBeGreaterThan(0);
      const asyncMs = jobTimeAt(h.clock, h.arrivedAt.get(ack)!) - ack.metrics.syncEndTime;
      expect(asyncMs, `subtask ${ack.taskIndex}`).toBeGreaterThanOrEqual(h.storage.remote.latencyMs);
    }
    for (const tm of h.taskManagers) tm.cancel(0);
  });

  it('declines instead of acknowledging when the upload fails (the store is full)', async () => {
    const h = deploy(twoTaskManagerJob(200_000), 0, storageSpec(16));
    const barrier = { kind: 'barrier' as const, checkpointId: 4, timestamp: 0, checkpointKind: 'CHECKPOINT' as const, alignment: 'ALIGNED' as const };
    h.taskManagers[0]!.triggerCheckpoint(0, 0, barrier);
    h.taskManagers[1]!.triggerCheckpoint(0, 1, barrier);
    await until(() => allReports(h).filter((r) => r.type === 'decline-checkpoint').length === 6);
    expect(allReports(h).filter((r) => r.type === 'acknowledge-checkpoint')).toEqual([]);
    expect(allReports(h).filter((r) => r.type === 'decline-checkpoint').every((r) => r.type === 'decline-checkpoint' && r.checkpointId === 4 && r.reason === 'CHECKPOINT_ASYNC_EXCEPTION')).toBe(true);
    const store = await IndexedDbCheckpointStorage.open({ databaseName: h.storage.databaseName, location: h.storage.location });
    expect(await store.list('')).toEqual([]);
    await store.close();
    for (const tm of h.taskManagers) tm.cancel(0);
  });

  it('cancels an attempt: its subtasks stop, and nothing more is reported for it', async () => {
    const h = deploy(twoTaskManagerJob(1_000_000));
    await until(() => sinkRecords(h) > 0);
    for (const tm of h.taskManagers) tm.cancel(0);
    // report batches posted before the cancel (and the cancel's own flush) may still be on their way
    await drained(h);
    const after = allReports(h).length;
    // A cancelled subtask that ran on would report within its next turns and the reports' flush
    // timer (a few ms); the second marker follows whatever that posted.
    await new Promise((r) => setTimeout(r, 50));
    await drained(h);
    expect(allReports(h).length).toBe(after);
    expect(h.taskManagers.map((tm) => tm.heartbeat(2))).toMatchObject([{ attempt: -1, subtasks: [] }, { attempt: -1, subtasks: [] }]);
  });

  it('fails a subtask on request and reports FAILED with the cause', async () => {
    const h = deploy(twoTaskManagerJob(1_000_000));
    h.taskManagers[1]!.failTask(0, 3, 'boom');
    await until(() => allReports(h).some((r) => r.type === 'task-state' && r.state === 'FAILED'));
    expect(allReports(h).find((r) => r.type === 'task-state' && r.state === 'FAILED')).toEqual({ type: 'task-state', attempt: 0, taskIndex: 3, state: 'FAILED', cause: 'boom' });
    for (const tm of h.taskManagers) tm.cancel(0);
  });
});

describe('JobClock', () => {
  it('converts between wall-clock and job time at a speed, both ways', () => {
    const clock = clockFrom(1000, 4, 50_000);
    expect(jobTimeAt(clock, 50_000)).toBe(1000);
    expect(jobTimeAt(clock, 50_250)).toBe(2000);
    expect(wallTimeAt(clock, 2000)).toBe(50_250);
    expect(wallTimeAt(clock, jobTimeAt(clock, 51_234))).toBeCloseTo(51_234, 6);
    expect(() => clockFrom(0, 0)).toThrow(RangeError);
    expect(Math.abs(jobTimeAt(clockFrom(0, 1), wallNow()))).toBeLessThan(50);
  });
});

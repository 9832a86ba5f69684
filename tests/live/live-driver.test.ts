/**
 * The live driver's JobManager and the TaskManager hosting glue, run in Node: TaskManagers are
 * in-process (Comlink over Node's MessageChannel instead of Web Workers), time is the wall clock.
 * The oracle for the sink's output is a failure-free run of the same scenario in the sim driver.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveDriver } from '../../workers/live/live-driver.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import type { TaskManagerLauncher } from '../../workers/live/task-manager-process.ts';
import { inProcessTaskManagers } from './in-process-task-managers.ts';
import { checkStorageLeaks } from '../../engine/storage/storage-leak-checker.ts';
import { readCompletedCheckpoint } from '../../engine/storage/checkpoint-files.ts';
import { checkpointDirectory } from '../../engine/storage/checkpoint-layout.ts';
import { until as waitUntil } from './until.ts';

/** source → keyed count → two-phase-commit sink, bounded, checkpointing every 200 ms on 3 TaskManagers. */
function checkpointedCounts(overrides: { count?: number; rate?: number } = {}): Scenario {
  const base = keyedCountJob({ keys: 12, rate: overrides.rate ?? 4000, count: overrides.count ?? 4000, parallelism: 3 });
  const vertices = base.job.vertices.map((v) => (v.id === 'sink' ? { ...v, operator: { type: 'sink' as const, sink: 'two-phase-commit' as const } } : v));
  return {
    ...base,
    job: { ...base.job, vertices },
    config: {
      'execution.checkpointing.interval': 200,
      'execution.checkpointing.min-pause': 50,
      'heartbeat.interval': 1000,
      'heartbeat.timeout': 5000,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 5,
      'restart-strategy.fixed-delay.delay': 100,
    },
    cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 },
  };
}

function failureFree(scenario: Scenario): Simulation {
  const sim = new Simulation({ ...scenario, faults: [] });
  sim.runToEnd();
  return sim;
}

let driver: LiveDriver | undefined;
afterEach(() => {
  driver?.dispose();
  driver = undefined;
});

describe('live driver with in-process TaskManagers', () => {
  it('runs a bounded keyed count to FINISHED with checkpoints, and writes what the sim writes', async () => {
    // Two seconds of input: long enough for checkpoints to complete on a busy machine.
    const scenario = checkpointedCounts({ count: 8000 });
    const cluster = inProcessTaskManagers();
    driver = await LiveDriver.start(scenario, { launchTaskManager: cluster.launch, heartbeatScale: 0.1 });
    expect(cluster.started).toHaveLength(3);
    expect(await driver.whenTerminal()).toBe('FINISHED');
    const completed = driver.events.filter((e) => e.type === 'checkpoint-completed');
    expect(completed.length).toBeGreaterThan(0);
    expect(driver.coordinator.stats.checkpointingStatistics().counts.completed).toBe(completed.length);
    const reference = failureFree(scenario);
    expect(driver.sinkOutput.totalRecords).toBe(reference.sinkOutput.totalRecords);
    expect(driver.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    expect(driver.sinkOutput.perKey()).toEqual(reference.sinkOutput.perKey());
  });

  it('replaces a killed TaskManager as soon as its connection breaks, restores from the latest checkpoint, and stays exactly-once', async () => {
    const scenario = checkpointedCounts({ count: 6000, rate: 3000 });
    const cluster = inProcessTaskManagers();
    driver = await LiveDriver.start(scenario, { launchTaskManager: cluster.launch, heartbeatScale: 0.1 });
    const live = driver;
    await until(() => live.coordinator.latestCheckpoint() !== undefined);
    const latestAtFailover = live.coordinator.latestCheckpoint()?.id;
    expect(live.killTaskManager('tm-1')).toBeUndefined();
    // The process is gone and its connections with it: the JobManager fails over without waiting for heartbeat.timeout.
    expect(live.jobStatus).toBe('RESTARTING');
    expect(await live.whenTerminal()).toBe('FINISHED');
    expect(cluster.started).toHaveLength(4);
    expect(cluster.started.filter((s) => s.alive)).toHaveLength(3);
    // The TaskManager restarts on its host with the same resource ID, as in the sim driver.
    expect(live.taskManagers).toEqual([
      { id: 'tm-0', host: 'host-0' },
      { id: 'tm-1', host: 'host-0' },
      { id: 'tm-2', host: 'host-0' },
    ]);
    expect(live.restores).toHaveLength(1);
    expect(live.restores[0]!.checkpointId).toBe(latestAtFailover);
    const failures = live.events.filter((e) => e.type === 'task-failed');
    expect(failures.map((e) => e.type === 'task-failed' && `${e.vertexId}#${e.subtaskIndex}`)).toEqual(['source#1', 'count#1', 'sink#1']);
    expect(failures[0]).toMatchObject({ cause: 'TaskManager tm-1 on host-0 was killed' });
    const reference = failureFree(scenario);
    expect(live.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('lets go of its checkpoint storage by the time dispose() resolves: the JobManager\'s connection is closed, so the run\'s database can be deleted', async () => {
    const cluster = inProcessTaskManagers();
    driver = await LiveDriver.start(checkpointedCounts(), { launchTaskManager: cluster.launch, heartbeatScale: 0.1 });
    const live = driver;
    expect(await live.whenTerminal()).toBe('FINISHED');
    const storage = live.checkpointStorage!;
    const disposal = live.dispose();
    expect(live.dispose()).toBe(disposal);
    await disposal;
    await expect(storage.list('')).rejects.toThrow('the checkpoint storage is closed');
    expect(cluster.started.filter((s) => s.alive)).toHaveLength(0);
  });

  it('fails over on an injected task failure reported by its TaskManager', async () => {
    const scenario = checkpointedCounts({ count: 4000, rate: 4000 });
    const cluster = inProcessTaskManagers();
    driver = await LiveDriver.start(scenario, { launchTaskManager: cluster.launch, heartbeatScale: 0.1 });
    const live = driver;
    await until(() => live.coordinator.latestCheckpoint() !== undefined);
    expect(live.failTask('count', 2)).toBeUndefined();
    expect(live.failTask('nope', 0)).toBe('no subtask nope#0');
    expect(await live.whenTerminal()).toBe('FINISHED');
    expect(live.restarts).toBe(1);
    expect(cluster.started).toHaveLength(3);
    expect(live.sinkOutput.compareTo(failureFree(scenario).sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
  });
});

describe('live driver clock and cancellation', () => {
  it('runs job time at the speed factor, also after a change of speed', async () => {
    driver = await LiveDriver.start(checkpointedCounts({ count: 100_000, rate: 4000 }), { launchTaskManager: inProcessTaskManagers().launch, speed: 2 });
    const live = driver;
    // The wall clock held, then moved by hand: no await between the readings, so nothing else runs
    // and job time is compared with exact wall intervals rather than with a timed sleep.
    let wall = performance.now();
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => wall);
    try {
      const t0 = live.now;
      wall += 1000;
      expect(live.now - t0).toBeCloseTo(2000, 3);
      expect(live.setSpeed(0.5)).toBeUndefined();
      // A change of speed takes effect from now on: job time does not jump.
      expect(live.now - t0).toBeCloseTo(2000, 3);
      wall += 1000;
      expect(live.now - t0).toBeCloseTo(2500, 3);
      expect(live.setSpeed(0)).toBe('speed must be a positive number, got 0');
      expect(live.speed).toBe(0.5);
    } finally {
      clock.mockRestore();
    }
  });

  it('cancels the job: CANCELED, and once what was in flight arrived the sink gets nothing more', async () => {
    driver = await LiveDriver.start(checkpointedCounts({ count: 100_000, rate: 10_000 }), { launchTaskManager: inProcessTaskManagers().launch });
    const live = driver;
    await until(() => live.coordinator.latestCheckpoint() !== undefined);
    expect(live.cancel()).toBeUndefined();
    expect(live.jobStatus).toBe('CANCELED');
    await new Promise((r) => setTimeout(r, 100));
    const records = live.sinkOutput.totalRecords;
    await new Promise((r) => setTimeout(r, 200));
    expect(live.sinkOutput.totalRecords).toBe(records);
    expect(live.cancel()).toBe('the job is already CANCELED');
    expect(live.killTaskManager('tm-0')).toBe('the job is CANCELED; nothing to fail');
  });
});

describe('live driver start', () => {
  it('fails to start, and stops the processes it started, when a TaskManager cannot start', async () => {
    const cluster = inProcessTaskManagers();
    let launched = 0;
    const launch: TaskManagerLauncher = (name) => {
      const process = cluster.launch(name);
      if (++launched !== 2) return process;
      return { ...process, gateway: { ...process.gateway, register: () => Promise.reject(new Error('the worker script failed to load')) } as unknown as typeof process.gateway };
    };
    await expect(LiveDriver.start(checkpointedCounts(), { launchTaskManager: launch })).rejects.toThrow('the worker script failed to load');
    expect(cluster.started.map((s) => s.alive)).toEqual([false, false, false]);
  });

  it('runs a rocksdb job with incremental checkpoints on its TaskManagers and writes what the sim writes', async () => {
    const base = checkpointedCounts({ count: 16_000 });
    const scenario = { ...base, config: { ...base.config, 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true } };
    // At half speed: wa-sqlite and every TaskManager share this one thread, and checkpoints must still complete.
    // Node has no OPFS: the in-process TaskManagers keep their working databases on MemoryVFS.
    driver = await LiveDriver.start(scenario, { launchTaskManager: inProcessTaskManagers().launch, heartbeatScale: 0.1, speed: 0.5, rocksdbLocalDirs: 'memory' });
    expect(await driver.whenTerminal()).toBe('FINISHED');
    expect(driver.coordinator.stats.checkpointingStatistics().counts.completed).toBeGreaterThan(0);
    // The incremental checkpoints shared SST runs (the registry held them; the job's end deleted them).
    expect(driver.coordinator.sharedState.deleted.length + driver.coordinator.sharedState.files().length).toBeGreaterThan(0);
    const reference = failureFree({ ...scenario, config: { ...scenario.config, 'state.backend.type': 'hashmap', 'execution.checkpointing.incremental': false } });
    expect(driver.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    expect(driver.sinkOutput.perKey()).toEqual(reference.sinkOutput.perKey());
  });
});

describe('live driver: rocksdb flushes on background threads (state.backend.rocksdb.thread.num set)', () => {
  it('stalls writes while one thread flushes small memtables to a slow disk, and the sink still writes what the sim writes', async () => {
    const base = checkpointedCounts({ count: 12_000, rate: 6000 });
    const job = keyedCountJob({ keys: 3000, rate: 6000, count: 12_000, parallelism: 3 }).job;
    const scenario: Scenario = {
      ...base,
      job: { ...job, vertices: job.vertices.map((v) => (v.id === 'sink' ? { ...v, operator: { type: 'sink' as const, sink: 'two-phase-commit' as const } } : v)) },
      config: { ...base.config, 'state.backend.type': 'rocksdb', 'state.backend.rocksdb.writebuffer.size': 4096, 'state.backend.rocksdb.thread.num': 1 },
      costs: { ...base.costs, local_latency_ms: 50, local_bandwidth_mb_per_s: 1 },
    };
    driver = await LiveDriver.start(scenario, { launchTaskManager: inProcessTaskManagers().launch, heartbeatScale: 0.1, speed: 0.5, rocksdbLocalDirs: 'memory' });
    const live = driver;
    // Stalls show in a heartbeat while the job runs (a finished subtask takes its metrics with it).
    await until(() => live.metrics().subtasks.some((s) => (s.rocksdb?.['lsm.write-stall.count'] ?? 0) > 0));
    expect(await live.whenTerminal()).toBe('FINISHED');
    const reference = failureFree({ ...scenario, config: { ...base.config, 'state.backend.type': 'hashmap' } });
    expect(live.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    expect(live.sinkOutput.perKey()).toEqual(reference.sinkOutput.perKey());
  });
});

describe('live driver: checkpoint storage in IndexedDB and task-local recovery', () => {
  it('writes checkpoints to storage, restores keyed subtasks from their host disk after a kill, from remote after a lost host, and leaks nothing', async () => {
    const base = checkpointedCounts({ count: 9000, rate: 3000 });
    const scenario: Scenario = {
      ...base,
      config: { ...base.config, 'execution.state-recovery.from-local': true },
      cluster: { hosts: 3, task_managers_per_host: 1, slots_per_task_manager: 1 },
    };
    const cluster = inProcessTaskManagers();
    driver = await LiveDriver.start(scenario, { launchTaskManager: cluster.launch, heartbeatScale: 0.1 });
    const live = driver;
    await until(() => live.coordinator.latestCheckpoint() !== undefined);
    await live.storageIdle();
    // What the coordinator completed is in storage, and reads back.
    const storage = live.checkpointStorage!;
    const latest = live.coordinator.latestCheckpoint()!;
    const read = await readCompletedCheckpoint(storage, checkpointDirectory(live.checkpointStorageSpec.location, latest.id));
    expect(read.ok).toBe(true);
    if (read.ok) expect([...read.checkpoint.taskStates.keys()].sort()).toEqual([...latest.taskStates.keys()].sort());

    expect(live.killTaskManager('tm-1')).toBeUndefined();
    await until(() => live.restores.length === 1 && live.jobStatus === 'RUNNING' && live.coordinator.latestCheckpoint()!.id > live.restores[0]!.checkpointId + 1);
    const afterKill = live.restores[0]!.subtasks;
    // Every subtask came back to its slot: keyed ones from the local copy, the others (no keyed state) from remote.
    expect(afterKill.filter((s) => s.vertexId === 'count').map((s) => s.source)).toEqual(['local', 'local', 'local']);
    expect(afterKill.filter((s) => s.vertexId === 'count').every((s) => s.bytes > 0)).toBe(true);
    expect(afterKill.filter((s) => s.vertexId !== 'count').every((s) => s.source === 'remote')).toBe(true);

    const lostSlot = live.graph.subtasks.find((s) => s.slot.host === 'host-2' && s.id.vertexId === 'count')!.id;
    expect(live.loseHost('host-2')).toBeUndefined();
    expect(live.localDisks().find((d) => d.host === 'host-2')).toMatchObject({ bytes: 0, stores: [] });
    expect(await live.whenTerminal()).toBe('FINISHED');
    expect(live.restores).toHaveLength(2);
    const afterLoss = live.restores[1]!.subtasks.filter((s) => s.vertexId === 'count');
    for (const s of afterLoss) {
      if (s.subtaskIndex === lostSlot.subtaskIndex) expect(s).toMatchObject({ source: 'remote', reason: 'different-slot' });
      else expect(s.source).toBe('local');
    }
    const reference = failureFree(scenario);
    expect(live.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    expect(live.sinkOutput.perKey()).toEqual(reference.sinkOutput.perKey());

    await new Promise((r) => setTimeout(r, 200));
    await live.storageIdle();
    const leaks = await checkStorageLeaks(storage, {
      retainedCheckpointIds: live.coordinator.store.getAllCheckpoints().map((c) => c.id),
      termination: { policy: live.config.externalizedRetention, jobStatus: 'FINISHED' },
    });
    expect(leaks).toEqual({ orphaned: [], missing: [], unreadable: [] });
    expect(await storage.list('')).toEqual([]);
    expect(live.storageErrors).toEqual([]);
  });
});

/** This file's waits: up to 10 s. */
const until = (condition: () => boolean, timeoutMs = 10_000) => waitUntil(condition, timeoutMs);

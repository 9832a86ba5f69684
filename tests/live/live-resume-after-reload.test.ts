/**
 * A live run whose page was reloaded mid-run is resumed as a JobManager failover: the new
 * JobManager recovers the newest checkpoint whose `_metadata` is in the run's IndexedDB database
 * and restores it on its first deployment. The interrupted run is abandoned as a reload abandons
 * it (its processes stop, its checkpoint storage stays); the sink's external system holds what it
 * committed. In Node: in-process TaskManagers and fake-indexeddb.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { LiveDriver, type LiveDriverOptions } from '../../workers/live/live-driver.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { inProcessTaskManagers } from './in-process-task-managers.ts';
import { until } from './until.ts';
import { IndexedDbSinkOutputStore, sinkOutputDatabaseName } from '../../workers/storage/indexeddb-sink-output-store.ts';

/** source → keyed count → two-phase-commit sink, bounded, checkpointing every 200 ms on 3 TaskManagers. */
function checkpointedCounts(config: Record<string, unknown> = {}): Scenario {
  const base = keyedCountJob({ keys: 12, rate: 3000, count: 9000, parallelism: 3 });
  const vertices = base.job.vertices.map((v) => (v.id === 'sink' ? { ...v, operator: { type: 'sink' as const, sink: 'two-phase-commit' as const } } : v));
  return {
    ...base,
    job: { ...base.job, vertices },
    config: { 'execution.checkpointing.interval': 200, 'execution.checkpointing.min-pause': 50, ...config },
    cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 },
  };
}

const drivers: LiveDriver[] = [];
afterEach(() => {
  for (const d of drivers.splice(0)) d.dispose();
});

async function start(scenario: Scenario, options: LiveDriverOptions): Promise<LiveDriver> {
  const driver = await LiveDriver.start(scenario, { launchTaskManager: inProcessTaskManagers().launch, heartbeatScale: 0.1, ...options });
  drivers.push(driver);
  return driver;
}

/**
 * Runs until two checkpoints completed, then abandons the run as a reload does; resumes it in the
 * same database. A checkpoint triggered just before the reload may still get its `_metadata`
 * written as the abandoned connection closes: then that one is the newest.
 */
async function interruptAndResume(scenario: Scenario, database: string, options: LiveDriverOptions = {}) {
  const interrupted = await start(scenario, { ...options, checkpointDatabase: database });
  await until(() => (interrupted.coordinator.latestCheckpoint()?.id ?? 0) >= 2 && interrupted.coordinator.pendingCheckpoints.length === 0, 20_000);
  await interrupted.storageIdle();
  const jobTimeMs = interrupted.now;
  const latestBefore = interrupted.coordinator.latestCheckpoint()!.id;
  interrupted.dispose();
  const resumed = await start(scenario, { ...options, checkpointDatabase: database, recover: { jobTimeMs }, sinkOutput: interrupted.sinkOutput });
  return { interrupted, resumed, jobTimeMs, latestBefore };
}

describe('a live run resumed after the page was reloaded mid-run', () => {
  it('restores the newest completed checkpoint on its first deployment, goes on from the job time it had, and finishes exactly-once', async () => {
    const scenario = checkpointedCounts();
    const { resumed, jobTimeMs, latestBefore } = await interruptAndResume(scenario, 'resume-heap');
    expect(resumed.now).toBeGreaterThanOrEqual(jobTimeMs);
    expect(resumed.restores[0]?.isSavepoint).toBe(false);
    expect(resumed.restores[0]?.checkpointId).toBeGreaterThanOrEqual(latestBefore);
    expect(resumed.restores[0]!.subtasks.every((s) => s.source === 'remote')).toBe(true);
    expect(await resumed.whenTerminal()).toBe('FINISHED');
    const completed = resumed.events.flatMap((e) => (e.type === 'checkpoint-completed' ? [e.checkpointId] : []));
    expect(Math.min(...completed)).toBeGreaterThan(resumed.restores[0]!.checkpointId);
    const reference = new Simulation({ ...scenario, faults: [] });
    reference.runToEnd();
    expect(resumed.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    // The recovered checkpoint was Flink's: once the job finished, nothing of either run is left.
    await resumed.storageIdle();
    expect(await resumed.checkpointStorage!.list('')).toEqual([]);
    expect(resumed.storageErrors).toEqual([]);
  }, 60_000);

  it('resumes a rocksdb job with incremental checkpoints, its shared files registered, and leaks none of them', async () => {
    const scenario = checkpointedCounts({ 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true });
    const { resumed, latestBefore } = await interruptAndResume(scenario, 'resume-rocksdb', { speed: 0.5, rocksdbLocalDirs: 'memory' });
    expect(resumed.restores[0]?.checkpointId).toBeGreaterThanOrEqual(latestBefore);
    expect(resumed.coordinator.sharedState.files().length + resumed.coordinator.sharedState.deleted.length).toBeGreaterThan(0);
    expect(await resumed.whenTerminal()).toBe('FINISHED');
    const reference = new Simulation({ ...scenario, config: { ...scenario.config, 'state.backend.type': 'hashmap', 'execution.checkpointing.incremental': false }, faults: [] });
    reference.runToEnd();
    expect(resumed.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    await resumed.storageIdle();
    expect(await resumed.checkpointStorage!.list('')).toEqual([]);
  }, 90_000);

  it('keeps what the two-phase-commit sink committed in IndexedDB: the resumed run starts from it and the whole output is exactly-once', async () => {
    const scenario = checkpointedCounts();
    const interrupted = await start(scenario, { checkpointDatabase: 'resume-persisted', persistSinkOutput: true });
    await until(() => (interrupted.coordinator.latestCheckpoint()?.id ?? 0) >= 2 && interrupted.sinkOutput.totalRecords > 0, 20_000);
    await interrupted.storageIdle();
    const committedBefore = interrupted.sinkOutput.totalRecords;
    const jobTimeMs = interrupted.now;
    interrupted.dispose();
    const resumed = await start(scenario, { checkpointDatabase: 'resume-persisted', persistSinkOutput: true, recover: { jobTimeMs } });
    expect(resumed.sinkOutput.totalRecords).toBeGreaterThanOrEqual(committedBefore);
    expect(await resumed.whenTerminal()).toBe('FINISHED');
    const reference = new Simulation({ ...scenario, faults: [] });
    reference.runToEnd();
    expect(resumed.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    await resumed.storageIdle();
    expect(resumed.storageErrors).toEqual([]);
    const reloadedAgain = new IndexedDbSinkOutputStore(sinkOutputDatabaseName('resume-persisted'));
    expect((await reloadedAgain.load()).compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    await reloadedAgain.close();
  }, 60_000);

  it('refuses to resume from a database that holds no completed checkpoint, naming it', async () => {
    await expect(start(checkpointedCounts(), { checkpointDatabase: 'resume-empty', recover: { jobTimeMs: 1000 } })).rejects.toThrow(
      'Cannot resume the run: its checkpoint storage (resume-empty) holds no completed checkpoint',
    );
  });
});

/**
 * In the live runtime the JobManager plans a restore from `_metadata` and its hosts' disk
 * listings, and sends each subtask its handles: it reads no state byte, neither from remote
 * storage nor from a host's disk. The TaskManagers read their own (in-process ones here, in this
 * thread: each read is told apart by the store instance that made it). Every read is counted at
 * the stores themselves, so the test does not take the driver's word for it.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { LiveDriver } from '../../workers/live/live-driver.ts';
import { IndexedDbCheckpointStorage } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { IndexedDbLocalDiskStore } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { inProcessTaskManagers } from './in-process-task-managers.ts';
import { until } from './until.ts';

/**
 * source → keyed count → sink on three hosts, one TaskManager each, checkpointing every 200 ms,
 * with task-local recovery. The sources' and sinks' state is a few hundred bytes: with Flink's
 * default `execution.checkpointing.data-inline-threshold` (20 kb) it goes inline into `_metadata`,
 * with 0 into files of its own.
 */
function scenario(inlineThreshold: number): Scenario {
  const base = keyedCountJob({ keys: 12, rate: 3000, count: 9000, parallelism: 3 });
  return {
    ...base,
    config: {
      'execution.checkpointing.interval': 200,
      'execution.checkpointing.min-pause': 50,
      'execution.state-recovery.from-local': true,
      'execution.checkpointing.data-inline-threshold': inlineThreshold,
      'heartbeat.interval': 1000,
      'heartbeat.timeout': 5000,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 5,
      'restart-strategy.fixed-delay.delay': 100,
    },
    cluster: { hosts: 3, task_managers_per_host: 1, slots_per_task_manager: 1 },
  };
}

let driver: LiveDriver | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  void driver?.dispose();
  driver = undefined;
});

/** Starts the job, waits for its second checkpoint, then counts every read of remote storage and of the hosts' disks through a kill and its restore. */
async function restoreAfterKill(inlineThreshold: number) {
  const cluster = inProcessTaskManagers();
  driver = await LiveDriver.start(scenario(inlineThreshold), { launchTaskManager: cluster.launch, heartbeatScale: 0.1 });
  const live = driver;
  await until(() => (live.coordinator.latestCheckpoint()?.id ?? 0) >= 2, 10_000);
  await live.storageIdle();

  const remoteReads: Array<{ byJobManager: boolean; path: string; bytes: number }> = [];
  const readFile = IndexedDbCheckpointStorage.prototype.readFile;
  vi.spyOn(IndexedDbCheckpointStorage.prototype, 'readFile').mockImplementation(async function (this: IndexedDbCheckpointStorage, path: string) {
    const bytes = await readFile.call(this, path);
    remoteReads.push({ byJobManager: this === live.checkpointStorage, path, bytes: bytes?.byteLength ?? 0 });
    return bytes;
  });
  const wholeDiskReads = vi.spyOn(IndexedDbLocalDiskStore.prototype, 'read');
  const copyReads = vi.spyOn(IndexedDbLocalDiskStore.prototype, 'readCopy');

  expect(live.killTaskManager('tm-1')).toBeUndefined();
  await until(() => live.restores.length === 1 && live.jobStatus === 'RUNNING', 10_000);
  const restore = live.restores[0]!;
  return { live, restore, remoteReads, wholeDiskReads, copyReads };
}

describe('the live JobManager restoring a checkpoint', () => {
  it('reads only `_metadata` and no host disk, while the TaskManagers read their own state, local copies first', async () => {
    const { live, restore, remoteReads, wholeDiskReads, copyReads } = await restoreAfterKill(0);

    const byJobManager = remoteReads.filter((r) => r.byJobManager).map((r) => r.path);
    expect(byJobManager).toEqual([`${live.checkpointStorageSpec.location.checkpointDir}/${live.checkpointStorageSpec.location.jobId}/chk-${restore.checkpointId}/_metadata`]);
    expect(wholeDiskReads).not.toHaveBeenCalled();
    // Each keyed subtask's TaskManager read its own copy from its host's disk, and nothing of it remotely.
    const counts = restore.subtasks.filter((s) => s.vertexId === 'count');
    expect(counts.map((s) => ({ source: s.source, remoteBytes: s.remoteBytes }))).toEqual([0, 1, 2].map(() => ({ source: 'local', remoteBytes: 0 })));
    expect(copyReads).toHaveBeenCalledTimes(3);
    const byTaskManagers = remoteReads.filter((r) => !r.byJobManager).map((r) => r.path.split('/').pop());
    expect(byTaskManagers.sort()).toEqual(['op-sink-0', 'op-sink-1', 'op-sink-2', 'op-source-0', 'op-source-1', 'op-source-2']);
    // What the restore says it read remotely is what the stores gave: `_metadata` once, and each TaskManager's own files.
    expect(live.remoteRestoreReads).toEqual([{ checkpointId: restore.checkpointId, bytes: remoteReads.reduce((n, r) => n + r.bytes, 0), requests: remoteReads.length }]);
  });

  it('sends state under data-inline-threshold with the handles from `_metadata`: the TaskManagers read no remote file for it', async () => {
    const { live, restore, remoteReads, copyReads } = await restoreAfterKill(20 * 1024);

    const metadataPath = `${live.checkpointStorageSpec.location.checkpointDir}/${live.checkpointStorageSpec.location.jobId}/chk-${restore.checkpointId}/_metadata`;
    expect(remoteReads.map((r) => ({ byJobManager: r.byJobManager, path: r.path }))).toEqual([{ byJobManager: true, path: metadataPath }]);
    // The keyed counts still restored from their local copies, and the sources and sinks from what `_metadata` carried.
    expect(copyReads).toHaveBeenCalledTimes(3);
    expect(restore.subtasks.map((s) => `${s.vertexId}#${s.subtaskIndex}`).sort()).toEqual(['count#0', 'count#1', 'count#2', 'sink#0', 'sink#1', 'sink#2', 'source#0', 'source#1', 'source#2']);
    const listed = await live.checkpointStorage!.list(`${live.checkpointStorageSpec.location.checkpointDir}/${live.checkpointStorageSpec.location.jobId}/chk-${restore.checkpointId}`);
    expect(listed.map((f) => f.path.split('/').pop())).toEqual(['_metadata']);
  });
});

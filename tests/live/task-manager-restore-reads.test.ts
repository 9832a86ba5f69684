/**
 * A deployment that names handles instead of carrying state (TaskToDeploy.restoreHandles): the
 * TaskManager reads each subtask's share itself, its host's local copy first (IndexedDB,
 * fake-indexeddb here) and remote storage for what the disk lacks, and says in its DeployResult
 * where each came from; a share it can read from neither fails the deployment with the reason.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { readConfig } from '../../engine/config/flink-options.ts';
import { ExecutionGraph } from '../../engine/job/execution-graph.ts';
import { buildTaskDeployments } from '../../engine/job/task-deployments.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { localCopyPath } from '../../engine/recovery/host-local-disk.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import type { KeyGroupRange } from '../../engine/state/key-group-range.ts';
import { checkpointFiles, checkpointPlacement } from '../../engine/storage/checkpoint-files.ts';
import { checkpointDirectory } from '../../engine/storage/checkpoint-layout.ts';
import { clockFrom } from '../../workers/job-clock.ts';
import type { CheckpointStorageSpec, DeployResult, TaskToDeploy } from '../../workers/protocol.ts';
import { IndexedDbCheckpointStorage } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { TaskManager, type LsmStorageLoader } from '../../workers/task-manager.ts';
import { rocksDbLocalDir } from '../../workers/storage/rocksdb-local-dir.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';

const HOST = 'host-0';
const SCENARIO = { ...keyedCountJob({ keys: 6, rate: 1000, count: 10, parallelism: 2 }), cluster: { hosts: 1, task_managers_per_host: 1, slots_per_task_manager: 2 } };
let databases = 0;
const open: TaskManager[] = [];
afterEach(() => {
  for (const tm of open.splice(0)) tm.shutdown();
});

function storageSpec(remoteLatencyMs = 1): CheckpointStorageSpec {
  return {
    databaseName: `tm-restore-test-${++databases}`,
    location: { checkpointDir: 'indexeddb://checkpoints', jobId: 'job' },
    remote: { latencyMs: remoteLatencyMs, bandwidthMbPerS: 1000 },
    local: { latencyMs: 1, bandwidthMbPerS: 1000 },
    localBackupEnabled: true,
  };
}

function countSnapshot(subtaskIndex: number, range: KeyGroupRange): TaskStateSnapshot {
  return { subtask: { vertexId: 'count', subtaskIndex }, keyedState: { keyGroupRange: range, keyGroups: [], sizeBytes: 100 }, stateSize: 100, checkpointedSize: 100 };
}

/**
 * Checkpoint 1 of the count subtasks in remote storage (unless `remote` is false), and the host's
 * local copy of count#0's share only.
 */
async function setUp(options: { remote: boolean; remoteLatencyMs?: number; rocksdb?: LsmStorageLoader }) {
  const spec = storageSpec(options.remoteLatencyMs);
  const config = readConfig(options.rocksdb ? { ...SCENARIO.config, 'state.backend.type': 'rocksdb' } : SCENARIO.config);
  const graph = new ExecutionGraph(SCENARIO, config.maxParallelism);
  const deployments = buildTaskDeployments(graph, SCENARIO, { ...config, incremental: false }, 1);
  const counts = graph.subtasks.flatMap((s, i) => (s.id.vertexId === 'count' ? [i] : []));
  const keyOf = (i: number) => ({ allocationId: graph.subtasks[i]!.slot.id, jobId: 'job', subtask: { ...graph.subtasks[i]!.id } });
  const checkpoint: CompletedCheckpoint = {
    id: 1,
    isSavepoint: false,
    triggerTimestamp: 0,
    completionTimestamp: 1,
    externalPath: checkpointDirectory(spec.location, 1),
    taskStates: new Map(counts.map((i) => [`count#${graph.subtasks[i]!.id.subtaskIndex}`, countSnapshot(graph.subtasks[i]!.id.subtaskIndex, deployments[i]!.keyGroupRange)])),
    parallelism: { source: 2, count: 2, sink: 2 },
    stateSize: 200,
    checkpointedSize: 200,
  };
  if (options.remote) {
    const store = await IndexedDbCheckpointStorage.open({ databaseName: spec.databaseName, location: spec.location });
    expect(await store.writeCheckpoint(1, checkpointFiles(checkpointPlacement(spec.location, 1), checkpoint))).toBeUndefined();
    await store.close();
  }
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(localDiskDatabaseName(spec.databaseName, HOST)), { contentsInMemory: false });
  disk.store(keyOf(counts[0]!), 1, checkpoint.taskStates.get('count#0')!);
  await disk.persisted();
  await disk.persistence.close();
  const tasks: TaskToDeploy[] = graph.subtasks.map((s, i) => {
    const task: TaskToDeploy = { taskIndex: i, slotId: s.slot.id, deployment: deployments[i]!, slowdown: 1 };
    if (s.id.vertexId !== 'count') return task;
    const target = { ...s.id, parallelism: 2, keyGroupRange: deployments[i]!.keyGroupRange };
    return { ...task, restoreHandles: { checkpointId: 1, directory: checkpoint.externalPath, parallelism: checkpoint.parallelism, target, local: { path: localCopyPath(keyOf(i), 1) } } };
  });
  const tm = new TaskManager(options.rocksdb ? { loadLsmStorage: options.rocksdb } : {});
  open.push(tm);
  tm.register({ taskManagerId: 'tm-0', host: HOST, reportPort: new MessageChannel().port2, storage: spec });
  // What the TaskManager reads off the disk for count#0: the copy's stored (encoded) bytes.
  const storedCopyBytes = async () => {
    const store = new IndexedDbLocalDiskStore(localDiskDatabaseName(spec.databaseName, HOST));
    const stored = await store.readCopy(localCopyPath(keyOf(counts[0]!), 1));
    await store.close();
    return stored!.copy.snapshot.byteLength;
  };
  return { counts, storedCopyBytes, deploy: () => Promise.resolve(tm.deploy({ attempt: 1, clock: clockFrom(0, 1), config, tasks, ports: [] })) };
}

describe('a TaskManager deployed with state handles', () => {
  it('reads each subtask’s share itself, local where its host’s disk has the copy, remote where not, and says so', async () => {
    const { counts, storedCopyBytes, deploy } = await setUp({ remote: true });
    const result: DeployResult = await deploy();
    expect(result.taskIndexes).toHaveLength(6);
    // Without `_metadata`'s references in its handles, the TaskManager reads `_metadata` itself, then the state file.
    expect(result.restores).toEqual([
      { taskIndex: counts[0], source: 'local', bytes: 100, remoteBytes: 0, localBytesRead: await storedCopyBytes(), remoteRead: { bytes: 0, requests: 0 } },
      { taskIndex: counts[1], source: 'remote', reason: 'missing', bytes: 100, remoteBytes: 100, localBytesRead: 0, remoteRead: { bytes: expect.any(Number), requests: 2 } },
    ]);
    expect(result.restores![1]!.remoteRead.bytes).toBeGreaterThan(0);
  });

  it('fails the deployment, naming what is missing, when a share is on neither the disk nor remote storage', async () => {
    const { deploy } = await setUp({ remote: false });
    await expect(deploy()).rejects.toThrow(/Cannot find meta data file '_metadata'/);
  });

  describe('with the rocksdb backend', () => {
    /** Working databases in memory (Node has no OPFS), each open and dispose recorded at the ms it came. */
    async function workingDatabases() {
      const factory = await nodeLsmStorage();
      const events: Array<{ what: 'open' | 'dispose'; at: number }> = [];
      const loader: LsmStorageLoader = async () => async () => {
        events.push({ what: 'open', at: performance.now() });
        return { factory, path: undefined, bytes: () => 0, dispose: async () => void events.push({ what: 'dispose', at: performance.now() }) };
      };
      return { loader, events };
    }

    it('opens the working database while it reads the state, not after the read', async () => {
      const { loader, events } = await workingDatabases();
      // count#1 reads `_metadata` and its state file remotely: at least 2 × 1,000 ms of modelled latency
      const { deploy } = await setUp({ remote: true, remoteLatencyMs: 1000, rocksdb: loader });
      const start = performance.now();
      const result = await deploy();
      const end = performance.now();
      expect(result.restores?.map((r) => r.source)).toEqual(['local', 'remote']);
      expect(end - start).toBeGreaterThanOrEqual(2000);
      const opened = events.filter((e) => e.what === 'open');
      expect(opened).toHaveLength(1);
      expect(opened[0]!.at - start).toBeLessThan(1000);
    });

    it('loads wa-sqlite when a rocksdb job’s TaskManager registers (it is sent a local dir), and not for another job’s', async () => {
      for (const rocksdb of [true, false]) {
        const loads: unknown[] = [];
        const tm = new TaskManager({ loadLsmStorage: async (localDir) => (loads.push(localDir), (await workingDatabases()).loader(localDir)) });
        open.push(tm);
        const localDir = rocksdb ? { rocksdbLocalDir: rocksDbLocalDir('tm-preload-test', HOST, 'tm-0', 1) } : {};
        tm.register({ taskManagerId: 'tm-0', host: HOST, reportPort: new MessageChannel().port2, storage: storageSpec(), ...localDir });
        expect(loads).toEqual(rocksdb ? [localDir.rocksdbLocalDir] : []);
      }
    });

    it('releases the working database it opened when the read fails the deployment', async () => {
      const { loader, events } = await workingDatabases();
      const { deploy } = await setUp({ remote: false, rocksdb: loader });
      await expect(deploy()).rejects.toThrow(/Cannot find meta data file '_metadata'/);
      await vi.waitFor(() => expect(events.map((e) => e.what)).toEqual(['open', 'dispose']));
    });
  });
});

/**
 * Each state handle of a TaskManager's restore says how long its read took (readTaskRestore with
 * `timing`): a local handle the read of its host's disk plus the disk's modelled transfer of its
 * own bytes on the disk (its share of the stored copy's encoded bytes), a remote one the read of remote storage. The job clock here is a counter that the
 * reads advance (7 ms for the host's disk, 300 ms per remote file), so the expected times are
 * known without any real timing.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { localCopyPath } from '../../engine/recovery/host-local-disk.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { readCompletedCheckpoint } from '../../engine/storage/checkpoint-files.ts';
import type { CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import { MemoryCheckpointStorage } from '../../engine/storage/memory-checkpoint-storage.ts';
import { transferMs } from '../../engine/storage/transfer-cost.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { readTaskRestore, type TaskRestoreHandles } from '../../workers/task-restore-reads.ts';
import { twoKeyGroupSnapshot, writeRemoteCheckpoint } from './task-restore-fixture.ts';

const LOCATION: CheckpointLocation = { checkpointDir: 'file:///checkpoints', jobId: 'c1b2c3d4e5f60718293a4b5c6d7e8f90' };
const HOST = 'host-0';
const KEY = { allocationId: 'tm-0/slot-0', jobId: LOCATION.jobId, subtask: { vertexId: 'count', subtaskIndex: 0 } };
const PATH = localCopyPath(KEY, 4);
const TARGET = { vertexId: 'count', subtaskIndex: 0, parallelism: 1, keyGroupRange: { start: 0, end: 127 } };
const LOCAL_COST = { latencyMs: 0.5, bandwidthMbPerS: 1000 };
const DISK_MS = 7;
const REMOTE_FILE_MS = 300;
let databases = 0;

/** A job clock that only the reads move. */
function counterClock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** The host's disk with checkpoint 4's local copy; `partial`: its handle of key groups 96–127 lost. Reading it takes DISK_MS. */
async function localDisk(clock: ReturnType<typeof counterClock>, partial: boolean): Promise<IndexedDbLocalDiskStore> {
  const name = localDiskDatabaseName(`checkpoint-playground/handle-durations-${++databases}/checkpoints`, HOST);
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory: false });
  disk.store(KEY, 4, twoKeyGroupSnapshot('local'));
  if (partial) disk.delete({ vertexId: 'count', subtaskIndex: 0, checkpointId: 4, keyGroup: 100 });
  await disk.persisted();
  await disk.persistence.close();
  const store = new IndexedDbLocalDiskStore(name);
  const readCopy = store.readCopy.bind(store);
  store.readCopy = async (path) => {
    const read = await readCopy(path);
    clock.advance(DISK_MS);
    return read;
  };
  return store;
}

/** Checkpoint 4 in remote storage, each file read taking REMOTE_FILE_MS, and the handles the JobManager deploys with. */
async function remote(clock: ReturnType<typeof counterClock>, local: TaskRestoreHandles['local']) {
  const storage = new MemoryCheckpointStorage({ location: LOCATION });
  const { externalPath, error } = await writeRemoteCheckpoint(storage, LOCATION);
  expect(error).toBeUndefined();
  const read = await readCompletedCheckpoint(storage, externalPath, { select: () => new Set() });
  if (!read.ok) throw new Error(read.error.message);
  const readFile = storage.readFile.bind(storage);
  storage.readFile = async (path) => {
    const bytes = await readFile(path);
    clock.advance(REMOTE_FILE_MS);
    return bytes;
  };
  const handles: TaskRestoreHandles = { checkpointId: 4, directory: externalPath, parallelism: { count: 1 }, target: TARGET, remote: read.metadata, ...(local ? { local } : {}) };
  return { storage, handles };
}

/** A local handle of `stateBytes` of the copy's 2000: the disk's read plus the transfer of its share of the stored bytes. */
async function localMs(disk: IndexedDbLocalDiskStore, stateBytes: number): Promise<number> {
  const stored = (await disk.readCopy(PATH))!.copy.snapshot.byteLength;
  return DISK_MS + transferMs(Math.round((stateBytes * stored) / 2000), LOCAL_COST.latencyMs, LOCAL_COST.bandwidthMbPerS);
}

describe('each state handle of a restore says how long its read took', () => {
  it('times every handle of a local restore by the read of the host’s disk plus its own modelled transfer', async () => {
    const clock = counterClock();
    const { storage, handles } = await remote(clock, { path: PATH });
    const disk = await localDisk(clock, false);
    const read = await readTaskRestore(handles, { local: disk, remote: storage, timing: { now: clock.now, local: LOCAL_COST } });
    if ('error' in read) throw new Error(read.error);
    expect(read.source).toBe('local');
    const handleMs = await localMs(disk, 500);
    expect(read.handles!.map((h) => [h.keyGroupRange?.start, h.source, h.durationMs])).toEqual([0, 32, 64, 96].map((start) => [start, 'local', handleMs]));
  });

  it('times the local handles of a mixed restore by the disk and the rest by the remote read', async () => {
    const clock = counterClock();
    const { storage, handles } = await remote(clock, { path: PATH, keyGroupRanges: [{ start: 0, end: 95 }], reason: 'partial' });
    const disk = await localDisk(clock, true);
    const read = await readTaskRestore(handles, { local: disk, remote: storage, timing: { now: clock.now, local: LOCAL_COST } });
    if ('error' in read) throw new Error(read.error);
    const handleMs = await localMs(disk, 500);
    expect(read.handles!.map((h) => [h.kind, h.keyGroupRange?.start, h.source, h.durationMs])).toEqual([
      ['key-groups', 0, 'local', handleMs],
      ['key-groups', 32, 'local', handleMs],
      ['key-groups', 64, 'local', handleMs],
      ['key-groups', 96, 'remote', REMOTE_FILE_MS],
      ['operator', undefined, 'remote', REMOTE_FILE_MS],
    ]);
  });

  it('times a remote restore’s handles by the remote read alone when there is no local copy', async () => {
    const clock = counterClock();
    const { storage, handles } = await remote(clock, undefined);
    const read = await readTaskRestore(handles, { remote: storage, timing: { now: clock.now, local: LOCAL_COST } });
    if ('error' in read) throw new Error(read.error);
    expect(read.handles!.map((h) => [h.source, h.reason, h.durationMs])).toEqual([
      ['remote', 'missing', REMOTE_FILE_MS],
      ['remote', 'missing', REMOTE_FILE_MS],
    ]);
  });

  it('leaves handles untimed when the TaskManager gives no clock', async () => {
    const clock = counterClock();
    const { storage, handles } = await remote(clock, { path: PATH });
    const read = await readTaskRestore(handles, { local: await localDisk(clock, false), remote: storage });
    if ('error' in read) throw new Error(read.error);
    expect(read.handles!.every((h) => h.durationMs === undefined)).toBe(true);
  });
});

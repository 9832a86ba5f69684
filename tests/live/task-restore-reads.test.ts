/**
 * A TaskManager reads its own subtask's state for a restore (readTaskRestore): the local copy
 * from its host's disk (IndexedDB, fake-indexeddb here) checked against its checksum, remote
 * storage only for what the local copy cannot serve. The local copy and the remote state hold
 * different values for the same keys, so each expectation shows which one was read.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { localCopyPath } from '../../engine/recovery/host-local-disk.ts';
import type { StoredLocalCopy } from '../../engine/recovery/local-disk-store.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { checkpointDirectory, type CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import { MemoryCheckpointStorage } from '../../engine/storage/memory-checkpoint-storage.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { readTaskRestore, type TaskRestoreHandles } from '../../workers/task-restore-reads.ts';
import { encodedStateOf } from '../../engine/state/encoded-key-group-state.ts';
import type { KeyedStateSnapshot } from '../../engine/state/keyed-state-backend.ts';
import { KG, restoredValues, twoKeyGroupSnapshot, writeRemoteCheckpoint } from './task-restore-fixture.ts';

const LOCATION: CheckpointLocation = { checkpointDir: 'file:///checkpoints', jobId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' };
const HOST = 'host-0';
const KEY = { allocationId: 'tm-0/slot-0', jobId: LOCATION.jobId, subtask: { vertexId: 'count', subtaskIndex: 0 } };
const TARGET = { vertexId: 'count', subtaskIndex: 0, parallelism: 1, keyGroupRange: { start: 0, end: 127 } };
let databases = 0;

/** Checkpoint 4 in remote storage with the `remote` values. */
async function remoteStorage(): Promise<MemoryCheckpointStorage & { reads: number }> {
  const storage = Object.assign(new MemoryCheckpointStorage({ location: LOCATION }), { reads: 0 });
  expect((await writeRemoteCheckpoint(storage, LOCATION)).error).toBeUndefined();
  const readFile = storage.readFile.bind(storage);
  storage.readFile = (path) => {
    storage.reads++;
    return readFile(path);
  };
  return storage;
}

/** The host's disk with the local copy of checkpoint 4, holding the `local` values. */
async function localDisk(): Promise<IndexedDbLocalDiskStore> {
  const name = localDiskDatabaseName(`checkpoint-playground/task-reads-${++databases}/checkpoints`, HOST);
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory: false });
  disk.store(KEY, 4, twoKeyGroupSnapshot('local'));
  await disk.persisted();
  await disk.persistence.close();
  return new IndexedDbLocalDiskStore(name);
}

function handles(local?: TaskRestoreHandles['local']): TaskRestoreHandles {
  return { checkpointId: 4, directory: checkpointDirectory(LOCATION, 4), parallelism: { count: 1 }, target: TARGET, ...(local ? { local } : {}) };
}

function values(read: Awaited<ReturnType<typeof readTaskRestore>>): string[] {
  if ('error' in read) throw new Error(read.error);
  return restoredValues(read.restore);
}

describe('a TaskManager reads its own state for a restore', () => {
  it('reads an intact local copy wholly from its host’s disk and nothing from remote storage', async () => {
    const remote = await remoteStorage();
    const read = await readTaskRestore(handles({ path: localCopyPath(KEY, 4) }), { local: await localDisk(), remote });
    expect(values(read)).toEqual(['local@100', 'local@3']);
    expect(read).toMatchObject({ source: 'local', remoteBytes: 0 });
    expect(remote.reads).toBe(0);
  });

  it('reads remote storage when the disk lacks the copy the plan named (missing)', async () => {
    const read = await readTaskRestore(handles({ path: localCopyPath(KEY, 3) }), { local: await localDisk(), remote: await remoteStorage() });
    expect(values(read)).toEqual(['remote@100', 'remote@3']);
    expect(read).toMatchObject({ source: 'remote', reason: 'missing', remoteBytes: 2 * KG });
  });

  it('finds a copy damaged on the disk by its checksum and reads remote storage instead (corrupt)', async () => {
    const local = await localDisk();
    const db = await openDB(local.name);
    const path = localCopyPath(KEY, 4);
    const record = (await db.get('copies', path)) as StoredLocalCopy;
    await db.put('copies', { ...record, snapshot: record.snapshot.map((b, i) => (i === record.snapshot.length - 2 ? b ^ 0xff : b)) }, path);
    db.close();
    const read = await readTaskRestore(handles({ path }), { local, remote: await remoteStorage() });
    expect(values(read)).toEqual(['remote@100', 'remote@3']);
    expect(read).toMatchObject({ source: 'remote', reason: 'corrupt' });
  });

  it('mixes per key-group handle: the intact part from the local copy, the rest from remote storage', async () => {
    const read = await readTaskRestore(handles({ path: localCopyPath(KEY, 4), keyGroupRanges: [{ start: 0, end: 63 }], reason: 'partial' }), { local: await localDisk(), remote: await remoteStorage() });
    expect(values(read)).toEqual(['local@3', 'remote@100']);
    expect(read).toMatchObject({ source: 'remote', reason: 'partial' });
  });

  it('reads remote storage when there is no local alternative, and says which file is missing when it is not there', async () => {
    const remote = await remoteStorage();
    expect(values(await readTaskRestore(handles(), { remote }))).toEqual(['remote@100', 'remote@3']);
    const empty = new MemoryCheckpointStorage({ location: LOCATION });
    const failed = await readTaskRestore(handles({ path: localCopyPath(KEY, 3) }), { local: await localDisk(), remote: empty });
    expect(failed).toEqual({ error: expect.stringContaining(`Cannot find meta data file '_metadata' in directory '${checkpointDirectory(LOCATION, 4)}'`) });
  });

  it('hands over the keyed state it read from remote storage still encoded, for the backend to decode key group by key group', async () => {
    const read = await readTaskRestore(handles(), { remote: await remoteStorage() });
    if ('error' in read) throw new Error(read.error);
    const groups = (read.restore.keyedState as KeyedStateSnapshot[]).flatMap((k) => k.keyGroups);
    expect(groups.map((g) => g.keyGroup)).toEqual([3, 100]);
    expect(groups.every((g) => encodedStateOf(g.states, 'count') !== undefined)).toBe(true);
  });
});

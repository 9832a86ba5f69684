/**
 * The choice a TaskManager makes per state handle when it reads its own share (readTaskRestore,
 * handles as the live JobManager sends them: `_metadata`'s references, the local copy's path),
 * every combination of local copy (complete, partial, corrupt, one corrupt handle, missing) and
 * remote copy (present, missing), as Flink's PrioritizedOperatorSubtaskStateTest enumerates its
 * alternatives. The local copy and remote storage hold different values for the same keys
 * (key group 3 in the copy's first handle, key group 100 in its last), so each expectation shows
 * which one was read.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { localCopyPath } from '../../engine/recovery/host-local-disk.ts';
import type { StoredLocalCopy } from '../../engine/recovery/local-disk-store.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { readCompletedCheckpoint, type CheckpointMetadata } from '../../engine/storage/checkpoint-files.ts';
import type { CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import { MemoryCheckpointStorage } from '../../engine/storage/memory-checkpoint-storage.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { readTaskRestore, type TaskRestoreRead } from '../../workers/task-restore-reads.ts';
import { KG, restoredValues, twoKeyGroupSnapshot, writeRemoteCheckpoint } from './task-restore-fixture.ts';

const LOCATION: CheckpointLocation = { checkpointDir: 'file:///checkpoints', jobId: 'b1b2c3d4e5f60718293a4b5c6d7e8f90' };
const HOST = 'host-0';
const KEY = { allocationId: 'tm-0/slot-0', jobId: LOCATION.jobId, subtask: { vertexId: 'count', subtaskIndex: 0 } };
const PATH = localCopyPath(KEY, 4);
const TARGET = { vertexId: 'count', subtaskIndex: 0, parallelism: 1, keyGroupRange: { start: 0, end: 127 } };
let databases = 0;

/** Checkpoint 4 with the `remote` values, and its `_metadata` as the JobManager read it. */
async function remoteCheckpoint(): Promise<{ storage: MemoryCheckpointStorage; metadata: CheckpointMetadata }> {
  const storage = new MemoryCheckpointStorage({ location: LOCATION });
  const { externalPath, error } = await writeRemoteCheckpoint(storage, LOCATION);
  expect(error).toBeUndefined();
  const read = await readCompletedCheckpoint(storage, externalPath, { select: () => new Set() });
  if (!read.ok) throw new Error(read.error.message);
  return { storage, metadata: read.metadata };
}

type LocalCase = 'complete' | 'partial' | 'corrupt' | 'corrupt-handle' | 'missing';

/** The host's disk with the local copy of checkpoint 4 (`local` values) as the case has it. */
async function localDisk(kind: LocalCase): Promise<IndexedDbLocalDiskStore> {
  const name = localDiskDatabaseName(`checkpoint-playground/handle-choice-${++databases}/checkpoints`, HOST);
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory: false });
  if (kind !== 'missing') disk.store(KEY, 4, twoKeyGroupSnapshot('local'));
  // The handle of key groups 96-127 is lost (a partial write) or damaged; the copy's other handles stay intact.
  if (kind === 'partial') disk.delete({ vertexId: 'count', subtaskIndex: 0, checkpointId: 4, keyGroup: 100 });
  if (kind === 'corrupt-handle') disk.corrupt({ vertexId: 'count', subtaskIndex: 0, checkpointId: 4, keyGroup: 100 });
  await disk.persisted();
  await disk.persistence.close();
  if (kind === 'corrupt') {
    const db = await openDB(name);
    const record = (await db.get('copies', PATH)) as StoredLocalCopy;
    await db.put('copies', { ...record, snapshot: record.snapshot.map((b, i) => (i === record.snapshot.length - 2 ? b ^ 0xff : b)) }, PATH);
    db.close();
  }
  return new IndexedDbLocalDiskStore(name);
}

function values(read: TaskRestoreRead): string[] {
  return restoredValues(read.restore);
}

const localHandle = (start: number, end: number) => ({ kind: 'key-groups', keyGroupRange: { start, end }, bytes: 500, source: 'local' });
const WHOLE_LOCAL = [localHandle(0, 31), localHandle(32, 63), localHandle(64, 95), localHandle(96, 127)];
const MIXED = (reason: string) => [localHandle(0, 31), localHandle(32, 63), localHandle(64, 95), { ...localHandle(96, 127), source: 'remote', reason }, { kind: 'operator', bytes: 0, source: 'remote', reason }];
const ALL_REMOTE = (reason: string) => [{ kind: 'key-groups', keyGroupRange: { start: 0, end: 127 }, bytes: 2 * KG, source: 'remote', reason }, { kind: 'operator', bytes: 0, source: 'remote', reason }];

/**
 * What each local case gives with remote storage present; with it missing, only `complete` restores.
 * `localStateRead`: the state bytes of the handles read from the disk; what the disk gave for them
 * (localBytesRead) is their share of the stored copy's encoded bytes (storedShare).
 */
const CASES: Array<{ local: LocalCase; source: 'local' | 'remote'; reason?: string; values: string[]; handles: object[]; localStateRead: number; remoteBytes: number }> = [
  { local: 'complete', source: 'local', values: ['local@100', 'local@3'], handles: WHOLE_LOCAL, localStateRead: 2 * KG, remoteBytes: 0 },
  { local: 'partial', source: 'remote', reason: 'partial', values: ['local@3', 'remote@100'], handles: MIXED('partial'), localStateRead: 1500, remoteBytes: 500 },
  { local: 'corrupt', source: 'remote', reason: 'corrupt', values: ['remote@100', 'remote@3'], handles: ALL_REMOTE('corrupt'), localStateRead: 2 * KG, remoteBytes: 2 * KG },
  // The damaged handle was read before its checksum failed: all four handles' bytes were read locally.
  { local: 'corrupt-handle', source: 'remote', reason: 'corrupt', values: ['local@3', 'remote@100'], handles: MIXED('corrupt'), localStateRead: 2 * KG, remoteBytes: 500 },
  { local: 'missing', source: 'remote', reason: 'missing', values: ['remote@100', 'remote@3'], handles: ALL_REMOTE('missing'), localStateRead: 0, remoteBytes: 2 * KG },
];

/** The bytes on the disk of `stateBytes` of the copy (2 KG of state): that share of its stored, encoded bytes. */
async function storedShare(disk: IndexedDbLocalDiskStore, stateBytes: number): Promise<number> {
  const stored = await disk.readCopy(PATH);
  return stored ? Math.round((stateBytes * stored.copy.snapshot.byteLength) / (2 * KG)) : 0;
}

describe('a TaskManager chooses per handle between its local copy and remote storage', () => {
  for (const c of CASES) {
    it(`local copy ${c.local}, remote present: ${c.source === 'local' ? 'all local, nothing read remotely' : `${c.reason}, ${c.handles.some((h) => (h as { source: string }).source === 'local') ? 'the intact handles local, the rest remote' : 'all remote'}`}`, async () => {
      const { storage, metadata } = await remoteCheckpoint();
      const disk = await localDisk(c.local);
      const read = await readTaskRestore({ checkpointId: 4, directory: metadata.externalPath, parallelism: { count: 1 }, target: TARGET, remote: metadata, local: { path: PATH } }, { local: disk, remote: storage });
      if ('error' in read) throw new Error(read.error);
      expect(values(read)).toEqual(c.values);
      expect({ source: read.source, reason: read.reason, handles: read.handles, localBytesRead: read.localBytesRead, remoteBytes: read.remoteBytes }).toEqual({
        source: c.source,
        reason: c.reason,
        handles: c.handles,
        localBytesRead: await storedShare(disk, c.localStateRead),
        remoteBytes: c.remoteBytes,
      });
      // `_metadata` came with the handles: the TaskManager reads its state file only, and only when the copy does not serve whole.
      expect(read.remoteRead.requests).toBe(c.source === 'local' ? 0 : 1);
    });

    it(`local copy ${c.local}, remote missing: ${c.source === 'local' ? 'restores from the copy alone' : 'fails, naming the state file it could not read'}`, async () => {
      const { metadata } = await remoteCheckpoint();
      const empty = new MemoryCheckpointStorage({ location: LOCATION });
      const read = await readTaskRestore({ checkpointId: 4, directory: metadata.externalPath, parallelism: { count: 1 }, target: TARGET, remote: metadata, local: { path: PATH } }, { local: await localDisk(c.local), remote: empty });
      if (c.source === 'local') expect(values(read as TaskRestoreRead)).toEqual(c.values);
      else expect(read).toEqual({ error: expect.stringContaining(`File does not exist: ${metadata.subtasks[0]!.statePath}`) });
    });
  }
});

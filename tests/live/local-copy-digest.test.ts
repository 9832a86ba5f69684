/**
 * A live TaskManager's local copy carries the SHA-256 digest of its bytes (local-copy-digest.ts,
 * Web Crypto, off the worker's thread) instead of an FNV-1a computed in JS. Read back for a
 * restore, the copy is trusted only when its bytes still match the digest; a damaged byte sends
 * the restore to remote storage (`corrupt`), as Flink falls back when a local file cannot be read.
 * The local copy and remote storage hold different values for the same keys, so each expectation
 * shows which one was read.
 */
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { openDB } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import { localCopyPath, verifyLocalCopy } from '../../engine/recovery/host-local-disk.ts';
import type { StoredLocalCopy } from '../../engine/recovery/local-disk-store.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { checkpointDirectory, type CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import { MemoryCheckpointStorage } from '../../engine/storage/memory-checkpoint-storage.ts';
import { encodeTaskStateSnapshot } from '../../engine/storage/snapshot-codec.ts';
import { localCopyChecksum, localCopyDigest } from '../../workers/local-copy-digest.ts';
import { fnv1a32Bytes } from '../../engine/recovery/checksum.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { readTaskRestore, type TaskRestoreHandles } from '../../workers/task-restore-reads.ts';
import { KG, restoredValues, twoKeyGroupSnapshot, writeRemoteCheckpoint } from './task-restore-fixture.ts';

const LOCATION: CheckpointLocation = { checkpointDir: 'file:///checkpoints', jobId: 'd1b2c3d4e5f60718293a4b5c6d7e8f90' };
const HOST = 'host-0';
const KEY = { allocationId: 'tm-0/slot-0', jobId: LOCATION.jobId, subtask: { vertexId: 'count', subtaskIndex: 0 } };
const PATH = localCopyPath(KEY, 4);
const TARGET = { vertexId: 'count', subtaskIndex: 0, parallelism: 1, keyGroupRange: { start: 0, end: 127 } };
let databases = 0;

/** The host's disk as the live JobManager writes a TaskManager's copy of checkpoint 4 (`local` values): its bytes and their digest, as they came. */
async function diskWithDigestedCopy(): Promise<{ name: string; disk: PersistentHostLocalDisk }> {
  const name = localDiskDatabaseName(`checkpoint-playground/digest-${++databases}/checkpoints`, HOST);
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory: false });
  const encoded = encodeTaskStateSnapshot(twoKeyGroupSnapshot('local'));
  disk.storeEncoded(KEY, 4, encoded, { bytes: 2 * KG, checksum: await localCopyDigest(encoded), checksumOf: 'sha-256' });
  await disk.persisted();
  return { name, disk };
}

async function remoteStorage(): Promise<MemoryCheckpointStorage> {
  const storage = new MemoryCheckpointStorage({ location: LOCATION });
  expect((await writeRemoteCheckpoint(storage, LOCATION)).error).toBeUndefined();
  return storage;
}

/** Where `needle` starts in `bytes`, or -1. */
function indexOf(bytes: Uint8Array, needle: Uint8Array): number {
  for (let i = 0; i + needle.length <= bytes.length; i++) if (needle.every((b, j) => bytes[i + j] === b)) return i;
  return -1;
}

const handles: TaskRestoreHandles = { checkpointId: 4, directory: checkpointDirectory(LOCATION, 4), parallelism: { count: 1 }, target: TARGET, local: { path: PATH } };

describe('a live TaskManager’s local copy is checked by its SHA-256 digest', () => {
  it('digests bytes as SHA-256, hex', async () => {
    const bytes = new TextEncoder().encode('checkpoint 4 of count#0');
    expect(await localCopyDigest(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('writes SHA-256 where Web Crypto is, and FNV-1a where the page is not a secure context', async () => {
    const bytes = encodeTaskStateSnapshot(twoKeyGroupSnapshot('local'));
    expect(await localCopyChecksum(bytes)).toEqual({ checksum: createHash('sha256').update(bytes).digest('hex'), checksumOf: 'sha-256' });
    vi.stubGlobal('crypto', {});
    try {
      expect(await localCopyChecksum(bytes)).toEqual({ checksum: fnv1a32Bytes(bytes), checksumOf: 'bytes' });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('restores from a copy whose bytes match their digest, reading nothing remotely', async () => {
    const { name, disk } = await diskWithDigestedCopy();
    await disk.persistence.close();
    const stored = (await (await openDB(name)).get('copies', PATH)) as StoredLocalCopy;
    expect(stored.checksumOf).toBe('sha-256');
    const read = await readTaskRestore(handles, { local: new IndexedDbLocalDiskStore(name), remote: await remoteStorage() });
    if ('error' in read) throw new Error(read.error);
    expect(restoredValues(read.restore)).toEqual(['local@100', 'local@3']);
    expect(read).toMatchObject({ source: 'local', remoteBytes: 0 });
  });

  it('finds one damaged byte by the digest and restores from remote storage instead (corrupt)', async () => {
    const { name, disk } = await diskWithDigestedCopy();
    await disk.persistence.close();
    const db = await openDB(name);
    const record = (await db.get('copies', PATH)) as StoredLocalCopy;
    // `local@100` becomes `mocal@100`: the copy still decodes, only the digest tells it changed.
    const at = indexOf(record.snapshot, new TextEncoder().encode('local@100'));
    expect(at).toBeGreaterThan(0);
    await db.put('copies', { ...record, snapshot: record.snapshot.map((b, i) => (i === at ? b ^ 0x01 : b)) }, PATH);
    db.close();
    const read = await readTaskRestore(handles, { local: new IndexedDbLocalDiskStore(name), remote: await remoteStorage() });
    if ('error' in read) throw new Error(read.error);
    expect(restoredValues(read.restore)).toEqual(['remote@100', 'remote@3']);
    expect(read).toMatchObject({ source: 'remote', reason: 'corrupt' });
  });

  it('is not trusted by a reader that cannot check the digest synchronously (the JobManager’s own reload)', async () => {
    const { disk } = await diskWithDigestedCopy();
    await disk.reload();
    const copy = disk.retrieve(KEY, 4)!;
    expect(copy.path).toBe(PATH);
    expect(verifyLocalCopy(copy)).toBe(false);
  });
});

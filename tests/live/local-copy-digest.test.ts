/**
 * A live TaskManager's local copy carries the XXH64 checksum of its bytes (local-copy-digest.ts,
 * xxhash-wasm) instead of an FNV-1a computed in JS or a SHA-256 digest (which Chromium computes on
 * the worker's own thread, eight times slower). Read back for a restore, the copy is trusted only
 * when its bytes still match the checksum; a damaged byte sends the restore to remote storage
 * (`corrupt`), as Flink falls back when a local file cannot be read. Copies written with SHA-256 by
 * an earlier version are still checked as they were written.
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
import { localCopyChecksum, localCopyXxh64 } from '../../workers/local-copy-digest.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { readTaskRestore, type TaskRestoreHandles } from '../../workers/task-restore-reads.ts';
import { KG, restoredValues, twoKeyGroupSnapshot, writeRemoteCheckpoint } from './task-restore-fixture.ts';

const LOCATION: CheckpointLocation = { checkpointDir: 'file:///checkpoints', jobId: 'd1b2c3d4e5f60718293a4b5c6d7e8f90' };
const HOST = 'host-0';
const KEY = { allocationId: 'tm-0/slot-0', jobId: LOCATION.jobId, subtask: { vertexId: 'count', subtaskIndex: 0 } };
const PATH = localCopyPath(KEY, 4);
const TARGET = { vertexId: 'count', subtaskIndex: 0, parallelism: 1, keyGroupRange: { start: 0, end: 127 } };
let databases = 0;

/** The SHA-256 digest, hex, as live TaskManagers wrote copies before XXH64. */
function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The host's disk as the live JobManager writes a TaskManager's copy of checkpoint 4 (`local`
 * values): its bytes and their checksum, as they came (XXH64 as TaskManagers write it now, or
 * SHA-256 as they wrote it before).
 */
async function diskWithDigestedCopy(checksumOf: 'xxh64' | 'sha-256' = 'xxh64'): Promise<{ name: string; disk: PersistentHostLocalDisk }> {
  const name = localDiskDatabaseName(`checkpoint-playground/digest-${++databases}/checkpoints`, HOST);
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory: false });
  const encoded = encodeTaskStateSnapshot(twoKeyGroupSnapshot('local'));
  const checksum = checksumOf === 'xxh64' ? (await localCopyChecksum(encoded)).checksum : sha256(encoded);
  disk.storeEncoded(KEY, 4, encoded, { bytes: 2 * KG, checksum, checksumOf });
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

describe('a live TaskManager’s local copy is checked by its XXH64 checksum', () => {
  it('checksums bytes as XXH64 (seed 0), hex: xxHash’s own test vectors, and the same across 1 MiB chunks', async () => {
    expect(await localCopyXxh64(new Uint8Array(0))).toBe('ef46db3751d8e999');
    expect(await localCopyXxh64(new TextEncoder().encode('abc'))).toBe('44bc2cf5ad770999');
    const large = Uint8Array.from({ length: 3 * (1 << 20) + 17 }, (_, i) => (i * 2654435761) >>> 24);
    const checksum = await localCopyXxh64(large);
    expect(checksum).toMatch(/^[0-9a-f]{16}$/);
    large[2 * (1 << 20) + 5]! ^= 1;
    expect(await localCopyXxh64(large)).not.toBe(checksum);
  });

  it('writes XXH64, whether or not the page is a secure context (Web Crypto is not needed)', async () => {
    const bytes = encodeTaskStateSnapshot(twoKeyGroupSnapshot('local'));
    const expected = { checksum: await localCopyXxh64(bytes), checksumOf: 'xxh64' };
    expect(await localCopyChecksum(bytes)).toEqual(expected);
    vi.stubGlobal('crypto', {});
    try {
      expect(await localCopyChecksum(bytes)).toEqual(expected);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('restores from a copy whose bytes match their checksum, reading nothing remotely', async () => {
    for (const checksumOf of ['xxh64', 'sha-256'] as const) {
      const { name, disk } = await diskWithDigestedCopy(checksumOf);
      await disk.persistence.close();
      const stored = (await (await openDB(name)).get('copies', PATH)) as StoredLocalCopy;
      expect(stored.checksumOf).toBe(checksumOf);
      const read = await readTaskRestore(handles, { local: new IndexedDbLocalDiskStore(name), remote: await remoteStorage() });
      if ('error' in read) throw new Error(read.error);
      expect(restoredValues(read.restore)).toEqual(['local@100', 'local@3']);
      expect(read).toMatchObject({ source: 'local', remoteBytes: 0 });
    }
  });

  it('does not trust a SHA-256 copy where Web Crypto is missing, and restores from remote storage (corrupt)', async () => {
    const { name, disk } = await diskWithDigestedCopy('sha-256');
    await disk.persistence.close();
    vi.stubGlobal('crypto', {});
    try {
      const read = await readTaskRestore(handles, { local: new IndexedDbLocalDiskStore(name), remote: await remoteStorage() });
      if ('error' in read) throw new Error(read.error);
      expect(restoredValues(read.restore)).toEqual(['remote@100', 'remote@3']);
      expect(read).toMatchObject({ source: 'remote', reason: 'corrupt' });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it.each(['xxh64', 'sha-256'] as const)('finds one damaged byte by the checksum (%s) and restores from remote storage instead (corrupt)', async (checksumOf) => {
    const { name, disk } = await diskWithDigestedCopy(checksumOf);
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

  it.each(['xxh64', 'sha-256'] as const)('is not trusted by a reader that cannot check the checksum (%s) synchronously (the JobManager’s own reload)', async (checksumOf) => {
    const { disk } = await diskWithDigestedCopy(checksumOf);
    await disk.reload();
    const copy = disk.retrieve(KEY, 4)!;
    expect(copy.path).toBe(PATH);
    expect(verifyLocalCopy(copy)).toBe(false);
  });
});

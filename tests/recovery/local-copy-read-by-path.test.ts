/**
 * A TaskManager's read of one of its own task-local copies by path (`readLocalCopy`, over
 * IndexedDbLocalDiskStore.readCopy; fake-indexeddb here): it gets exactly that copy and the runs it
 * references, not the other copies and runs on the host's disk, each checked against the checksum
 * it was written with, so the worker itself can tell a missing, damaged or intact copy apart, as
 * Flink's task reads its own local state.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { fnv1a32Bytes } from '../../engine/recovery/checksum.ts';
import { localCopyPath, verifyLocalCopy, withoutRunContents } from '../../engine/recovery/host-local-disk.ts';
import type { StoredLocalCopy, StoredLocalRun } from '../../engine/recovery/local-disk-store.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { encodeSharedFile, encodeTaskStateSnapshot } from '../../engine/storage/snapshot-codec.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName, readLocalCopy } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { localCopyChecksum, localCopyXxh64 } from '../../workers/local-copy-digest.ts';
import { MiB, keyOf, snapshot } from './local-state-fixtures.ts';

const HOST = 'host-0';
const KEY = keyOf('tm-0/slot-0');
const OTHER = keyOf('tm-0/slot-1', 'count', 1);
let databases = 0;

function freshName(): string {
  return localDiskDatabaseName(`checkpoint-playground/read-by-path-${++databases}/checkpoints`, HOST);
}

/** An incremental snapshot of `runs` (1 MiB each), every run with its contents. */
function incremental(checkpointId: number, runs: string[]): TaskStateSnapshot {
  return {
    subtask: { ...KEY.subtask },
    keyedState: { incremental: { checkpointId, runs } },
    sharedFiles: runs.map((name) => ({ name, sizeBytes: MiB, contents: { run: name, blocks: [`data of ${name}`] } })),
    stateSize: runs.length * MiB,
    checkpointedSize: runs.length * MiB,
  };
}

/**
 * The live JobManager's disk (contents in the database only) with copies as the TaskManagers send
 * them, encoded: checkpoint 2 of KEY with runs a, b, c, and checkpoint 2 of another subtask. The
 * runs' checksums are FNV-1a of their bytes, or their XXH64 as live TaskManagers now send them.
 */
async function hostDisk(runChecksums: 'bytes' | 'xxh64' = 'bytes'): Promise<string> {
  const name = freshName();
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory: false });
  const snap = incremental(2, ['a', 'b', 'c']);
  const encoded = encodeTaskStateSnapshot(withoutRunContents(snap));
  const newRuns = await Promise.all(
    snap.sharedFiles!.map(async (f) => {
      const bytes = encodeSharedFile(f.name, f.contents);
      const checksum = runChecksums === 'xxh64' ? await localCopyChecksum(bytes) : { checksum: fnv1a32Bytes(bytes) };
      return { name: f.name, bytes: f.sizeBytes, encoded: bytes, ...checksum };
    }),
  );
  disk.storeEncoded(KEY, 2, encoded, { bytes: snap.stateSize, checksum: fnv1a32Bytes(encoded), runs: snap.sharedFiles!, newRuns });
  disk.store(OTHER, 2, snapshot(2, MiB, 'count', 1));
  await disk.persisted();
  await disk.persistence.close();
  return name;
}

async function rewrite<T extends { path: string }>(name: string, store: 'copies' | 'runs', path: string, change: (record: T) => T): Promise<void> {
  const db = await openDB(name);
  try {
    await db.put(store, change((await db.get(store, path)) as T), path);
  } finally {
    db.close();
  }
}

const flipLastByte = (bytes: Uint8Array) => bytes.map((b, i) => (i === bytes.length - 1 ? b ^ 0xff : b));

/** Where run `run` of KEY's copies is on the disk. */
const runPath = (run: string) => `${localCopyPath(KEY, 2).replace(/chk_2$/, '')}shared/${run}`;

/** KEY's copy of checkpoint 2 read back once run b's last byte was damaged on the disk: the copy and runs a and c verify, b does not. */
async function readWithRunBDamaged(name: string) {
  await rewrite<StoredLocalRun>(name, 'runs', runPath('b'), (r) => ({ ...r, contents: flipLastByte(r.contents) }));
  const read = await readLocalCopy(new IndexedDbLocalDiskStore(name), localCopyPath(KEY, 2));
  expect(verifyLocalCopy(read!.copy)).toBe(true);
  expect(read!.runs.map((r) => [r.name, r.verifiedOnRead])).toEqual([
    ['a', true],
    ['b', false],
    ['c', true],
  ]);
  return read!;
}

describe('a TaskManager reads its own local copy by path', () => {
  it('gets exactly that copy and its runs, decoded and verified against their checksums', async () => {
    const name = await hostDisk();
    const read = await readLocalCopy(new IndexedDbLocalDiskStore(name), localCopyPath(KEY, 2));
    expect(read).toBeDefined();
    expect(read!.copy.path).toBe(localCopyPath(KEY, 2));
    expect(read!.copy.snapshot.keyedState).toEqual({ incremental: { checkpointId: 2, runs: ['a', 'b', 'c'] } });
    expect(verifyLocalCopy(read!.copy)).toBe(true);
    expect(read!.runs.map((r) => [r.name, r.contents, r.verifiedOnRead])).toEqual(
      ['a', 'b', 'c'].map((n) => [n, { run: n, blocks: [`data of ${n}`] }, true]),
    );
  });

  it('reads nothing for a path the disk does not hold (the copy is missing: the restore reads it remotely)', async () => {
    const name = await hostDisk();
    expect(await readLocalCopy(new IndexedDbLocalDiskStore(name), localCopyPath(KEY, 1))).toBeUndefined();
  });

  it('returns a copy whose bytes were damaged on the disk as one that fails verification, with why', async () => {
    const name = await hostDisk();
    await rewrite<StoredLocalCopy>(name, 'copies', localCopyPath(KEY, 2), (r) => ({ ...r, snapshot: flipLastByte(r.snapshot) }));
    const read = await readLocalCopy(new IndexedDbLocalDiskStore(name), localCopyPath(KEY, 2));
    expect(verifyLocalCopy(read!.copy)).toBe(false);
    expect(read!.copy.snapshot.keyedState).toEqual({ unreadable: 'its bytes do not match their checksum' });
  });

  it('returns a damaged run as one that fails verification and the intact runs as verified', async () => {
    await readWithRunBDamaged(await hostDisk());
  });

  it('checks the runs a TaskManager sent with their XXH64 itself: intact ones verified and decoded, a damaged one failing verification', async () => {
    const name = await hostDisk('xxh64');
    const db = await openDB(name);
    const stored = (await db.get('runs', runPath('a'))) as StoredLocalRun;
    db.close();
    // stored as the TaskManager computed it: the JobManager does not checksum the bytes again
    expect(stored).toMatchObject({ checksumOf: 'xxh64', checksum: await localCopyXxh64(stored.contents) });
    const read = await readWithRunBDamaged(name);
    expect(read.runs[0]!.contents).toEqual({ run: 'a', blocks: ['data of a'] });
    expect(read.runs[1]!.contents).toEqual({ unreadable: 'its bytes do not match their XXH64 checksum' });
  });

  it('does not trust XXH64 runs where reading must be synchronous (the JobManager’s own reload)', async () => {
    const name = await hostDisk('xxh64');
    const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory: false });
    await disk.reload();
    expect(disk.runsOf(KEY).map((r) => [r.name, r.verifiedOnRead])).toEqual([
      ['a', false],
      ['b', false],
      ['c', false],
    ]);
    await disk.persistence.close();
  });

  it('leaves out a referenced run the disk no longer holds', async () => {
    const name = await hostDisk();
    const db = await openDB(name);
    await db.delete('runs', runPath('c'));
    db.close();
    const read = await readLocalCopy(new IndexedDbLocalDiskStore(name), localCopyPath(KEY, 2));
    expect(read!.copy.runs).toEqual(['a', 'b', 'c']);
    expect(read!.runs.map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('reads another subtask’s copy on the same disk only by its own path', async () => {
    const name = await hostDisk();
    const store = new IndexedDbLocalDiskStore(name);
    const other = await readLocalCopy(store, localCopyPath(OTHER, 2));
    expect(other!.copy.snapshot).toEqual(snapshot(2, MiB, 'count', 1));
    expect(other!.runs).toEqual([]);
  });
});

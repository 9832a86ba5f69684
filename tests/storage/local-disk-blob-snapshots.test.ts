/**
 * The host disk's IndexedDB store keeps a large copy's snapshot as a Blob (read back straight from
 * the file Chromium keeps it in, rather than deserialized whole inside the `get`), a small one as
 * bytes; either way a copy reads back byte for byte, through `read` and `readCopy`, and a copy
 * written before (a large Uint8Array value) still reads.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { StoredLocalCopy } from '../../engine/recovery/local-disk-store.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';

let databases = 0;
const freshName = () => localDiskDatabaseName(`checkpoint-playground/blob-snapshots-${++databases}/checkpoints`, 'host-0');

function copy(path: string, size: number): StoredLocalCopy {
  const snapshot = new Uint8Array(size);
  for (let i = 0; i < size; i++) snapshot[i] = (i * 31 + size) & 255;
  const key = { jobId: 'j', allocationId: 'tm-0/slot-0', subtask: { vertexId: 'count', subtaskIndex: 0 } };
  return { path, key, checkpointId: 1, bytes: size, checksum: 'c', checksumOf: 'bytes', complete: true, snapshot } as StoredLocalCopy;
}

/** What the database holds for `path`, as IndexedDB gives it back. */
async function rawValue(name: string, path: string): Promise<{ snapshot: unknown }> {
  const db = await openDB(name);
  try {
    return (await db.get('copies', path)) as { snapshot: unknown };
  } finally {
    db.close();
  }
}

describe('snapshots on the host disk', () => {
  it('stores a copy over 64 KiB as a Blob and one at most 64 KiB as bytes, and reads both back byte for byte', async () => {
    const name = freshName();
    const store = new IndexedDbLocalDiskStore(name);
    const large = copy('a/chk_1', 64 * 1024 + 1);
    const small = copy('b/chk_1', 64 * 1024);
    await store.apply({ put: [large, small] });
    await store.close();
    expect((await rawValue(name, 'a/chk_1')).snapshot).toBeInstanceOf(Blob);
    expect((await rawValue(name, 'b/chk_1')).snapshot).toBeInstanceOf(Uint8Array);

    const again = new IndexedDbLocalDiskStore(name);
    const byPath = await again.readCopy('a/chk_1');
    expect(byPath!.copy.snapshot).toEqual(large.snapshot);
    const all = await again.read();
    expect(new Map(all.copies.map((c) => [c.path, c.snapshot]))).toEqual(new Map([['a/chk_1', large.snapshot], ['b/chk_1', small.snapshot]]));
    await again.destroy();
  });

  it('keeps a large copy a Blob when a damaged handle patches its record, and reads a copy stored as bytes before', async () => {
    const name = freshName();
    const store = new IndexedDbLocalDiskStore(name);
    const large = copy('a/chk_1', 200_000);
    await store.apply({ put: [large] });
    await store.apply({ patch: [{ path: 'a/chk_1', complete: false, bytes: 100_000, keyGroupHandles: [] }] });
    expect((await rawValue(name, 'a/chk_1')).snapshot).toBeInstanceOf(Blob);
    const patched = (await store.readCopy('a/chk_1'))!.copy;
    expect([patched.complete, patched.bytes, patched.snapshot]).toEqual([false, 100_000, large.snapshot]);
    await store.close();

    const db = await openDB(name);
    const older = copy('c/chk_1', 300_000);
    await db.put('copies', older, older.path);
    db.close();
    const again = new IndexedDbLocalDiskStore(name);
    expect((await again.readCopy('c/chk_1'))!.copy.snapshot).toEqual(older.snapshot);
    await again.destroy();
  });
});

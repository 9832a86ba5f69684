/**
 * The rocksdb working database where the browser has no OPFS: wa-sqlite's synchronous build over
 * IndexedDbMirroredVfs, on IndexedDB (fake-indexeddb). The LSM run store writes through SQLite's
 * raw exports without waiting; what it wrote is in IndexedDB once `flushed()` resolves and reads
 * back in a new VFS; a directory's databases are deleted with it, a sibling's stay; a write
 * IndexedDB refuses fails the database's next write, as a failed disk fails RocksDB.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as SQLite from '@journeyapps/wa-sqlite';
import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import { describe, expect, it, vi } from 'vitest';
import type { SqliteWasmModule } from '../../engine/state/lsm/sqlite-wasm-module.ts';
import { WaSqliteRunStore } from '../../engine/state/lsm/wa-sqlite-run-store.ts';
import { deleteMirroredDatabasesUnder, IndexedDbMirroredVfs } from '../../workers/storage/indexeddb-mirrored-vfs.ts';

const require = createRequire(import.meta.url);
const wasmBinary = readFileSync(require.resolve('@journeyapps/wa-sqlite/dist/wa-sqlite.wasm'));

async function openStore(path: string): Promise<{ store: WaSqliteRunStore; vfs: IndexedDbMirroredVfs; close(): Promise<void> }> {
  const module = (await SQLiteESMFactory({ wasmBinary })) as SqliteWasmModule;
  const sqlite3 = SQLite.Factory(module);
  const vfs = await IndexedDbMirroredVfs.create(path, module, path);
  sqlite3.vfs_register(vfs as unknown as SQLiteVFS, true);
  const db = await sqlite3.open_v2('rocksdb.db', SQLite.SQLITE_OPEN_CREATE | SQLite.SQLITE_OPEN_READWRITE, vfs.name);
  const store = new WaSqliteRunStore(module, db, { tablePrefix: 'lsm_count_' });
  return {
    store,
    vfs,
    close: async () => {
      store.close();
      await sqlite3.close(db);
      await vfs.close();
    },
  };
}

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name ?? '').sort();
}

const DIR = 'checkpoint-playground-live/run-1/checkpoints/hosts/host-0/tm-0';

describe('rocksdb working databases in IndexedDB (no OPFS)', () => {
  it('keeps what the LSM store wrote synchronously in IndexedDB, and reads it back in a new VFS', async () => {
    const path = `${DIR}/incarnation-1/attempt-0`;
    const first = await openStore(path);
    // A run bigger than one mirrored block, written without awaiting anything.
    const blocks = Array.from({ length: 40 }, (_, i) => `block-${i}-`.padEnd(8_000, String.fromCharCode(97 + (i % 26))));
    first.store.beginBatch();
    first.store.createRun(7);
    blocks.forEach((data, i) => first.store.writeBlock(7, i, data));
    first.store.commitBatch();
    await first.vfs.flushed();
    await first.close();

    const second = await openStore(path);
    expect(second.store.listRuns()).toEqual([7]);
    expect(blocks.map((_, i) => second.store.readBlock(7, i))).toEqual(blocks);
    await second.close();
    await deleteMirroredDatabasesUnder(DIR);
  });

  it('deletes the databases of a directory and everything under it, keeping the one asked for and the siblings', async () => {
    for (const path of [`${DIR}/incarnation-1/attempt-0`, `${DIR}/incarnation-2/attempt-0`, `${DIR}-other/incarnation-1/attempt-0`]) {
      const { store, vfs, close } = await openStore(path);
      store.createRun(1);
      await vfs.flushed();
      await close();
    }
    await deleteMirroredDatabasesUnder(DIR, `${DIR}/incarnation-2`);
    expect(await databaseNames()).toEqual([`${DIR}-other/incarnation-1/attempt-0`, `${DIR}/incarnation-2/attempt-0`].sort());
    await deleteMirroredDatabasesUnder(DIR);
    await deleteMirroredDatabasesUnder(`${DIR}-other`);
    expect(await databaseNames()).toEqual([]);
  });

  it('fails the next write with a disk I/O error after IndexedDB refused one (quota exceeded)', async () => {
    const path = `${DIR}/incarnation-3/attempt-0`;
    const { store, vfs, close } = await openStore(path);
    store.createRun(1);
    await vfs.flushed();
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const put = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw quota;
    });
    try {
      store.writeBlock(1, 0, 'x'.repeat(70_000));
      await expect(vfs.flushed()).rejects.toBe(quota);
    } finally {
      put.mockRestore();
    }
    // SQLITE_IOERR_WRITE, which SQLite reports as SQLITE_IOERR: the LSM store throws, so the task fails and the job fails over.
    expect(() => store.writeBlock(1, 1, 'y'.repeat(70_000))).toThrow(/sqlite error 10 \(disk I\/O error\)/);
    await close().catch(() => undefined);
    await deleteMirroredDatabasesUnder(DIR);
  });
});

import * as SQLite from '@journeyapps/wa-sqlite';
import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import wasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import { MemoryVFS } from '@journeyapps/wa-sqlite/src/examples/MemoryVFS.js';
import type { SqliteWasmModule } from '../../../engine/state/lsm/sqlite-wasm-module.ts';
import { backendTablePrefix, WaSqliteRunStore } from '../../../engine/state/lsm/wa-sqlite-run-store.ts';
import { lsmStorageFactory, type LsmStorageFactory } from '../../../engine/state/lsm/lsm-storage-factory.ts';

let loading: Promise<LsmStorageFactory> | undefined;

/**
 * wa-sqlite for the page's simulator (state.backend.type: rocksdb): the synchronous build (the
 * LSM backend calls it while processing records), with wa-sqlite's MemoryVFS, one database and
 * one set of tables per backend instance. Loaded once, on first need.
 */
export function browserLsmStorage(): Promise<LsmStorageFactory> {
  loading ??= open();
  return loading;
}

async function open(): Promise<LsmStorageFactory> {
  const module = (await SQLiteESMFactory({ locateFile: () => wasmUrl })) as SqliteWasmModule;
  const sqlite3 = SQLite.Factory(module);
  // wa-sqlite's typings still describe the old VFS.Base example; the class has a static create().
  const create = (MemoryVFS as unknown as { create(name: string, module: unknown): Promise<SQLiteVFS> }).create;
  sqlite3.vfs_register(await create.call(MemoryVFS, 'playground-state', module), true);
  const db = await sqlite3.open_v2('playground-state.db');
  // One set of tables per backend instance, not per backend name: the page runs several
  // simulations of one job at once (a run and its failure-free reference, compare mode's two
  // sides), whose backends have the same names and would otherwise write the same run ids.
  let stores = 0;
  return lsmStorageFactory((backendName) => new WaSqliteRunStore(module, db, { tablePrefix: backendTablePrefix(`lsm${++stores}`, backendName) }));
}

/**
 * wa-sqlite inside a TaskManager worker, for `state.backend.type: rocksdb`: the synchronous build
 * (the LSM backend calls it while processing records) with wa-sqlite's MemoryVFS, one database
 * per TaskManager process and one set of tables per backend. The working database lives in the
 * worker's memory, so it dies with the worker, like the RocksDB instances of a dead TaskManager;
 * what survives is in checkpoint storage and on the host's local disk.
 */
import * as SQLite from '@journeyapps/wa-sqlite';
import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import wasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import { MemoryVFS } from '@journeyapps/wa-sqlite/src/examples/MemoryVFS.js';
import type { SqliteWasmModule } from '../engine/state/lsm/sqlite-wasm-module.ts';
import { WaSqliteRunStore } from '../engine/state/lsm/wa-sqlite-run-store.ts';
import type { LsmStorageFactory } from '../engine/state/state-backend-factory.ts';

export async function openTaskManagerLsmStorage(): Promise<LsmStorageFactory> {
  const module = (await SQLiteESMFactory({ locateFile: () => wasmUrl })) as SqliteWasmModule;
  const sqlite3 = SQLite.Factory(module);
  // wa-sqlite's typings still describe the old VFS.Base example; the class has a static create().
  const create = (MemoryVFS as unknown as { create(name: string, module: unknown): Promise<SQLiteVFS> }).create;
  sqlite3.vfs_register(await create.call(MemoryVFS, 'task-manager-state', module), true);
  const db = await sqlite3.open_v2('task-manager-state.db');
  return (backendName) => new WaSqliteRunStore(module, db, { tablePrefix: `lsm_${backendName.replace(/[^A-Za-z0-9_]/g, '_')}_` });
}

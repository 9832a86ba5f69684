import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as SQLite from '@journeyapps/wa-sqlite';
import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import { MemoryVFS } from '@journeyapps/wa-sqlite/src/examples/MemoryVFS.js';
import type { SqliteWasmModule } from '../state/lsm/sqlite-wasm-module.ts';
import { backendTablePrefix, WaSqliteRunStore } from '../state/lsm/wa-sqlite-run-store.ts';
import { lsmStorageFactory, type LsmStorageFactory } from '../state/lsm/lsm-storage-factory.ts';

/**
 * Loads wa-sqlite for Node tests and benchmarks: the synchronous build (no Asyncify), with the
 * wasm bytes read from node_modules because emscripten's glue cannot fetch `file://` in Node.
 * The browser loader is separate (it passes `locateFile` instead of `wasmBinary`).
 */
export interface NodeSqlite {
  module: SqliteWasmModule;
  /** wa-sqlite's own API, for setup only (its step/reset return Promises, so hot paths avoid it) */
  sqlite3: SQLiteAPI;
  /** Opens another database on the same module and returns its handle. */
  open(name: string): Promise<number>;
}

export type NodeSqliteVfs = 'memory-vfs' | ':memory:';

const require = createRequire(import.meta.url);
let wasmBinary: Buffer | undefined;
let vfsCounter = 0;

/**
 * A fresh sqlite module. `memory-vfs` registers wa-sqlite's MemoryVFS (a JS VFS, as the browser's
 * OPFS and IndexedDB VFSes are) as the default; `:memory:` uses SQLite's built-in in-memory
 * database and no JS VFS at all.
 */
export async function loadNodeSqlite(vfs: NodeSqliteVfs = 'memory-vfs'): Promise<NodeSqlite> {
  wasmBinary ??= readFileSync(require.resolve('@journeyapps/wa-sqlite/dist/wa-sqlite.wasm'));
  const module = (await SQLiteESMFactory({ wasmBinary })) as SqliteWasmModule;
  const sqlite3 = SQLite.Factory(module);
  if (vfs === 'memory-vfs') {
    // wa-sqlite's typings still describe the old VFS.Base example; the class has a static create().
    const create = (MemoryVFS as unknown as { create(name: string, module: unknown): Promise<SQLiteVFS> }).create;
    sqlite3.vfs_register(await create.call(MemoryVFS, `mem-${++vfsCounter}`, module), true);
  }
  const open = async (name: string) => sqlite3.open_v2(vfs === ':memory:' ? ':memory:' : name);
  return { module, sqlite3, open };
}

/** A module with one open database, the usual test setup. */
export async function openNodeDatabase(
  vfs: NodeSqliteVfs = 'memory-vfs',
): Promise<{ module: SqliteWasmModule; db: number; sqlite3: SQLiteAPI }> {
  const sqlite = await loadNodeSqlite(vfs);
  return { module: sqlite.module, sqlite3: sqlite.sqlite3, db: await sqlite.open('lsm-state.db') };
}

/**
 * Storage for every rocksdb backend of one run: one wa-sqlite database (MemoryVFS), one set of
 * tables per backend, as RocksDB gives each operator instance its own directory.
 */
export async function nodeLsmStorage(): Promise<LsmStorageFactory> {
  const { module, db } = await openNodeDatabase('memory-vfs');
  return lsmStorageFactory((backendName) => new WaSqliteRunStore(module, db, { tablePrefix: backendTablePrefix('lsm', backendName) }));
}

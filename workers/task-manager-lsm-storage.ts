/**
 * wa-sqlite inside a TaskManager worker, for `state.backend.type: rocksdb`: the synchronous build
 * (the LSM backend calls it while processing records), one database per execution attempt, one
 * set of tables per backend, on the host's disk: an OPFS directory under the TaskManager's
 * `state.backend.rocksdb.localdir` (workers/storage/rocksdb-local-dir.ts). As with RocksDB, the
 * working state can outgrow memory; what a restore reads is in checkpoint storage and in the
 * task-local copies, never in a working directory.
 *
 * The VFS is wa-sqlite's AccessHandlePoolVFS rather than OPFSCoopSyncVFS. Both are synchronous
 * and measured alike (toolchain-probe.md §3), but here each worker has exactly one connection to
 * its own database: the pool VFS is made for that (no Web Locks or BroadcastChannel hand-over of
 * access handles between connections, which OPFSCoopSyncVFS pays for on every lock), and it keeps
 * every file it uses, temporary ones included, in the one directory it is given, where
 * OPFSCoopSyncVFS puts a `.ahp-*` temporary directory at the OPFS root. So the attempt's instance
 * directory holds all of its state, and deleting it (cancel, lose-host, dispose) deletes all.
 * Where the browser has no OPFS the directories are IndexedDB databases instead
 * (workers/storage/indexeddb-mirrored-vfs.ts says why not wa-sqlite's own IndexedDB VFSes).
 */
import * as SQLite from '@journeyapps/wa-sqlite';
import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import wasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import { AccessHandlePoolVFS } from '@journeyapps/wa-sqlite/src/examples/AccessHandlePoolVFS.js';
import type { SqliteWasmModule } from '../engine/state/lsm/sqlite-wasm-module.ts';
import { RawSqliteConnection } from '../engine/state/lsm/raw-sqlite.ts';
import { backendTablePrefix, WaSqliteRunStore } from '../engine/state/lsm/wa-sqlite-run-store.ts';
import { lsmStorageFactory, type LsmStorageFactory } from '../engine/state/lsm/lsm-storage-factory.ts';
import { deleteMirroredDatabasesUnder, IndexedDbMirroredVfs } from './storage/indexeddb-mirrored-vfs.ts';
import { timeRestorePhase } from './restore-phase-measures.ts';
import { entriesOf, incarnationDir, instanceDir, openOpfsDirectory, opfsRoot, removeOpfsDirectory, removeOpfsEntry, type RocksDbLocalDir } from './storage/rocksdb-local-dir.ts';

/** The rocksdb working database of one execution attempt in this TaskManager. */
export interface WorkingLsmDatabase {
  readonly factory: LsmStorageFactory;
  /** its instance directory (OPFS path); undefined where it lives in memory (Node tests) */
  readonly path: string | undefined;
  /** bytes of the database file (SQLite's page count × page size) */
  bytes(): number;
  /** closes the database and deletes its instance directory (RocksDB disposes its instance dir) */
  dispose(): Promise<void>;
}

/** Opens the working database of `attempt` (after the predecessor's leftovers are gone). */
export type WorkingLsmDatabaseOpener = (attempt: number) => Promise<WorkingLsmDatabase>;

/** The VFS example classes have no typings in @journeyapps/wa-sqlite 2.0.6. */
type ClosableVfs = SQLiteVFS & { name: string; close(): Promise<void> };
const createPoolVfs = (AccessHandlePoolVFS as unknown as { create(directoryPath: string, module: unknown): Promise<ClosableVfs> }).create;

let loaded: Promise<{ module: SqliteWasmModule; sqlite3: SQLiteAPI }> | undefined;

function loadModule(): Promise<{ module: SqliteWasmModule; sqlite3: SQLiteAPI }> {
  loaded ??= (async () => {
    const module = (await SQLiteESMFactory({ locateFile: () => wasmUrl })) as SqliteWasmModule;
    return { module, sqlite3: SQLite.Factory(module) };
  })();
  return loaded;
}

/** A database alone in the OPFS directory `path`, on its own pool VFS; `close` releases its files (the directory stays). */
export function openPoolDatabase(path: string): Promise<WorkingDatabaseFile> {
  return openAlone((module) => createPoolVfs.call(AccessHandlePoolVFS, path, module));
}

/** One open working database: the wasm module, its handle, and how to close it and its VFS. */
type WorkingDatabaseFile = { module: SqliteWasmModule; db: number; close(): Promise<void> };

/** Opens `rocksdb.db` on a VFS of its own. */
async function openAlone(createVfs: (module: SqliteWasmModule) => Promise<ClosableVfs>): Promise<WorkingDatabaseFile> {
  const { module, sqlite3 } = await loadModule();
  const vfs = await createVfs(module);
  // At the head of SQLite's VFS list: a VFS of an earlier database at the same path (a redeployed
  // attempt) is shadowed, since VFS names are directory paths here.
  sqlite3.vfs_register(vfs, true);
  const db = await sqlite3.open_v2('rocksdb.db', SQLite.SQLITE_OPEN_CREATE | SQLite.SQLITE_OPEN_READWRITE, vfs.name);
  return {
    module,
    db,
    close: async () => {
      await sqlite3.close(db);
      await vfs.close();
    },
  };
}

/**
 * How a TaskManager's directories are kept in one store: open a database alone in an instance
 * directory, delete a directory, delete a TaskManager directory's entries but one.
 */
interface LocalDirDisk {
  open(path: string): Promise<WorkingDatabaseFile>;
  remove(path: string): Promise<void>;
  removeAllBut(taskManagerDir: string, own: string): Promise<void>;
}

const OPFS_DISK: LocalDirDisk = {
  open: openPoolDatabase,
  remove: removeOpfsDirectory,
  removeAllBut: async (taskManagerDir, own) => {
    // Without OPFS this throws, and the first open does again: nothing is opened.
    const tmDir = (await openOpfsDirectory(taskManagerDir, true))!;
    const stale: string[] = [];
    for await (const [name] of entriesOf(tmDir)) if (`${taskManagerDir}/${name}` !== own) stale.push(name);
    await Promise.all(stale.map((name) => removeOpfsEntry(tmDir, name)));
  },
};

const INDEXEDDB_DISK: LocalDirDisk = {
  open: openMirroredDatabase,
  remove: (path) => deleteMirroredDatabasesUnder(path),
  removeAllBut: (taskManagerDir, own) => deleteMirroredDatabasesUnder(taskManagerDir, own),
};

/** A database alone in the instance directory `path`, kept in IndexedDB (no OPFS). */
function openMirroredDatabase(path: string): Promise<WorkingDatabaseFile> {
  return openAlone(async (module) => (await IndexedDbMirroredVfs.create(path, module, path)) as unknown as ClosableVfs);
}

/**
 * The opener for this process. It empties the TaskManager's directory: the working databases of
 * a predecessor with the same id (a killed worker), which Flink would never reuse, and whatever an
 * earlier page left under this process's own name. The directories are in OPFS, or in IndexedDB
 * where the JobManager found no OPFS (`dir.store`); without either the deployment fails saying so.
 */
export function openTaskManagerLsmStorage(dir: RocksDbLocalDir | undefined): WorkingLsmDatabaseOpener {
  if (!dir) throw new Error('state.backend.type: rocksdb: this TaskManager was registered without state.backend.rocksdb.localdir');
  const disk = dir.store === 'indexeddb' ? INDEXEDDB_DISK : OPFS_DISK;
  // Fresh names make the predecessors' deletion tidiness, not a condition for running: it goes on
  // while this process opens its own (waiting for a killed worker's files to be released took a
  // replacement's restore 25–72 ms), and their files still locked after the wait stay for the next
  // process of this TaskManager, or for dispose.
  disk.removeAllBut(dir.taskManagerDir, incarnationDir(dir)).catch((error: unknown) => {
    console.warn(`${dir.taskManagerDir}: a predecessor's working database could not be deleted yet:`, error);
  });
  // Its own incarnation's directory is emptied first: a page before this one (reloaded, resuming the
  // run) may have left one of that name. Where that fails, the open says why.
  const cleared = disk.remove(incarnationDir(dir)).catch(() => undefined);
  // wasm compiled while the process starts, not inside its first deployment (a replacement
  // TaskManager's restore: 80 ms of it); a failure is the open's to report.
  loadModule().catch(() => undefined);
  const opened = new Set<number>();
  return async (attempt) => {
    const what = `${dir.taskManagerDir} attempt ${attempt}`;
    await timeRestorePhase("working database: its incarnation's directory emptied", what, () => cleared);
    if (disk === OPFS_DISK) await opfsRoot();
    const path = instanceDir(dir, attempt);
    // A retried deployment of an attempt this process opened starts from an empty directory; no
    // other attempt can have one (the incarnation's directory was emptied above), and making sure
    // walks eight directories, a round trip to the browser each (47–84 ms of a restore, measured).
    if (opened.has(attempt)) await disk.remove(path);
    opened.add(attempt);
    const { module: m, db, close } = await timeRestorePhase('working database: wa-sqlite opened', what, () => disk.open(path));
    const stores: WaSqliteRunStore[] = [];
    const sizes = new RawSqliteConnection(m, db);
    const pageCount = sizes.prepare('PRAGMA page_count');
    const pageSize = sizes.prepare('PRAGMA page_size');
    return {
      path,
      factory: lsmStorageFactory((backendName) => {
        const store = new WaSqliteRunStore(m, db, { tablePrefix: backendTablePrefix('lsm', backendName) });
        stores.push(store);
        return store;
      }),
      bytes: () => {
        pageCount.reset();
        pageSize.reset();
        return pageCount.step() && pageSize.step() ? pageCount.columnInt(0) * pageSize.columnInt(0) : 0;
      },
      dispose: async () => {
        for (const store of stores) store.close();
        sizes.close();
        await close();
        await disk.remove(path);
      },
    };
  };
}

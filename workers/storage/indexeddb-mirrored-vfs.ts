/**
 * `state.backend.rocksdb.localdir` where the browser has no Origin Private File System: a
 * synchronous wa-sqlite VFS whose files are held in memory and mirrored, block by block, into one
 * IndexedDB database per RocksDB instance directory (the database is named after the directory).
 *
 * Why not wa-sqlite's own IndexedDB VFSes: IDBBatchAtomicVFS and IDBMirrorVFS open, lock and
 * sync through Promises, so they need the Asyncify or JSPI build and wa-sqlite's Promise API. The
 * LSM backend drives the synchronous build through SQLite's raw exports while an operator
 * processes one record (engine/state/lsm/sqlite-wasm-module.ts): no VFS call may wait. So reads
 * are served from memory, like IDBMirrorVFS does, and every write reaches IndexedDB shortly after
 * the statement that made it, in order. A database is read back from IndexedDB when its VFS is
 * created. A write IndexedDB refuses (quota exceeded, storage cleared) fails the next write to
 * the database, as a failed disk fails RocksDB: the task fails and the job fails over.
 */
import { MemoryVFS } from '@journeyapps/wa-sqlite/src/examples/MemoryVFS.js';
import { deleteDB, openDB, type IDBPDatabase } from 'idb';

/** Bytes per stored block: SQLite's pages here are 16 KiB, so a block holds four. */
const BLOCK_BYTES = 64 * 1024;
const FILES = 'files';
const BLOCKS = 'blocks';
const SQLITE_OK = 0;
const SQLITE_IOERR_WRITE = 778;
const SQLITE_OPEN_DELETEONCLOSE = 0x00000008;

/** MemoryVFS's file record (src/examples/MemoryVFS.js). */
interface MemoryFile {
  pathname: string;
  flags: number;
  size: number;
  data: ArrayBuffer;
}

/** What MemoryVFS declares that this class uses; @journeyapps/wa-sqlite 2.0.6 has no typings for it. */
interface MemoryVfsBase {
  readonly name: string;
  mapNameToFile: Map<string, MemoryFile>;
  mapIdToFile: Map<number, MemoryFile>;
  jOpen(filename: string | null, fileId: number, flags: number, pOutFlags: DataView): number;
  jClose(fileId: number): number;
  jWrite(fileId: number, pData: Uint8Array, iOffset: number): number;
  jTruncate(fileId: number, iSize: number): number;
  jDelete(name: string, syncDir: number): number;
  isReady(): Promise<boolean>;
}
const MemoryVfsClass = MemoryVFS as unknown as new (name: string, module: unknown) => MemoryVfsBase;

/** A file's changes since they were last handed to IndexedDB. */
interface Dirty {
  blocks: Set<number>;
  truncated: boolean;
  deleted: boolean;
}

export class IndexedDbMirroredVfs extends MemoryVfsClass {
  readonly #db: IDBPDatabase;
  readonly #dirty = new Map<string, Dirty>();
  #writes: Promise<void> = Promise.resolve();
  #scheduled = false;
  /** the first write IndexedDB refused: every later write fails with it */
  #failure: unknown;

  /** The VFS named `vfsName` over the IndexedDB database `databaseName`, its files read back. */
  static async create(vfsName: string, module: unknown, databaseName: string): Promise<IndexedDbMirroredVfs> {
    const db = await openDB(databaseName, 1, {
      upgrade(d) {
        d.createObjectStore(FILES);
        d.createObjectStore(BLOCKS);
      },
    });
    const vfs = new IndexedDbMirroredVfs(vfsName, module, db);
    await vfs.isReady();
    await vfs.#load();
    return vfs;
  }

  private constructor(name: string, module: unknown, db: IDBPDatabase) {
    super(name, module);
    this.#db = db;
    // Another tab deleting the database (a sweep) must not wait for this connection.
    db.addEventListener('versionchange', () => db.close());
  }

  /** Resolves once every write made so far is in IndexedDB; rejects with the write it refused. */
  async flushed(): Promise<void> {
    await this.#writes;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Waits for the writes so far, then closes the IndexedDB connection. */
  async close(): Promise<void> {
    await this.#writes;
    this.#db.close();
  }

  override jWrite(fileId: number, pData: Uint8Array, iOffset: number): number {
    if (this.#failure !== undefined) return SQLITE_IOERR_WRITE;
    const rc = super.jWrite(fileId, pData, iOffset);
    const file = this.mapIdToFile.get(fileId)!;
    const dirty = this.#dirtyOf(file.pathname);
    for (let b = Math.floor(iOffset / BLOCK_BYTES); b * BLOCK_BYTES < iOffset + pData.byteLength; b++) dirty.blocks.add(b);
    return rc;
  }

  override jTruncate(fileId: number, iSize: number): number {
    const rc = super.jTruncate(fileId, iSize);
    const file = this.mapIdToFile.get(fileId)!;
    const dirty = this.#dirtyOf(file.pathname);
    dirty.truncated = true;
    // The block the new end falls in is rewritten short.
    if (iSize % BLOCK_BYTES !== 0) dirty.blocks.add(Math.floor(iSize / BLOCK_BYTES));
    return rc;
  }

  override jDelete(name: string, syncDir: number): number {
    const rc = super.jDelete(name, syncDir);
    this.#dirtyOf(new URL(name, 'file://').pathname).deleted = true;
    return rc;
  }

  override jClose(fileId: number): number {
    const file = this.mapIdToFile.get(fileId);
    const rc = super.jClose(fileId);
    if (file && file.flags & SQLITE_OPEN_DELETEONCLOSE) this.#dirtyOf(file.pathname).deleted = true;
    return rc;
  }

  #dirtyOf(pathname: string): Dirty {
    let dirty = this.#dirty.get(pathname);
    if (!dirty) {
      dirty = { blocks: new Set(), truncated: false, deleted: false };
      this.#dirty.set(pathname, dirty);
    }
    // After the statement that wrote: a batch of SQLite's writes goes in one transaction.
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#writes = this.#writes.then(() => {
        this.#scheduled = false;
        return this.#writeDirty();
      });
    }
    return dirty;
  }

  /** Hands the changes so far to one IndexedDB transaction (their bytes copied now, in order). */
  async #writeDirty(): Promise<void> {
    const changes = [...this.#dirty];
    this.#dirty.clear();
    if (this.#failure !== undefined || changes.length === 0) return;
    try {
      // A request IndexedDB refuses at once (it may throw instead of failing the request) aborts the lot.
      await this.#write(changes);
    } catch (error) {
      this.#failure ??= error;
      console.warn(`${this.name}: IndexedDB refused a write of the rocksdb working database:`, error);
    }
  }

  async #write(changes: ReadonlyArray<[string, Dirty]>): Promise<void> {
    const tx = this.#db.transaction([FILES, BLOCKS], 'readwrite');
    const files = tx.objectStore(FILES);
    const blocks = tx.objectStore(BLOCKS);
    const requests: Array<Promise<unknown>> = [];
    try {
      for (const [pathname, dirty] of changes) {
        const file = this.mapNameToFile.get(pathname);
        if (dirty.deleted || !file) {
          requests.push(files.delete(pathname), blocks.delete(IDBKeyRange.bound([pathname, 0], [pathname, Infinity])));
          if (!file) continue;
        }
        requests.push(files.put(file.size, pathname));
        const blockCount = Math.ceil(file.size / BLOCK_BYTES);
        if (dirty.truncated) requests.push(blocks.delete(IDBKeyRange.bound([pathname, blockCount], [pathname, Infinity])));
        for (const b of dirty.blocks) {
          if (b >= blockCount) continue;
          const end = Math.min((b + 1) * BLOCK_BYTES, file.size);
          requests.push(blocks.put(file.data.slice(b * BLOCK_BYTES, end), [pathname, b]));
        }
      }
    } catch (error) {
      tx.abort();
      await Promise.allSettled([...requests, tx.done]);
      throw error;
    }
    await Promise.all([...requests, tx.done]);
  }

  /** Reads every file of the database back into memory. */
  async #load(): Promise<void> {
    const tx = this.#db.transaction([FILES, BLOCKS], 'readonly');
    const names = (await tx.objectStore(FILES).getAllKeys()) as string[];
    for (const pathname of names) {
      const size = (await tx.objectStore(FILES).get(pathname)) as number;
      const data = new Uint8Array(Math.max(size, 1));
      let cursor = await tx.objectStore(BLOCKS).openCursor(IDBKeyRange.bound([pathname, 0], [pathname, Infinity]));
      for (; cursor; cursor = await cursor.continue()) {
        const block = (cursor.key as [string, number])[1];
        data.set(new Uint8Array(cursor.value as ArrayBuffer).subarray(0, Math.max(0, size - block * BLOCK_BYTES)), block * BLOCK_BYTES);
      }
      this.mapNameToFile.set(pathname, { pathname, flags: 0, size, data: data.buffer });
    }
    await tx.done;
  }
}

/**
 * Deletes the database of every instance directory at or under the directory `path` (all of a
 * host's, a TaskManager's or a whole run's), but those under `keep`.
 */
export async function deleteMirroredDatabasesUnder(path: string, keep?: string): Promise<void> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return;
  const under = (name: string, dir: string) => name === dir || name.startsWith(`${dir}/`);
  const names = (await indexedDB.databases()).flatMap(({ name }) => (name !== undefined && under(name, path) && !(keep !== undefined && under(name, keep)) ? [name] : []));
  await Promise.all(names.map((name) => deleteDB(name)));
}

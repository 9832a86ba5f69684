/**
 * Checkpoint storage in IndexedDB (through `idb`): one database per playground holds the
 * checkpoint directories of its jobs, keyed by full path, as Flink lays them out
 * (engine/storage/checkpoint-layout.ts). Runs in the page, in a worker, and in Node on
 * fake-indexeddb (import 'fake-indexeddb/auto' first).
 *
 * It lives under workers/, not engine/: the engine is compiled without the DOM and WebWorker
 * libraries (engine/tsconfig.json), which is where IDBFactory, IDBKeyRange and `indexedDB` are
 * declared, and the engine does no I/O of its own. The interface it implements is
 * engine/storage/checkpoint-storage.ts.
 *
 * Object stores:
 * - `files`: path → the file's bytes (Uint8Array)
 * - `dirs`: directory (the path up to and including its last '/') → Map of file name → size;
 *   `list` never loads file contents, and a write touches one record per directory, not per file
 * - `usage`: 'usage' → { fileCount, bytes } of the whole database, kept in the same transactions
 *
 * Every request is one IndexedDB transaction, so it is atomic: `writeCheckpoint` puts all files
 * or, on a fault, a quota overrun or a browser error, aborts and leaves nothing. The puts are
 * issued before the first `await`, so the bytes are cloned when the call is made (a caller may
 * reuse its buffer at once), exactly as the memory implementation copies them. A checkpoint of N
 * files in D directories costs N + 2D + 2 requests (raw puts: N).
 */
import { deleteDB, openDB, unwrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import {
  checkBytes,
  checkPath,
  checkQuota,
  exclusiveDirectoryPrefix,
  browserQuotaExceededError,
  injectedError,
  lastWriteWins,
  storageError,
  usageAfterWrite,
  type CheckpointFile,
  type CheckpointLocation,
  type CheckpointStorage,
  type CheckpointStorageOptions,
  type FaultInjector,
  type StorageError,
  type StoredFile,
  type StorageUsage,
} from '../../engine/storage/checkpoint-storage.ts';
import { normalizeDirectory } from '../../engine/storage/checkpoint-layout.ts';

/** file name → size in bytes */
type DirectoryEntries = Map<string, number>;

interface CheckpointDb extends DBSchema {
  files: { key: string; value: Uint8Array };
  dirs: { key: string; value: DirectoryEntries };
  usage: { key: string; value: StorageUsage };
}

type Stores = ('files' | 'dirs' | 'usage')[];
type WriteTx = IDBPTransaction<CheckpointDb, Stores, 'readwrite'>;

const DB_VERSION = 1;

const ABORTED = { name: 'AbortError', message: 'the IndexedDB transaction was aborted' };
const CLOSED_FOR_DELETION = 'the checkpoint database was closed: another tab or connection deletes it';
const CLOSED_FOR_UPGRADE = 'the checkpoint database was closed: another tab or connection upgrades it to a newer version';
const CLOSED_BY_BROWSER = 'the checkpoint database was closed by the browser (the storage was cleared or failed)';
const STORES: Stores = ['files', 'dirs', 'usage'];
const USAGE_KEY = 'usage';
const EMPTY_USAGE: StorageUsage = { fileCount: 0, bytes: 0 };

export { checkpointDatabaseName, LIVE_RUNS_ROOT, liveCheckpointDatabaseName } from './database-names.ts';

/** A live run's id: its start time and some randomness, so two tabs never share one. */
export function newLiveRunId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export interface IndexedDbCheckpointStorageOptions extends CheckpointStorageOptions {
  /** the database (one per playground: `checkpointDatabaseName(id)`) */
  databaseName: string;
}

/** Deletes a playground's database (connections of this module give way). */
export async function deleteCheckpointDatabase(databaseName: string): Promise<void> {
  await deleteDB(databaseName);
}

/** Keys starting with `prefix` ('' : every key). */
function prefixRange(prefix: string): IDBKeyRange | undefined {
  return prefix === '' ? undefined : IDBKeyRange.bound(prefix, `${prefix}\uffff`);
}

/** `a/b/c` → [`a/b/`, `c`]; a path without '/' lives in the directory ''. */
function splitPath(path: string): [string, string] {
  const slash = path.lastIndexOf('/');
  return [path.slice(0, slash + 1), path.slice(slash + 1)];
}

/** What IndexedDB stores without copying a larger buffer along (a view clones its whole buffer). */
function storable(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && Object.prototype.toString.call(bytes.buffer) === '[object ArrayBuffer]' ? bytes : bytes.slice();
}

/**
 * Marks a request's promise as handled at once: an aborted transaction rejects every pending
 * request (and `done`) while the code may be awaiting something else; it still sees the
 * rejection when it awaits the promise itself.
 */
function tracked<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * A failed transaction as IO_EXCEPTION. The transaction's own error is the root cause (a
 * request's error is often just "AbortError"); aborted without one (by a tab, a test, the
 * browser), later calls on it throw InvalidStateError, which would hide that it was aborted.
 * `error`: what was thrown, for a transaction that was not aborted.
 */
function transactionFailure(tx: IDBTransaction, path: string, op: 'write' | 'delete', error?: unknown): StorageError {
  const { name, message } = tx.error ? describeError(tx.error) : error === undefined ? ABORTED : describeError(error);
  if (name === 'QuotaExceededError') return browserQuotaExceededError(path, message);
  return storageError(path, `${name}: ${message}`, op);
}

function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error || (typeof DOMException !== 'undefined' && error instanceof DOMException)) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  return { name: 'Error', message: String(error) };
}

export class IndexedDbCheckpointStorage implements CheckpointStorage {
  readonly location: CheckpointLocation;
  readonly databaseName: string;
  readonly #db: IDBPDatabase<CheckpointDb>;
  /** the same connection without idb's proxies, for uploads */
  readonly #raw: IDBDatabase;
  readonly #root: string;
  readonly #injectFault: FaultInjector | undefined;
  #quotaBytes: number;
  #closed = false;
  /** why the browser or another connection closed the database under us, once it did */
  readonly #lost: { why?: string };
  /**
   * Sees every read-write transaction once its first requests are issued: a fault injector for
   * tests, which abort one for real (`tx.abort()`) in the middle of its request.
   */
  onReadWriteTransaction: ((tx: IDBTransaction) => void) | undefined;

  /** Opens (creating if needed) the playground's database. */
  static async open(options: IndexedDbCheckpointStorageOptions): Promise<IndexedDbCheckpointStorage> {
    // The connection may be lost before the storage object exists (blocking fires during open).
    const lost: { why?: string } = {};
    const db = await openDB<CheckpointDb>(options.databaseName, DB_VERSION, {
      upgrade(database) {
        for (const store of STORES) if (!database.objectStoreNames.contains(store)) database.createObjectStore(store);
      },
      // Another connection wants to delete or upgrade the database: let it. Every later request
      // of this one fails with a storage error that says so (never IndexedDB's InvalidStateError).
      blocking(_current, wanted) {
        lost.why = wanted === null ? CLOSED_FOR_DELETION : CLOSED_FOR_UPGRADE;
        db.close();
      },
      terminated() {
        lost.why = CLOSED_BY_BROWSER;
      },
    });
    return new IndexedDbCheckpointStorage(db, options, lost);
  }

  private constructor(db: IDBPDatabase<CheckpointDb>, options: IndexedDbCheckpointStorageOptions, lost: { why?: string }) {
    this.#db = db;
    this.#raw = unwrap(db);
    this.#lost = lost;
    this.databaseName = options.databaseName;
    this.location = { ...options.location };
    this.#root = normalizeDirectory(this.location.checkpointDir);
    this.#quotaBytes = options.quotaBytes ?? Infinity;
    checkQuota(this.#quotaBytes);
    this.#injectFault = options.injectFault;
  }

  get quotaBytes(): number {
    return this.#quotaBytes;
  }

  set quotaBytes(bytes: number) {
    checkQuota(bytes);
    this.#quotaBytes = bytes;
  }

  writeFile(path: string, bytes: Uint8Array): Promise<StorageError | undefined> {
    return this.#write([{ path, bytes }]);
  }

  async readFile(path: string): Promise<Uint8Array | undefined> {
    this.#readable();
    checkPath(path);
    const value: unknown = await this.#db.get('files', path);
    if (value === undefined) return undefined;
    if (value instanceof Uint8Array) return value;
    // A value cloned in another realm may come back as a view of another kind.
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    throw new Error(`the stored value of ${path} is not a byte array`);
  }

  async deleteFile(path: string): Promise<StorageError | undefined> {
    this.#open();
    checkPath(path);
    const fault = this.#injectFault?.({ op: 'delete', path });
    if (fault !== undefined) return injectedError(path, fault, 'delete');
    const [dir, name] = splitPath(path);
    if (this.#lost.why !== undefined) return storageError(path, this.#lost.why, 'delete');
    const tx = this.#writeTransaction();
    const dirRequest = tracked(tx.objectStore('dirs').get(dir));
    const usageRequest = tracked(tx.objectStore('usage').get(USAGE_KEY));
    const requests: Promise<unknown>[] = [dirRequest, usageRequest, tracked(tx.objectStore('files').delete(path))];
    this.onReadWriteTransaction?.(tx as unknown as IDBTransaction);
    try {
      const [entries, usage] = await Promise.all([dirRequest, usageRequest]);
      const old = entries?.get(name);
      if (entries && old !== undefined) {
        entries.delete(name);
        requests.push(tracked<unknown>(entries.size > 0 ? tx.objectStore('dirs').put(entries, dir) : tx.objectStore('dirs').delete(dir)));
        const u = usage ?? EMPTY_USAGE;
        requests.push(tracked(tx.objectStore('usage').put({ fileCount: u.fileCount - 1, bytes: u.bytes - old }, USAGE_KEY)));
      }
      await Promise.all([...requests, tx.done]);
      return undefined;
    } catch (error) {
      return this.#failed(tx, requests, error, path, 'delete');
    }
  }

  async list(prefix: string): Promise<StoredFile[]> {
    this.#readable();
    const tx = this.#db.transaction('dirs', 'readonly');
    const range = prefixRange(prefix);
    const [containing] = splitPath(prefix);
    const [dirs, entries, partial] = await Promise.all([
      tx.store.getAllKeys(range),
      tx.store.getAll(range),
      // the directory a partial name (`…/chk-1/op-`) lives in
      prefix === '' ? undefined : tx.store.get(containing),
      tx.done,
    ]);
    const listing = new Map<string, number>();
    const add = (dir: string, files: DirectoryEntries | undefined) => {
      for (const [name, size] of files ?? []) if (`${dir}${name}`.startsWith(prefix)) listing.set(`${dir}${name}`, size);
    };
    dirs.forEach((dir, i) => add(dir, entries[i]));
    add(containing, partial);
    return [...listing]
      .map(([path, sizeBytes]) => ({ path, sizeBytes }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  writeCheckpoint(_checkpointId: number, files: readonly CheckpointFile[]): Promise<StorageError | undefined> {
    return this.#write(files);
  }

  async discardCheckpoint(checkpointId: number): Promise<StorageError | undefined> {
    this.#open();
    const prefix = exclusiveDirectoryPrefix(this.location, checkpointId);
    const range = prefixRange(prefix)!;
    if (this.#lost.why !== undefined) return storageError(prefix, this.#lost.why, 'delete');
    const tx = this.#writeTransaction();
    const dirsRequest = tracked(tx.objectStore('dirs').getAllKeys(range));
    const entriesRequest = tracked(tx.objectStore('dirs').getAll(range));
    const usageRequest = tracked(tx.objectStore('usage').get(USAGE_KEY));
    const requests: Promise<unknown>[] = [dirsRequest, entriesRequest, usageRequest];
    this.onReadWriteTransaction?.(tx as unknown as IDBTransaction);
    try {
      const [dirs, entries, usage] = await Promise.all([dirsRequest, entriesRequest, usageRequest]);
      let freed = 0;
      let count = 0;
      for (let i = 0; i < dirs.length; i++) {
        for (const [name, size] of entries[i] ?? []) {
          const path = `${dirs[i]}${name}`;
          const fault = this.#injectFault?.({ op: 'delete', path });
          if (fault !== undefined) return await this.#abort(tx, requests, injectedError(path, fault, 'delete'));
          freed += size;
          count++;
        }
      }
      if (count > 0) {
        requests.push(tracked(tx.objectStore('files').delete(range)), tracked(tx.objectStore('dirs').delete(range)));
        const u = usage ?? EMPTY_USAGE;
        requests.push(tracked(tx.objectStore('usage').put({ fileCount: u.fileCount - count, bytes: u.bytes - freed }, USAGE_KEY)));
      }
      await Promise.all([...requests, tx.done]);
      return undefined;
    } catch (error) {
      return this.#failed(tx, requests, error, prefix, 'delete');
    }
  }

  async usage(): Promise<StorageUsage> {
    this.#readable();
    return (await this.#db.get('usage', USAGE_KEY)) ?? { ...EMPTY_USAGE };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  /**
   * One transaction: every put is issued now (cloning the bytes), the quota checked once the old
   * sizes are known. It speaks IndexedDB's own API, callbacks and one promise for the whole
   * transaction: a TaskManager uploads from the thread its tasks run on, and idb's proxies and a
   * promise per request cost that thread more than the requests themselves.
   */
  async #write(files: readonly CheckpointFile[]): Promise<StorageError | undefined> {
    this.#open();
    for (const f of files) {
      checkPath(f.path);
      checkBytes(f.bytes);
    }
    const sizes = lastWriteWins(files);
    const byDir = new Map<string, Array<[string, number]>>();
    for (const [path, size] of sizes) {
      const [dir, name] = splitPath(path);
      const list = byDir.get(dir) ?? [];
      list.push([name, size]);
      byDir.set(dir, list);
    }
    if (this.#lost.why !== undefined) return storageError(files[0]?.path ?? this.#root, this.#lost.why);
    const tx = this.#raw.transaction(STORES, 'readwrite');
    return new Promise<StorageError | undefined>((resolve) => {
      /** why this call rolled the transaction back itself (a fault, the quota) */
      let verdict: StorageError | undefined;
      let lastPath = files[0]?.path ?? this.#root;
      const rollBack = (error?: StorageError) => {
        verdict ??= error;
        try {
          tx.abort();
        } catch {
          // already finished or aborted
        }
      };
      // Both fire once every request of the transaction has settled.
      tx.oncomplete = () => resolve(undefined);
      tx.onabort = () => resolve(verdict ?? transactionFailure(tx, lastPath, 'write'));
      const dirsStore = tx.objectStore('dirs');
      const usageStore = tx.objectStore('usage');
      const usageRequest = usageStore.get(USAGE_KEY);
      const dirNames = [...byDir.keys()];
      const dirRequests = dirNames.map((dir) => dirsStore.get(dir));
      this.onReadWriteTransaction?.(tx);
      try {
        const filesStore = tx.objectStore('files');
        for (const f of files) {
          lastPath = f.path;
          const fault = this.#injectFault?.({ op: 'write', path: f.path });
          if (fault !== undefined) return rollBack(injectedError(f.path, fault));
          filesStore.put(storable(f.bytes), f.path);
        }
      } catch {
        // Aborted under us (a request then throws): the abort event says why, as for any abort.
        return rollBack();
      }
      let unread = 1 + dirRequests.length;
      const bookkeeping = () => {
        if (--unread > 0) return;
        const oldSizes = new Map<string, number | undefined>();
        for (const [path] of sizes) {
          const [dir, name] = splitPath(path);
          oldSizes.set(path, (dirRequests[dirNames.indexOf(dir)]!.result as DirectoryEntries | undefined)?.get(name));
        }
        const after = usageAfterWrite((usageRequest.result as StorageUsage | undefined) ?? EMPTY_USAGE, sizes, oldSizes, this.#quotaBytes, this.#root);
        if ('reason' in after) return rollBack(after);
        dirNames.forEach((dir, i) => {
          const entries = (dirRequests[i]!.result as DirectoryEntries | undefined) ?? new Map<string, number>();
          for (const [name, size] of byDir.get(dir)!) entries.set(name, size);
          dirsStore.put(entries, dir);
        });
        usageStore.put(after, USAGE_KEY);
      };
      usageRequest.onsuccess = bookkeeping;
      for (const request of dirRequests) request.onsuccess = bookkeeping;
    });
  }

  /** A read-write transaction over every store. */
  #writeTransaction(): WriteTx {
    const tx = this.#db.transaction(STORES, 'readwrite');
    tracked(tx.done);
    return tx;
  }

  /** Rolls the transaction back and waits until every request of it has settled. */
  async #abort(tx: WriteTx, requests: Promise<unknown>[], error: StorageError): Promise<StorageError> {
    try {
      tx.abort();
    } catch {
      // already finished or aborted
    }
    await Promise.allSettled(requests);
    await tx.done.catch(() => undefined);
    return error;
  }

  /** A request or the transaction failed: settle everything, then report why as IO_EXCEPTION. */
  async #failed(tx: WriteTx, requests: Promise<unknown>[], error: unknown, path: string, op: 'write' | 'delete'): Promise<StorageError> {
    await this.#abort(tx, requests, storageError(path, ''));
    const aborted = await tx.done.then(() => false, () => true);
    return transactionFailure(tx as unknown as IDBTransaction, path, op, aborted ? undefined : error);
  }

  #open(): void {
    if (this.#closed) throw new Error('the checkpoint storage is closed');
  }

  /** A closed store is a programming error; a connection lost to another tab is the storage's, and a read says so. */
  #readable(): void {
    this.#open();
    if (this.#lost.why !== undefined) throw new Error(`Could not read from the checkpoint storage ${this.databaseName}. Caused by: ${this.#lost.why}`);
  }
}

/**
 * A host's local disk in IndexedDB (through `idb`): one database per host, beside the
 * playground's checkpoint database (`<checkpoint database>/local-disk/<host>`).
 *
 * IndexedDB rather than an OPFS directory: the JobManager keeps each host's disk on the main
 * thread (it outlives the host's worker processes), where OPFS offers only its slower async API;
 * a batch (a copy, the pruning a confirmation causes, and the confirmation itself) commits in one
 * transaction, so a crash never leaves a confirmed store with its copy half-written; and the same
 * code runs in Node on fake-indexeddb, as the checkpoint storage does.
 *
 * Object stores: `copies` (path → StoredLocalCopy, a large snapshot as a Blob: asRecord), `runs` (path → StoredLocalRun: a shared run
 * of incremental copies, once per subtask store), `confirmations` (store directory →
 * StoredConfirmation).
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { HostLocalDisk, type LocalCopy, type LocalRun } from '../../engine/recovery/host-local-disk.ts';
import { localDiskDatabaseName } from './database-names.ts';
import type { LocalDiskBatch, LocalDiskStore, StoredConfirmation, StoredLocalCopy, StoredLocalRun } from '../../engine/recovery/local-disk-store.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { verifiedStoredCopy } from '../local-copy-digest.ts';
import { measureRestorePhase } from '../restore-phase-measures.ts';

/** A copy as the database holds it: a large snapshot as a Blob (see asRecord). */
type CopyRecord = Omit<StoredLocalCopy, 'snapshot'> & { snapshot: Uint8Array | Blob };

interface LocalDiskDb extends DBSchema {
  copies: { key: string; value: CopyRecord };
  runs: { key: string; value: StoredLocalRun };
  confirmations: { key: string; value: StoredConfirmation };
}

/** 2: the `runs` store */
const DB_VERSION = 2;

export { localDiskDatabaseName } from './database-names.ts';

export class IndexedDbLocalDiskStore implements LocalDiskStore {
  readonly name: string;
  readonly #db: Promise<IDBPDatabase<LocalDiskDb>>;
  /** why another connection or the browser closed the database under us, once it did */
  #lost: string | undefined;
  /** Sees every batch's transaction once its requests are issued: tests abort one for real (`tx.abort()`). */
  onReadWriteTransaction: ((tx: IDBTransaction) => void) | undefined;

  constructor(databaseName: string) {
    this.name = databaseName;
    this.#db = openDB<LocalDiskDb>(databaseName, DB_VERSION, {
      upgrade(database) {
        if (!database.objectStoreNames.contains('copies')) database.createObjectStore('copies');
        if (!database.objectStoreNames.contains('runs')) database.createObjectStore('runs');
        if (!database.objectStoreNames.contains('confirmations')) database.createObjectStore('confirmations');
      },
      // Another tab deletes or upgrades the database: let it, and say so on every later request.
      blocking: (_current, wanted) => {
        this.#lost = `the local disk database was closed: another tab or connection ${wanted === null ? 'deletes it' : 'upgrades it to a newer version'}`;
        void this.#db.then((db) => db.close());
      },
      terminated: () => {
        this.#lost = 'the local disk database was closed by the browser (the storage was cleared or failed)';
      },
    });
    this.#db.catch(() => undefined);
  }

  async apply(batch: LocalDiskBatch): Promise<void> {
    const db = await this.#connection();
    const tx = db.transaction(['copies', 'runs', 'confirmations'], 'readwrite');
    const copies = tx.objectStore('copies');
    const runs = tx.objectStore('runs');
    const confirmations = tx.objectStore('confirmations');
    const requests: Promise<unknown>[] = [];
    if (batch.clear) requests.push(copies.clear(), runs.clear(), confirmations.clear());
    // A path names a copy or a run (`…/shared/<name>`), never both.
    for (const path of batch.delete ?? []) requests.push(path.includes('/shared/') ? runs.delete(path) : copies.delete(path));
    for (const copy of batch.put ?? []) requests.push(copies.put(asRecord(copy), copy.path));
    for (const { path, ...change } of batch.patch ?? []) requests.push(copies.get(path).then((copy) => (copy ? copies.put({ ...copy, ...change }, path) : undefined)));
    for (const run of batch.putRuns ?? []) requests.push(runs.put(run, run.path));
    for (const c of batch.confirm ?? []) requests.push(confirmations.put(c, c.directory));
    this.onReadWriteTransaction?.(tx as unknown as IDBTransaction);
    try {
      await Promise.all([...requests, tx.done]);
    } catch (error) {
      // Every request of an aborted transaction rejects: the transaction's own error says why.
      await Promise.allSettled([...requests, tx.done]);
      throw tx.error ?? error;
    }
  }

  async read(): Promise<{ copies: StoredLocalCopy[]; confirmations: StoredConfirmation[]; runs: StoredLocalRun[] }> {
    const db = await this.#connection();
    const tx = db.transaction(['copies', 'runs', 'confirmations'], 'readonly');
    const [records, confirmations, runs] = await Promise.all([tx.objectStore('copies').getAll(), tx.objectStore('confirmations').getAll(), tx.objectStore('runs').getAll(), tx.done]);
    return { copies: await Promise.all(records.map(fromRecord)), confirmations, runs };
  }

  /**
   * One copy by its path (`…/chk_<id>`) and the shared runs it references, in one read-only
   * transaction, as they are stored (not verified): what a TaskManager reads of its host's disk to
   * restore, without the other copies and runs on it. Undefined when the disk holds no such copy; a
   * referenced run the disk lacks is not in `runs` (the restore reads it remotely).
   */
  async readCopy(path: string): Promise<{ copy: StoredLocalCopy; runs: StoredLocalRun[] } | undefined> {
    const db = await this.#connection();
    const tx = db.transaction(['copies', 'runs'], 'readonly');
    const record = await tx.objectStore('copies').get(path);
    // A copy's runs are in its store's directory: the path up to `/chk_<id>`.
    const directory = path.slice(0, path.lastIndexOf('/'));
    const runs = record ? await Promise.all((record.runs ?? []).map((name) => tx.objectStore('runs').get(`${directory}/shared/${name}`))) : [];
    await tx.done;
    // The Blob is read once the transaction is done: awaiting it inside would end the transaction.
    return record && { copy: await fromRecord(record), runs: runs.filter((r): r is StoredLocalRun => r !== undefined) };
  }

  /** The open connection, or a clear error once another tab or the browser took it (never IndexedDB's InvalidStateError). */
  async #connection(): Promise<IDBPDatabase<LocalDiskDb>> {
    const db = await this.#db;
    if (this.#lost !== undefined) throw new Error(`${this.#lost} (${this.name})`);
    return db;
  }

  async close(): Promise<void> {
    (await this.#db.catch(() => undefined))?.close();
  }

  async destroy(): Promise<void> {
    await this.close();
    await deleteDB(this.name);
  }
}

/**
 * Snapshots over this size go into the database as Blobs: Chromium keeps a large value in a file
 * either way, but a Blob comes back as a handle whose bytes are then read straight from that file,
 * where a Uint8Array value is deserialized whole inside the `get` (a 14 MB copy: 13–30 ms against
 * 31–76 ms, measured in a worker).
 */
const BLOB_THRESHOLD_BYTES = 64 * 1024;

function asRecord(copy: StoredLocalCopy): CopyRecord {
  if (typeof Blob === 'undefined' || copy.snapshot.byteLength <= BLOB_THRESHOLD_BYTES) return copy;
  return { ...copy, snapshot: new Blob([copy.snapshot as Uint8Array<ArrayBuffer>]) };
}

async function fromRecord(record: CopyRecord): Promise<StoredLocalCopy> {
  if (!(record.snapshot instanceof Blob)) return record as StoredLocalCopy;
  return { ...record, snapshot: new Uint8Array(await record.snapshot.arrayBuffer()) };
}

/**
 * A TaskManager's read of one of its own copies on its host's disk (`path`, as the JobManager's
 * listing named it), verified against the checksums it was written with (verifiedStoredCopy);
 * undefined when the disk does not hold it (gone since the listing: the restore reads it remotely, `missing`).
 * `storedBytes`: what was read off the disk, the copy's encoded bytes and its runs' (the copy's
 * `bytes` is its state's size, which the encoded files need not match).
 */
export async function readLocalCopy(store: IndexedDbLocalDiskStore, path: string): Promise<{ copy: LocalCopy; runs: LocalRun[]; storedBytes: number } | undefined> {
  const start = performance.now();
  const read = await store.readCopy(path);
  measureRestorePhase('host disk read', path, start);
  if (!read) return undefined;
  const storedBytes = read.runs.reduce((n, r) => n + r.contents.byteLength, read.copy.snapshot.byteLength);
  return { ...(await verifiedStoredCopy(read.copy, read.runs)), storedBytes };
}

/**
 * The local disk of `host` for a driver: persistent in IndexedDB where there is one (the
 * browser), the in-memory HostLocalDisk otherwise (Node). `contentsInMemory: false` (the live
 * JobManager) keeps only the copies' handles in memory, their bytes in the host's database; the
 * sim, which restores synchronously, keeps the contents in memory too (the default).
 */
export function openHostLocalDisk(host: string, checkpointDatabase: string, options: { contentsInMemory?: boolean } = {}): HostLocalDisk {
  if (typeof indexedDB === 'undefined') return new HostLocalDisk(host);
  return new PersistentHostLocalDisk(host, new IndexedDbLocalDiskStore(localDiskDatabaseName(checkpointDatabase, host)), {
    contentsInMemory: options.contentsInMemory ?? true,
    nextTask,
  });
}

/** A later task of the page: a copy is encoded there, not in the frame whose simulation step wrote it. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export { destroyLocalDisks, localDisksSettled } from './host-local-disks.ts';

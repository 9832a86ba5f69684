/**
 * A host's local disk in IndexedDB (through `idb`): one database per host, beside the
 * playground's checkpoint database (`<checkpoint database>/local-disk/<host>`).
 *
 * The records are in IndexedDB: the JobManager keeps each host's disk on the main thread (it
 * outlives the host's worker processes), and a batch (a copy, the pruning a confirmation causes,
 * and the confirmation itself) commits in one transaction, so a crash never leaves a confirmed
 * store with its copy half-written; the same code runs in Node on fake-indexeddb, as the
 * checkpoint storage does. A large copy's snapshot (over 64 KiB) is kept apart from its record: in
 * a file of the host's OPFS directory when the store was opened to write there (`files: true`, the
 * live JobManager's disks, and OPFS is there: local-copy-files.ts), else as a Blob in the database
 * (asRecord); a large shared run's contents go to a file likewise, else stay bytes.
 *
 * Object stores: `copies` (path → StoredLocalCopy, its snapshot as bytes, a Blob or a file's name),
 * `runs` (path → StoredLocalRun: a shared run of incremental copies, once per subtask store, its
 * contents as bytes or a file's name),
 * `confirmations` (store directory → StoredConfirmation).
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { HostLocalDisk, type LocalCopy, type LocalRun } from '../../engine/recovery/host-local-disk.ts';
import { localDiskDatabaseName } from './database-names.ts';
import type { LocalDiskBatch, LocalDiskStore, StoredConfirmation, StoredLocalCopy, StoredLocalRun } from '../../engine/recovery/local-disk-store.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { verifiedStoredCopy } from '../local-copy-digest.ts';
import { measureRestorePhase } from '../restore-phase-measures.ts';
import {
  isLocalCopyFileRef,
  localCopyFilesAvailable,
  localCopyFilesDir,
  localCopyFiles,
  openLocalCopyFilesDir,
  readLocalCopyFile,
  removeLocalCopyFiles,
  removeLocalCopyFilesDir,
  sweepLocalCopyFiles,
  writeLocalCopyFile,
  type LocalCopyFileRef,
} from './local-copy-files.ts';

/** A copy as the database holds it: a large snapshot as a Blob or in a file (see asRecord). */
type CopyRecord = Omit<StoredLocalCopy, 'snapshot'> & { snapshot: Uint8Array | Blob | LocalCopyFileRef };

/** A shared run as the database holds it: large contents in a file when the store writes files. */
type RunRecord = Omit<StoredLocalRun, 'contents'> & { contents: Uint8Array | LocalCopyFileRef };

export interface LocalDiskStoreOptions {
  /**
   * Keep large snapshots and runs in files of the host's OPFS directory (where the browser has OPFS), and
   * sweep that directory of files no record names when the database opens: for the one writer of
   * the disk. A store opened without it still reads and removes such files.
   */
  files?: boolean;
}

interface LocalDiskDb extends DBSchema {
  copies: { key: string; value: CopyRecord };
  runs: { key: string; value: RunRecord };
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

  readonly #filesDir: string;
  /** whether large snapshots go to files: asked of the browser with the first write */
  readonly #writesFiles: Promise<boolean>;
  /** files whose records a committed batch dropped, being removed (destroy waits for them) */
  #removals: Promise<void> = Promise.resolve();
  /** the writer's sweep of leftover files at open: its first batch waits for it */
  readonly #swept: Promise<void>;

  constructor(databaseName: string, options: LocalDiskStoreOptions = {}) {
    this.name = databaseName;
    this.#filesDir = localCopyFilesDir(databaseName);
    this.#writesFiles = options.files ? localCopyFilesAvailable() : Promise.resolve(false);
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
    // The one writer sweeps before its first batch, so no file it is about to name is taken for a leftover.
    this.#swept = options.files ? this.#db.then((db) => this.#sweep(db)).catch(() => undefined) : Promise.resolve();
  }

  async apply(batch: LocalDiskBatch): Promise<void> {
    const db = await this.#connection();
    await this.#swept;
    // A lost host's disk is cleared: every file there before this batch goes.
    const before = batch.clear ? await this.#files() : [];
    // Files first: the transaction that names them commits only once they are whole.
    const [records, runRecords] = await this.#withFiles(batch.put ?? [], batch.putRuns ?? []);
    const written = [...records, ...runRecords].flatMap(fileOf);
    // Only a writer's runs can be in files: another store's run may be megabytes of bytes, not worth reading to find none.
    const runFiles = await this.#writesFiles;
    const tx = db.transaction(['copies', 'runs', 'confirmations'], 'readwrite');
    const copies = tx.objectStore('copies');
    const runs = tx.objectStore('runs');
    const confirmations = tx.objectStore('confirmations');
    const requests: Promise<unknown>[] = [];
    const dropped: string[] = [...before];
    // What a record replaced or deleted named goes once the batch committed.
    const dropFileOf = (path: string) => {
      const record = isRunPath(path) ? (runFiles ? runs.get(path) : Promise.resolve(undefined)) : copies.get(path);
      return record.then((r) => void dropped.push(...(r ? fileOf(r) : [])));
    };
    if (batch.clear) requests.push(copies.clear(), runs.clear(), confirmations.clear());
    for (const path of batch.delete ?? []) requests.push(dropFileOf(path).then(() => (isRunPath(path) ? runs.delete(path) : copies.delete(path))));
    for (const record of records) requests.push(dropFileOf(record.path).then(() => copies.put(record, record.path)));
    for (const { path, ...change } of batch.patch ?? []) requests.push(copies.get(path).then((copy) => (copy ? copies.put({ ...copy, ...change }, path) : undefined)));
    for (const run of runRecords) requests.push(dropFileOf(run.path).then(() => runs.put(run, run.path)));
    for (const c of batch.confirm ?? []) requests.push(confirmations.put(c, c.directory));
    this.onReadWriteTransaction?.(tx as unknown as IDBTransaction);
    try {
      await Promise.all([...requests, tx.done]);
    } catch (error) {
      // Every request of an aborted transaction rejects: the transaction's own error says why.
      await Promise.allSettled([...requests, tx.done]);
      this.#removeFiles(written);
      throw tx.error ?? error;
    }
    // A file rewritten under its own name (never: each write is a new one) would be named still.
    this.#removeFiles(dropped.filter((f) => !written.includes(f)));
  }

  /** The records of copies and runs, their files written; when one cannot be written, the others' files go and the batch fails. */
  async #withFiles(copies: readonly StoredLocalCopy[], runs: readonly StoredLocalRun[]): Promise<[CopyRecord[], RunRecord[]]> {
    const settled = await Promise.allSettled([Promise.all(copies.map((c) => this.#copyRecord(c))), Promise.all(runs.map((r) => this.#runRecord(r)))]);
    if (settled[0].status === 'fulfilled' && settled[1].status === 'fulfilled') return [settled[0].value, settled[1].value];
    // A write that failed wrote no file; those that went through (in the half that failed too) are removed by the sweep, or here.
    this.#removeFiles(settled.flatMap((r) => (r.status === 'fulfilled' ? r.value.flatMap(fileOf) : [])));
    throw (settled.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
  }

  /** The record of a copy: its snapshot in a file (#inFile), else as asRecord keeps it. */
  async #copyRecord(copy: StoredLocalCopy): Promise<CopyRecord> {
    const file = await this.#inFile(copy.path, copy.snapshot);
    return file ? { ...copy, snapshot: file } : asRecord(copy);
  }

  /** The record of a shared run: its contents in a file (#inFile), else as they are. */
  async #runRecord(run: StoredLocalRun): Promise<RunRecord> {
    const file = await this.#inFile(run.path, run.contents);
    return file ? { ...run, contents: file } : run;
  }

  /** `bytes` written to a file of the disk's directory when over BLOB_THRESHOLD_BYTES and this store writes files; else undefined. */
  async #inFile(path: string, bytes: Uint8Array): Promise<LocalCopyFileRef | undefined> {
    if (bytes.byteLength <= BLOB_THRESHOLD_BYTES || !(await this.#writesFiles)) return undefined;
    return writeLocalCopyFile(this.#filesDir, path, bytes);
  }

  async #files(): Promise<string[]> {
    return (await localCopyFilesAvailable()) ? localCopyFiles(this.#filesDir) : [];
  }

  #removeFiles(files: string[]): void {
    if (files.length === 0) return;
    const dir = this.#filesDir;
    this.#removals = this.#removals.then(() => removeLocalCopyFiles(dir, files)).catch(() => undefined);
  }

  /** Removes the files no record names: what a crash between a file's write (or a record's delete) and its removal left. */
  async #sweep(db: IDBPDatabase<LocalDiskDb>): Promise<void> {
    if (!(await this.#writesFiles)) return;
    // Made now, so the TaskManagers find it as they start (openFiles) and not first when they restore.
    await openLocalCopyFilesDir(this.#filesDir, true);
    const records = [...(await db.getAll('copies')), ...(await db.getAll('runs'))];
    await sweepLocalCopyFiles(this.#filesDir, new Set(records.flatMap(fileOf)));
  }

  async read(): Promise<{ copies: StoredLocalCopy[]; confirmations: StoredConfirmation[]; runs: StoredLocalRun[] }> {
    const db = await this.#connection();
    const tx = db.transaction(['copies', 'runs', 'confirmations'], 'readonly');
    const [records, confirmations, runs] = await Promise.all([tx.objectStore('copies').getAll(), tx.objectStore('confirmations').getAll(), tx.objectStore('runs').getAll(), tx.done]);
    const read = await Promise.all(records.map((r) => this.#fromRecord(r)));
    return { copies: read.filter((c): c is StoredLocalCopy => c !== undefined), confirmations, runs: await this.#fromRunRecords(runs) };
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
    // The Blob or file is read once the transaction is done: awaiting it inside would end the transaction.
    const copy = record && (await this.#fromRecord(record));
    return copy && { copy, runs: await this.#fromRunRecords(runs.filter((r): r is RunRecord => r !== undefined)) };
  }

  /** The runs with their contents; one whose file is gone is not on the disk (a restore reads it remotely). */
  async #fromRunRecords(records: readonly RunRecord[]): Promise<StoredLocalRun[]> {
    const runs = await Promise.all(
      records.map(async (record) => {
        if (!isLocalCopyFileRef(record.contents)) return record as StoredLocalRun;
        const contents = await readLocalCopyFile(this.#filesDir, record.contents);
        return contents && { ...record, contents };
      }),
    );
    return runs.filter((r): r is StoredLocalRun => r !== undefined);
  }

  /** The copy with its snapshot's bytes; undefined when its file is gone (removed since the record was read). */
  async #fromRecord(record: CopyRecord): Promise<StoredLocalCopy | undefined> {
    if (!isLocalCopyFileRef(record.snapshot)) return fromRecord(record as Omit<CopyRecord, 'snapshot'> & { snapshot: Uint8Array | Blob });
    const start = performance.now();
    const bytes = await readLocalCopyFile(this.#filesDir, record.snapshot);
    measureRestorePhase('host disk file read', record.path, start);
    return bytes && { ...record, snapshot: bytes };
  }

  /**
   * Opens the disk's OPFS directory ahead of a restore's read, when it is there: a TaskManager does
   * as it registers. Nothing happens without OPFS.
   */
  async openFiles(): Promise<void> {
    if (await localCopyFilesAvailable()) await openLocalCopyFilesDir(this.#filesDir).catch(() => undefined);
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

  /** Also deletes the disk's OPFS directory (its files), once the removals under way are done. */
  async destroy(): Promise<void> {
    await this.close();
    await deleteDB(this.name);
    await Promise.all([this.#swept, this.#removals]);
    if (await localCopyFilesAvailable()) await removeLocalCopyFilesDir(this.#filesDir);
  }
}

/**
 * Snapshots over this size go into the database as Blobs: Chromium keeps a large value in a file
 * either way, but a Blob comes back as a handle whose bytes are then read straight from that file,
 * where a Uint8Array value is deserialized whole inside the `get` (a 14 MB copy: 13–30 ms against
 * 31–76 ms, measured in a worker).
 */
const BLOB_THRESHOLD_BYTES = 64 * 1024;

/** A path names a copy or a shared run (`…/shared/<name>`), never both. */
function isRunPath(path: string): boolean {
  return path.includes('/shared/');
}

/** The file a record's bytes are in, if they are in one. */
function fileOf(record: CopyRecord | RunRecord): string[] {
  const bytes = 'snapshot' in record ? record.snapshot : record.contents;
  return isLocalCopyFileRef(bytes) ? [bytes.file] : [];
}

function asRecord(copy: StoredLocalCopy): CopyRecord {
  if (typeof Blob === 'undefined' || copy.snapshot.byteLength <= BLOB_THRESHOLD_BYTES) return copy;
  return { ...copy, snapshot: new Blob([copy.snapshot as Uint8Array<ArrayBuffer>]) };
}

async function fromRecord(record: Omit<CopyRecord, 'snapshot'> & { snapshot: Uint8Array | Blob }): Promise<StoredLocalCopy> {
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
 * sim, which restores synchronously, keeps the contents in memory too (the default). `files`:
 * large copies in the host's OPFS directory (LocalDiskStoreOptions), where TaskManagers read them.
 */
export function openHostLocalDisk(host: string, checkpointDatabase: string, options: { contentsInMemory?: boolean } & LocalDiskStoreOptions = {}): HostLocalDisk {
  if (typeof indexedDB === 'undefined') return new HostLocalDisk(host);
  return new PersistentHostLocalDisk(host, new IndexedDbLocalDiskStore(localDiskDatabaseName(checkpointDatabase, host), { files: options.files }), {
    contentsInMemory: options.contentsInMemory ?? true,
    nextTask,
  });
}

/** A later task of the page: a copy is encoded there, not in the frame whose simulation step wrote it. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export { destroyLocalDisks, localDisksSettled } from './host-local-disks.ts';

/**
 * The files of a host's disk in the Origin Private File System: where the host disk's database
 * (indexeddb-local-disk-store.ts) keeps the snapshot of a large task-local copy and the contents
 * of a large shared run of incremental copies, one file each, in a directory named as the
 * database is (`<checkpoint database>/local-disk/<host>`).
 *
 * Why files: a TaskManager restoring from its copy reads it in a worker, where OPFS gives a
 * synchronous access handle that reads the file straight into memory (a 14 MB copy in 7–14 ms on
 * this project's machines, against 13–30 ms for the same bytes as a Blob in IndexedDB and 31–76 ms
 * as an IndexedDB byte array). The database keeps the copy's record, naming its file: a file is
 * written before the transaction that names it commits, and removed after the one that stops
 * naming it did, so a crash leaves at worst a file no record names, which the writer sweeps when
 * it next opens the disk (sweepLocalCopyFiles).
 *
 * A file is never written twice: each write takes a new name, so a reader never sees a file half
 * rewritten, and the JobManager's thread (which writes, with OPFS's asynchronous API) and a
 * TaskManager (which reads) never contend for one.
 */
import { measureRestorePhase } from '../restore-phase-measures.ts';
import { entriesOf, isDomError, openOpfsDirectory, opfsAvailable, removeOpfsDirectoryAndEmptyParents, removeOpfsEntry } from './rocksdb-local-dir.ts';

/** What a copy's record holds instead of its snapshot's bytes: the file in the disk's directory. */
export interface LocalCopyFileRef {
  file: string;
  byteLength: number;
}

export function isLocalCopyFileRef(value: unknown): value is LocalCopyFileRef {
  return typeof value === 'object' && value !== null && typeof (value as LocalCopyFileRef).file === 'string';
}

/** The OPFS directory of the host disk kept in `databaseName`. */
export function localCopyFilesDir(databaseName: string): string {
  return databaseName;
}

let available: Promise<boolean> | undefined;

/** Whether this page can keep copies in OPFS (asked once: see opfsAvailable). */
export function localCopyFilesAvailable(): Promise<boolean> {
  available ??= opfsAvailable();
  return available;
}

/**
 * The directories this thread has opened, by path: opening one walks its five parents, a round
 * trip to the browser each (5–16 ms of a restore's read, measured with four TaskManagers reading).
 */
const opened = new Map<string, FileSystemDirectoryHandle>();

/** The directory (created when `create`), or undefined when it is not there; once found, kept for this thread's later reads. */
export async function openLocalCopyFilesDir(dir: string, create = false): Promise<FileSystemDirectoryHandle | undefined> {
  const known = opened.get(dir);
  if (known) return known;
  const directory = await openOpfsDirectory(dir, create);
  if (directory) opened.set(dir, directory);
  return directory;
}

/** Writes `bytes` to a new file of the directory and names it; a path's successive copies get distinct names. */
export async function writeLocalCopyFile(dir: string, path: string, bytes: Uint8Array): Promise<LocalCopyFileRef> {
  const directory = (await openLocalCopyFilesDir(dir, true))!;
  const file = `${path.replaceAll('/', '~')}.${crypto.randomUUID()}`;
  const handle = await directory.getFileHandle(file, { create: true });
  const writable = await handle.createWritable();
  try {
    await writable.write(bytes as Uint8Array<ArrayBuffer>);
    await writable.close();
  } catch (error) {
    await writable.abort().catch(() => undefined);
    await removeOpfsEntry(directory, file).catch(() => undefined);
    throw error;
  }
  return { file, byteLength: bytes.byteLength };
}

/**
 * The file's bytes, or undefined when it is gone (removed since its record was read: the copy is
 * missing, and the restore reads remotely). In a worker through a synchronous access handle, the
 * fast way; where there is none (the page's thread) or the file is locked (a killed worker's handle
 * not yet released), through `getFile()`.
 */
export async function readLocalCopyFile(dir: string, ref: LocalCopyFileRef): Promise<Uint8Array | undefined> {
  try {
    const start = performance.now();
    const handle = await (await openLocalCopyFilesDir(dir))?.getFileHandle(ref.file);
    if (!handle) return undefined;
    measureRestorePhase('host disk file open', ref.file, start);
    return (await readWithAccessHandle(handle)) ?? new Uint8Array(await (await handle.getFile()).arrayBuffer());
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

async function readWithAccessHandle(handle: FileSystemFileHandle): Promise<Uint8Array | undefined> {
  if (typeof handle.createSyncAccessHandle !== 'function') return undefined;
  let access: FileSystemSyncAccessHandle;
  try {
    access = await handle.createSyncAccessHandle();
  } catch (error) {
    if (isNotFound(error)) throw error;
    return undefined;
  }
  try {
    const bytes = new Uint8Array(access.getSize());
    access.read(bytes, { at: 0 });
    return bytes;
  } finally {
    access.close();
  }
}

/** Removes files of the directory; one that cannot be removed now is left for the next sweep. */
export async function removeLocalCopyFiles(dir: string, files: readonly string[]): Promise<void> {
  if (files.length === 0) return;
  const directory = await openLocalCopyFilesDir(dir);
  if (!directory) return;
  await Promise.all(files.map((f) => removeOpfsEntry(directory, f).catch(() => undefined)));
}

/** The names of the directory's files. */
export async function localCopyFiles(dir: string): Promise<string[]> {
  const directory = await openLocalCopyFilesDir(dir);
  if (!directory) return [];
  const names: string[] = [];
  for await (const [name, handle] of entriesOf(directory)) if (handle.kind === 'file') names.push(name);
  return names;
}

/** Removes every file of the directory that no record names (left by a write or a removal a crash cut short). */
export async function sweepLocalCopyFiles(dir: string, named: ReadonlySet<string>): Promise<void> {
  await removeLocalCopyFiles(
    dir,
    (await localCopyFiles(dir)).filter((f) => !named.has(f)),
  );
}

/** Removes the directory, and each parent it leaves empty (the run's directories in OPFS). */
export async function removeLocalCopyFilesDir(dir: string): Promise<void> {
  opened.delete(dir);
  await removeOpfsDirectoryAndEmptyParents(dir, dir.split('/').filter((s) => s !== '').length - 1);
}

function isNotFound(error: unknown): boolean {
  return isDomError(error, 'NotFoundError') || isDomError(error, 'TypeMismatchError');
}

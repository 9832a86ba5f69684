/**
 * `state.backend.rocksdb.localdir` in the browser: the directory on a host's local disk where its
 * TaskManagers keep their rocksdb working databases (the wa-sqlite LSM tree standing in for
 * RocksDB), in the Origin Private File System, beside the playground's checkpoint database:
 *
 *   <checkpoint database>/hosts/<host>/<taskManagerId>/incarnation-<n>/attempt-<a>/   (one wa-sqlite database)
 *
 * `incarnation-<n>` is one TaskManager process (a replacement after a kill is a new incarnation):
 * Flink does not reuse a crashed TaskManager's working directories, and a terminated worker's
 * OPFS access handles are released by Chromium some time after terminate(), so a new process never
 * opens the files its predecessor may still hold. `attempt-<a>` is one execution attempt's
 * RocksDB instance directory, deleted when the attempt's tasks are cancelled.
 *
 * Used by the TaskManager worker (its own directories) and by the JobManager's thread (a lost
 * host's directory, the whole tree on dispose).
 *
 * Where the browser offers no OPFS, the JobManager says so once and the same tree is kept in
 * IndexedDB instead: one database per instance directory, named after its path
 * (workers/storage/indexeddb-mirrored-vfs.ts).
 */

/** Which of the browser's stores holds the hosts' disks: OPFS, or IndexedDB where OPFS is unavailable. */
export type LocalDirStore = 'opfs' | 'indexeddb';

/** Where one TaskManager process keeps its rocksdb working databases (sent at registration). */
export interface RocksDbLocalDir {
  /** OPFS path of the TaskManager's directory on its host: `<checkpoint database>/hosts/<host>/<taskManagerId>` */
  taskManagerDir: string;
  /** this process's number: its directory is `<taskManagerDir>/incarnation-<n>`; any other entry there is a predecessor's */
  incarnation: number;
  /** the store the directories are in (absent: OPFS) */
  store?: LocalDirStore;
}

/** The OPFS directory of every host of the playground whose checkpoint database is `checkpointDatabase`. */
export function hostsDir(checkpointDatabase: string): string {
  return `${checkpointDatabase}/hosts`;
}

export function hostDir(checkpointDatabase: string, host: string): string {
  return `${hostsDir(checkpointDatabase)}/${host}`;
}

export function rocksDbLocalDir(checkpointDatabase: string, host: string, taskManagerId: string, incarnation: number, store: LocalDirStore = 'opfs'): RocksDbLocalDir {
  return { taskManagerDir: `${hostDir(checkpointDatabase, host)}/${taskManagerId}`, incarnation, ...(store === 'opfs' ? {} : { store }) };
}

/**
 * Whether this browser gives the page an Origin Private File System: asked, not assumed, since a
 * browser may declare `navigator.storage.getDirectory` and refuse it (a SecurityError in a
 * storage-partitioned or private context).
 */
export async function opfsAvailable(): Promise<boolean> {
  try {
    await opfsRoot();
    return true;
  } catch {
    return false;
  }
}

export function incarnationDir(dir: RocksDbLocalDir): string {
  return `${dir.taskManagerDir}/incarnation-${dir.incarnation}`;
}

/** The instance directory of one execution attempt in this process. */
export function instanceDir(dir: RocksDbLocalDir, attempt: number): string {
  return `${incarnationDir(dir)}/attempt-${attempt}`;
}

/**
 * The origin's OPFS root. No quiet fallback to memory: RocksDB's working state belongs on the
 * host's disk, and a browser without OPFS cannot give it one.
 */
export async function opfsRoot(): Promise<FileSystemDirectoryHandle> {
  if (typeof navigator === 'undefined' || typeof navigator.storage?.getDirectory !== 'function') {
    throw new Error(
      'state.backend.type: rocksdb keeps each TaskManager\'s working state in state.backend.rocksdb.localdir on its host\'s disk, which in the browser is the Origin Private File System (navigator.storage.getDirectory), and this browser does not offer it; use state.backend.type: hashmap here',
    );
  }
  return navigator.storage.getDirectory();
}

/** The directory at `path` (segments split on '/'), or undefined when some part of it does not exist. */
export async function openOpfsDirectory(path: string, create = false): Promise<FileSystemDirectoryHandle | undefined> {
  let dir = await opfsRoot();
  for (const name of path.split('/').filter((s) => s !== '')) {
    try {
      dir = await dir.getDirectoryHandle(name, { create });
    } catch (error) {
      if (isDomError(error, 'NotFoundError')) return undefined;
      throw error;
    }
  }
  return dir;
}

/** How long a removal retries while a terminated worker's access handles are still being released. */
const RELEASE_WAIT_MS = 10_000;

/**
 * Deletes `name` in `parent` with everything under it. A file a terminated worker had open stays
 * locked until Chromium releases the worker's access handles, which happens asynchronously after
 * terminate(): removal then throws NoModificationAllowedError (or InvalidModificationError), and
 * is retried until the handles are gone.
 */
export async function removeOpfsEntry(parent: FileSystemDirectoryHandle, name: string, waitMs = RELEASE_WAIT_MS): Promise<void> {
  const locked = (error: unknown) => isDomError(error, 'NoModificationAllowedError') || isDomError(error, 'InvalidModificationError');
  try {
    await retryWhileLocked(() => parent.removeEntry(name, { recursive: true }), locked, waitMs);
  } catch (error) {
    if (!isDomError(error, 'NotFoundError')) throw error;
  }
}

/** Calls `operation` until it goes through, retrying (backing off) while it fails `locked` for up to `waitMs`; then its error is thrown. */
async function retryWhileLocked(operation: () => Promise<void>, locked: (error: unknown) => boolean, waitMs: number): Promise<void> {
  const started = performance.now();
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    try {
      return await operation();
    } catch (error) {
      if (!locked(error) || performance.now() - started > waitMs) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** Deletes the directory at `path` and everything under it (nothing when it does not exist). */
export async function removeOpfsDirectory(path: string): Promise<void> {
  const segments = path.split('/').filter((s) => s !== '');
  const name = segments.pop();
  if (name === undefined) throw new Error('refusing to delete the OPFS root');
  const parent = await openOpfsDirectory(segments.join('/'));
  if (parent) await removeOpfsEntry(parent, name);
}

/**
 * Deletes `path`, then each of its `depth` nearest parents that is left empty: a playground leaves
 * no empty `checkpoint-playground/<id>/…` directories behind. A parent is removed without
 * `recursive`, so one another run has just written into stays, whatever the timing.
 */
export async function removeOpfsDirectoryAndEmptyParents(path: string, depth: number): Promise<void> {
  await removeOpfsDirectory(path);
  const segments = path.split('/').filter((s) => s !== '');
  for (let i = 1; i <= depth && segments.length > i; i++) {
    const parent = await openOpfsDirectory(segments.slice(0, segments.length - i - 1).join('/'));
    if (!parent || !(await removeIfEmpty(parent, segments[segments.length - i - 1]!))) return;
  }
}

/** How long an empty parent's removal is retried while something under it holds a lock. */
const PARENT_LOCK_WAIT_MS = 500;

/**
 * Removes the directory `name` of `parent` if it is empty; false when it is not (or is gone).
 * NoModificationAllowedError means a lock under it: a concurrent removal of a sibling (one run's
 * directories go at once: the hosts', their disks') holds one for a moment, and a parent given up
 * on then would stay for good, the sibling's removal having found nothing to climb from; a file a
 * terminated worker still holds keeps it longer, and then the removal waiting that out climbs here.
 */
async function removeIfEmpty(parent: FileSystemDirectoryHandle, name: string): Promise<boolean> {
  try {
    await retryWhileLocked(() => parent.removeEntry(name), (error) => isDomError(error, 'NoModificationAllowedError'), PARENT_LOCK_WAIT_MS);
    return true;
  } catch (error) {
    if (isDomError(error, 'InvalidModificationError') || isDomError(error, 'NoModificationAllowedError') || isDomError(error, 'NotFoundError')) return false;
    throw error;
  }
}

/** Every file under `path` with its size in bytes, paths relative to it (what the disk holds there). */
export async function listOpfsFiles(path: string): Promise<Array<{ path: string; bytes: number }>> {
  const dir = await openOpfsDirectory(path);
  if (!dir) return [];
  const files: Array<{ path: string; bytes: number }> = [];
  const walk = async (d: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
    try {
      for await (const [name, handle] of entriesOf(d)) {
        if (handle.kind === 'directory') await walk(handle as FileSystemDirectoryHandle, `${prefix}${name}/`);
        else files.push({ path: `${prefix}${name}`, bytes: (await (handle as FileSystemFileHandle).getFile()).size });
      }
    } catch (error) {
      // Deleted while listed (a worker disposing an attempt, a lost host): it is no longer there.
      if (!isDomError(error, 'NotFoundError')) throw error;
    }
  };
  await walk(dir, '');
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** A directory's entries: the DOM lib this project compiles against lacks their async iteration (DOM.AsyncIterable). */
export function entriesOf(dir: FileSystemDirectoryHandle): AsyncIterable<[string, FileSystemHandle]> {
  return dir as unknown as AsyncIterable<[string, FileSystemHandle]>;
}

/** Whether `error` is a DOMException (or like one) named `name`. */
export function isDomError(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;
}

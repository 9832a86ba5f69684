/**
 * The browser storage of one run of the page (a live run's checkpoint database, its hosts' local
 * disks and rocksdb working directories; a sim run's host disks) is deleted when the page
 * disposes the run. A tab that is closed or crashes never disposes it, so each run holds a lease
 * on its storage, a Web Lock named after the run's root, which the browser lets go of when the tab
 * goes. A page that starts sweeps the storage of every run whose lease nobody holds: another
 * tab's running job keeps its storage, an abandoned one does not fill the disk visit after visit.
 *
 * What is swept is only storage that belongs to one run and that nothing can use once the run is
 * gone. The sim's checkpoint database of `execution.checkpointing.dir` is never swept: it holds
 * the checkpoints a retention policy keeps, as Flink's checkpoint directory does.
 */
import { LIVE_RUNS_ROOT } from '../../../workers/storage/database-names.ts';

const LOCK_PREFIX = 'checkpoint-playground-run:';

/** A live run's root: `checkpoint-playground-live/<run id>` (its databases and OPFS directories are under it). */
const LIVE_ROOT = /^(checkpoint-playground-live\/[^/]+)\//;
/** A sim run's host disks: `checkpoint-playground/<checkpoint dir>/checkpoints/<job id>/local-disk/host-<n>`. */
const SIM_DISK_ROOT = /^(checkpoint-playground\/.+\/checkpoints\/[0-9a-f]{32})\/local-disk\/host-\d+$/;

/** The root of the run a database belongs to, or undefined when it outlives runs (or is not ours). */
export function runRootOfDatabase(name: string): string | undefined {
  return LIVE_ROOT.exec(name)?.[1] ?? SIM_DISK_ROOT.exec(name)?.[1];
}

/** The root a live run with checkpoint database `databaseName` keeps everything under. */
export function liveRunRoot(databaseName: string): string {
  const root = LIVE_ROOT.exec(databaseName)?.[1];
  if (!root) throw new Error(`${databaseName} is not the checkpoint database of a live run`);
  return root;
}

/** The root of a sim run's host disks: the databases `<root>/local-disk/<host>`. */
export function simRunRoot(checkpointDatabase: string, jobId: string): string {
  return `${checkpointDatabase}/${jobId}`;
}

export interface RunStorageLease {
  /** the run's storage is deleted (or handed to the sweeper): let go of the lease */
  release(): void;
}

/**
 * Holds the lease on `root` until released or the tab goes. The request is queued at once, so a
 * sweep that asks after this call never takes the run's storage for abandoned. Without Web Locks
 * (Node) there is no other tab to sweep for, and no lease.
 */
export function leaseRunStorage(root: string): RunStorageLease {
  const locks = webLocks();
  if (!locks) return { release: () => {} };
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  void locks.request(LOCK_PREFIX + root, () => held).catch(() => undefined);
  return { release: () => release() };
}

/** Whether a tab holds the lease on `root` now: its run is going there, not interrupted. */
export async function runStorageLeaseHeld(root: string): Promise<boolean> {
  const locks = webLocks();
  if (!locks) return false;
  const { held = [] } = await locks.query();
  return held.some((lock) => lock.name === LOCK_PREFIX + root);
}

/**
 * Deletes the storage of every run whose lease nobody holds: its databases and, for live runs,
 * its OPFS directory. Returns the roots it swept. Each root is swept while holding its lease, so
 * nothing can start using it meanwhile. Roots in `keep` stay: a live run a reload interrupted,
 * which can still be resumed (interrupted-live-run.ts).
 */
export async function sweepAbandonedRunStorage(keep: ReadonlySet<string> = new Set()): Promise<string[]> {
  const locks = webLocks();
  if (!locks || typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return [];
  const databases = new Map<string, string[]>();
  for (const { name } of await indexedDB.databases()) {
    const root = name === undefined ? undefined : runRootOfDatabase(name);
    if (root) databases.set(root, [...(databases.get(root) ?? []), name!]);
  }
  const opfsRuns = await liveRunDirectories();
  const roots = new Set([...databases.keys(), ...opfsRuns.map((name) => `${LIVE_RUNS_ROOT}/${name}`)]);
  const swept: string[] = [];
  for (const root of roots) {
    if (keep.has(root)) continue;
    const abandoned = await locks.request(LOCK_PREFIX + root, { ifAvailable: true }, async (lock) => {
      if (!lock) return false;
      // loaded here, not with the page: a sweep runs after the first page is up
      const { deleteDB } = await import('idb');
      await Promise.all((databases.get(root) ?? []).map((name) => deleteDB(name)));
      await removeLiveRunDirectory(root);
      return true;
    });
    if (abandoned) swept.push(root);
  }
  return swept;
}

/** The live runs' directories in OPFS (their hosts' rocksdb working directories are under them). */
async function liveRunDirectories(): Promise<string[]> {
  if (!hasOpfs()) return [];
  const { entriesOf, openOpfsDirectory } = await import('../../../workers/storage/rocksdb-local-dir.ts');
  const dir = await openOpfsDirectory(LIVE_RUNS_ROOT);
  if (!dir) return [];
  const names: string[] = [];
  for await (const [name, handle] of entriesOf(dir)) if (handle.kind === 'directory') names.push(name);
  return names;
}

async function removeLiveRunDirectory(root: string): Promise<void> {
  if (!root.startsWith(`${LIVE_RUNS_ROOT}/`) || !hasOpfs()) return;
  const { openOpfsDirectory, removeOpfsEntry } = await import('../../../workers/storage/rocksdb-local-dir.ts');
  const dir = await openOpfsDirectory(LIVE_RUNS_ROOT);
  if (dir) await removeOpfsEntry(dir, root.slice(LIVE_RUNS_ROOT.length + 1));
}

function hasOpfs(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function';
}

function webLocks(): LockManager | undefined {
  return typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : undefined;
}

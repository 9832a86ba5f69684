import type { SubtaskId, TaskStateSnapshot } from '../protocol.ts';
import { checksum } from './checksum.ts';

/**
 * Whose local state a directory holds: one Flink TaskLocalStateStoreImpl exists per (job,
 * allocation, vertex, subtask). The allocation is the slot the subtask ran in when it wrote the
 * copy; a subtask that comes back in another slot cannot see it.
 */
export interface TaskLocalStateStoreKey {
  /** the slot id (`tm-<n>/slot-<k>`), standing in for Flink's AllocationID */
  allocationId: string;
  jobId: string;
  subtask: SubtaskId;
}

/** One task-local copy of a subtask's snapshot: Flink's `.../chk_<id>/_task_state_snapshot`. */
export interface LocalCopy {
  readonly key: TaskLocalStateStoreKey;
  readonly checkpointId: number;
  /** `aid_<allocation>/jid_<job>/vtx_<vertex>_sti_<subtask>/chk_<id>` */
  readonly path: string;
  /** the copy itself; opaque here except for its size */
  readonly snapshot: TaskStateSnapshot;
  /** bytes on the local disk (the full snapshot's state size unless a partial write says less) */
  readonly bytes: number;
  /** checksum of the snapshot as it was written (checksum.ts); a restore recomputes and compares */
  readonly checksum: string;
  /** false when the write stopped part way (a local copy may be partial; it never fails the checkpoint) */
  readonly complete: boolean;
  /**
   * The copy is known intact, so the snapshot need not be serialized again to verify it: it was
   * read back from the disk as bytes whose checksum (of the bytes, fnv1a32Bytes) matched, or it
   * is the snapshot as written, undamaged since (damage clears this).
   */
  readonly verifiedOnRead?: boolean;
}

/** How a copy was written: partially (`complete: false`, `bytes` so far), or with a checksum computed before (default: of `snapshot`). */
export interface LocalCopyWrite {
  complete?: boolean;
  bytes?: number;
  /**
   * A checksum computed before (of bytes that may differ from `snapshot`: verified against it), or
   * a function that computes it when first needed from the very snapshot written (the copy is
   * intact until damaged, LocalCopy.verifiedOnRead).
   */
  checksum?: string | (() => string);
}

/** Picks copies by subtask, as the playground's `corruptLocalCopy(host, vertexId, subtask)` does. */
export interface LocalCopySelector {
  vertexId: string;
  subtaskIndex: number;
  /** only this checkpoint (default: every checkpoint of the subtask) */
  checkpointId?: number;
  /** only this allocation (default: every allocation on the host) */
  allocationId?: string;
  jobId?: string;
}

/** How a fault damages a copy: its recorded checksum, or its content (either fails verification). */
export type CorruptionMode = 'checksum' | 'content';

/** What a host's disk holds, for the UI: host → subtask (per allocation) → checkpoint copies. */
export interface LocalDiskListing {
  host: string;
  bytes: number;
  stores: LocalStoreListing[];
  /**
   * The live runtime's rocksdb working databases on this disk (state.backend.rocksdb.localdir),
   * one per TaskManager with a running rocksdb attempt: OPFS path and bytes.
   */
  rocksdbWorkingDbs?: Array<{ taskManager: string; path: string; bytes: number }>;
}

export interface LocalStoreListing {
  /** `aid_<allocation>/jid_<job>/vtx_<vertex>_sti_<subtask>` */
  directory: string;
  allocationId: string;
  jobId: string;
  vertexId: string;
  subtaskIndex: number;
  copies: Array<{ checkpointId: number; path: string; bytes: number; complete: boolean; confirmed: boolean }>;
}

export function localStoreDirectory(key: TaskLocalStateStoreKey): string {
  return `aid_${key.allocationId}/jid_${key.jobId}/vtx_${key.subtask.vertexId}_sti_${key.subtask.subtaskIndex}`;
}

export function localCopyPath(key: TaskLocalStateStoreKey, checkpointId: number): string {
  return `${localStoreDirectory(key)}/chk_${checkpointId}`;
}

/** Whether a copy still matches the checksum it was written with. */
export function verifyLocalCopy(copy: LocalCopy): boolean {
  return copy.verifiedOnRead === true || checksum(copy.snapshot) === copy.checksum;
}

interface TaskLocalStateStore {
  key: TaskLocalStateStoreKey;
  /** highest checkpoint confirmed (notify-complete) for this store; copies up to it are confirmed */
  lastConfirmed: number;
  copies: Map<number, LocalCopy>;
}

/**
 * One host's local disk: the task-local snapshot copies of every TaskManager on the host
 * (Flink's TaskExecutorLocalStateStoresManager and its TaskLocalStateStoreImpl instances). It
 * survives a TaskManager crash but not the loss of the host (`wipe`). Retention follows
 * TaskLocalStateStoreImpl: a confirmed checkpoint prunes every older copy of that store, so only
 * the latest confirmed copy and newer pending ones remain, whatever `num-retained` says.
 *
 * Operations that remove copies return the paths they removed, so a caller can log them.
 */
export class HostLocalDisk {
  readonly host: string;
  readonly #stores = new Map<string, TaskLocalStateStore>();

  constructor(host: string) {
    this.host = host;
  }

  /** Writes the local copy of checkpoint `checkpointId` (Flink's storeLocalState); replaces an older write of the same id. */
  store(key: TaskLocalStateStoreKey, checkpointId: number, snapshot: TaskStateSnapshot, write: LocalCopyWrite = {}): LocalCopy {
    // Without a checksum from the writer, it is taken when first needed (damage, a copy to persist):
    // an intact copy verifies without it, and serializing every snapshot for a checksum nobody
    // reads cost the page's main thread as much as the checkpoint itself.
    let recorded = typeof write.checksum === 'string' ? write.checksum : undefined;
    const compute = typeof write.checksum === 'function' ? write.checksum : () => checksum(snapshot);
    const copy: LocalCopy = {
      key: { ...key, subtask: { ...key.subtask } },
      checkpointId,
      path: localCopyPath(key, checkpointId),
      snapshot,
      bytes: write.bytes ?? snapshot.stateSize,
      get checksum() {
        return (recorded ??= compute());
      },
      complete: write.complete ?? true,
      ...(typeof write.checksum === 'string' ? {} : { verifiedOnRead: true }),
    };
    this.#storeOf(key, true).copies.set(checkpointId, copy);
    return copy;
  }

  /** The copy of exactly this checkpoint (Flink's retrieveLocalState), or undefined. */
  retrieve(key: TaskLocalStateStoreKey, checkpointId: number): LocalCopy | undefined {
    return this.#storeOf(key, false)?.copies.get(checkpointId);
  }

  /** notify-complete reached the subtask: every copy older than `checkpointId` goes (confirmCheckpoint). */
  confirmCheckpoint(key: TaskLocalStateStoreKey, checkpointId: number): string[] {
    const store = this.#storeOf(key, false);
    if (!store) return [];
    store.lastConfirmed = Math.max(store.lastConfirmed, checkpointId);
    return this.#prune(store, (id) => id < checkpointId);
  }

  /** notify-aborted reached the subtask: its copy of that checkpoint goes (abortCheckpoint). */
  abortCheckpoint(key: TaskLocalStateStoreKey, checkpointId: number): string[] {
    const store = this.#storeOf(key, false);
    return store ? this.#prune(store, (id) => id === checkpointId) : [];
  }

  /** The subtask restored checkpoint `checkpointId`: every other copy of its store goes. */
  pruneAllBut(key: TaskLocalStateStoreKey, checkpointId: number): string[] {
    const store = this.#storeOf(key, false);
    return store ? this.#prune(store, (id) => id !== checkpointId) : [];
  }

  /**
   * The slot was freed for good (its TaskManager died, so the id never comes back): its local
   * state goes, as TaskExecutorLocalStateStoresManager.releaseLocalStateForAllocationId does.
   */
  releaseAllocation(allocationId: string): string[] {
    const removed: string[] = [];
    for (const [directory, store] of this.#stores) {
      if (store.key.allocationId !== allocationId) continue;
      removed.push(...this.#prune(store, () => true));
      this.#stores.delete(directory);
    }
    return removed;
  }

  /**
   * Replaces everything the disk holds with copies read back from where it persists them
   * (persistent-host-local-disk.ts), keeping each copy's recorded checksum, so damage done to
   * the stored bytes is found by verification as any other corruption.
   */
  adopt(copies: readonly LocalCopy[], confirmations: ReadonlyArray<{ key: TaskLocalStateStoreKey; lastConfirmed: number }>): void {
    this.#stores.clear();
    for (const c of confirmations) this.#storeOf(c.key, true).lastConfirmed = c.lastConfirmed;
    for (const copy of copies) this.#storeOf(copy.key, true).copies.set(copy.checkpointId, copy);
  }

  /** The highest confirmed checkpoint of a store (-Infinity: none), for persisting it. */
  lastConfirmed(key: TaskLocalStateStoreKey): number {
    return this.#storeOf(key, false)?.lastConfirmed ?? -Infinity;
  }

  /** Replaces every copy on the disk by what `change` makes of it (same key and checkpoint). */
  replaceCopies(change: (copy: LocalCopy) => LocalCopy): void {
    for (const store of this.#stores.values()) for (const [id, copy] of store.copies) store.copies.set(id, change(copy));
  }

  /** The host was lost: everything on its disk is gone. */
  wipe(): string[] {
    const removed = this.#selected(() => true).map((c) => c.path);
    this.#stores.clear();
    return removed;
  }

  /** A playground fault: damages the selected copies so that verification fails. Returns their paths. */
  corrupt(selector: LocalCopySelector, mode: CorruptionMode = 'content'): string[] {
    const damaged = this.#selected((store) => matches(store.key, selector), selector.checkpointId);
    for (const copy of damaged) this.#storeOf(copy.key, false)!.copies.set(copy.checkpointId, corrupted(copy, mode));
    return damaged.map((c) => c.path);
  }

  /** A playground fault: the selected copies disappear from the disk. Returns their paths. */
  delete(selector: LocalCopySelector): string[] {
    const doomed = this.#selected((store) => matches(store.key, selector), selector.checkpointId);
    for (const copy of doomed) this.#storeOf(copy.key, false)!.copies.delete(copy.checkpointId);
    return doomed.map((c) => c.path);
  }

  /** Everything on the disk, sorted by allocation, job, vertex, subtask and checkpoint id. */
  list(): LocalDiskListing {
    const stores = [...this.#stores.values()]
      .filter((s) => s.copies.size > 0)
      .sort((a, b) => compareKeys(a.key, b.key))
      .map((s) => ({
        directory: localStoreDirectory(s.key),
        allocationId: s.key.allocationId,
        jobId: s.key.jobId,
        vertexId: s.key.subtask.vertexId,
        subtaskIndex: s.key.subtask.subtaskIndex,
        copies: sortedCopies(s).map((c) => ({
          checkpointId: c.checkpointId,
          path: c.path,
          bytes: c.bytes,
          complete: c.complete,
          confirmed: c.checkpointId <= s.lastConfirmed,
        })),
      }));
    const bytes = stores.reduce((n, s) => n + s.copies.reduce((m, c) => m + c.bytes, 0), 0);
    return { host: this.host, bytes, stores };
  }

  #storeOf(key: TaskLocalStateStoreKey, create: true): TaskLocalStateStore;
  #storeOf(key: TaskLocalStateStoreKey, create: false): TaskLocalStateStore | undefined;
  #storeOf(key: TaskLocalStateStoreKey, create: boolean): TaskLocalStateStore | undefined {
    const directory = localStoreDirectory(key);
    let store = this.#stores.get(directory);
    if (!store && create) {
      store = { key: { ...key, subtask: { ...key.subtask } }, lastConfirmed: -Infinity, copies: new Map() };
      this.#stores.set(directory, store);
    }
    return store;
  }

  #prune(store: TaskLocalStateStore, doomed: (checkpointId: number) => boolean): string[] {
    const removed = sortedCopies(store).filter((c) => doomed(c.checkpointId));
    for (const copy of removed) store.copies.delete(copy.checkpointId);
    return removed.map((c) => c.path);
  }

  #selected(storeMatches: (store: TaskLocalStateStore) => boolean, checkpointId?: number): LocalCopy[] {
    return [...this.#stores.values()]
      .filter(storeMatches)
      .sort((a, b) => compareKeys(a.key, b.key))
      .flatMap((s) => sortedCopies(s).filter((c) => checkpointId === undefined || c.checkpointId === checkpointId));
  }
}

function matches(key: TaskLocalStateStoreKey, selector: LocalCopySelector): boolean {
  return (
    key.subtask.vertexId === selector.vertexId &&
    key.subtask.subtaskIndex === selector.subtaskIndex &&
    (selector.allocationId === undefined || key.allocationId === selector.allocationId) &&
    (selector.jobId === undefined || key.jobId === selector.jobId)
  );
}

/** Damage that verification notices: a bit flipped in the recorded checksum, or content that no longer matches it. */
function corrupted(copy: LocalCopy, mode: CorruptionMode): LocalCopy {
  if (mode === 'checksum') return { ...copy, checksum: flipLowestBit(copy.checksum), verifiedOnRead: false };
  const damaged: TaskStateSnapshot = { ...copy.snapshot, keyedState: { corrupted: 'bytes on the local disk were damaged (injected)', was: copy.snapshot.keyedState } };
  return { ...copy, snapshot: damaged, verifiedOnRead: false };
}

function flipLowestBit(hex: string): string {
  const last = parseInt(hex.slice(-1), 16) ^ 1;
  return hex.slice(0, -1) + last.toString(16);
}

function sortedCopies(store: TaskLocalStateStore): LocalCopy[] {
  return [...store.copies.values()].sort((a, b) => a.checkpointId - b.checkpointId);
}

function compareKeys(a: TaskLocalStateStoreKey, b: TaskLocalStateStoreKey): number {
  return (
    compareText(a.allocationId, b.allocationId) ||
    compareText(a.jobId, b.jobId) ||
    compareText(a.subtask.vertexId, b.subtask.vertexId) ||
    a.subtask.subtaskIndex - b.subtask.subtaskIndex
  );
}

/** Code-unit order, not locale order: the listing must be the same in every runtime. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

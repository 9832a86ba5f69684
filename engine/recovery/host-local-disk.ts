import type { SubtaskId, TaskStateSnapshot } from '../protocol.ts';
import { checksum } from './checksum.ts';
import { corruptedHandle, handleHoldsKeyGroup, localHandlePath, localKeyGroupsHandlesOf, type LocalKeyGroupsHandle } from './local-key-groups-handles.ts';

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
  /**
   * Names of every shared run (SST file) the copy references, those its checkpoint reused
   * included; their contents live once per store beside the copies (LocalRun), as the hard links
   * of Flink's native RocksDB checkpoint directories. Empty for a full snapshot.
   */
  readonly runs: readonly string[];
  /**
   * The key-group handles the copy's full keyed state was written as, once one of them was lost or
   * damaged (absent: as `localKeyGroupsHandlesOf` derives them: all present when complete).
   */
  readonly keyGroupHandles?: readonly LocalKeyGroupsHandle[];
}

/** The key-group handles of a copy (local-key-groups-handles.ts), present or not. */
export function keyGroupHandlesOfCopy(copy: LocalCopy): readonly LocalKeyGroupsHandle[] {
  return copy.keyGroupHandles ?? localKeyGroupsHandlesOf(copy.snapshot, copy.complete);
}

/**
 * One shared run of an incremental snapshot on the disk: stored once per subtask store however
 * many of its copies reference it (Flink hard-links the SST files of successive local RocksDB
 * checkpoints), deleted when no copy of the store references it any more.
 */
export interface LocalRun {
  readonly name: string;
  /** `<store directory>/shared/<name>` */
  readonly path: string;
  readonly bytes: number;
  readonly contents: unknown;
  /** checksum of the contents as written (checksum.ts, or of their encoded bytes when read back verified) */
  readonly checksum: string;
  /** known intact: read back as bytes that matched their checksum, or as written and undamaged since */
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
  /** the copy's key-group handles, named by the writer (absent: derived from the snapshot when asked) */
  keyGroupHandles?: readonly LocalKeyGroupsHandle[];
}

/** Picks copies by subtask, as the playground's `corruptLocalCopy(host, vertexId, subtask)` does. */
export interface LocalCopySelector {
  vertexId: string;
  subtaskIndex: number;
  /** only this checkpoint (default: every checkpoint of the subtask) */
  checkpointId?: number;
  /** only this shared run of the copies (corrupt/delete the run, not the copies' own files) */
  run?: string;
  /** only the key-group handle of the copies that holds this key group (the other handles stay intact) */
  keyGroup?: number;
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
   * one per TaskManager with a running rocksdb attempt: OPFS path and bytes (`inIndexedDb`: the
   * browser had no OPFS, the path names an IndexedDB database).
   */
  rocksdbWorkingDbs?: Array<{ taskManager: string; path: string; bytes: number; inIndexedDb?: true }>;
}

export interface LocalStoreListing {
  /** `aid_<allocation>/jid_<job>/vtx_<vertex>_sti_<subtask>` */
  directory: string;
  allocationId: string;
  jobId: string;
  vertexId: string;
  subtaskIndex: number;
  copies: Array<{ checkpointId: number; path: string; bytes: number; complete: boolean; confirmed: boolean }>;
  /** the shared runs on the disk, each once however many copies reference it */
  runs: Array<{ name: string; path: string; bytes: number }>;
}

export function localStoreDirectory(key: TaskLocalStateStoreKey): string {
  return `aid_${key.allocationId}/jid_${key.jobId}/vtx_${key.subtask.vertexId}_sti_${key.subtask.subtaskIndex}`;
}

export function localCopyPath(key: TaskLocalStateStoreKey, checkpointId: number): string {
  return `${localStoreDirectory(key)}/chk_${checkpointId}`;
}

export function localRunPath(key: TaskLocalStateStoreKey, runName: string): string {
  return `${localStoreDirectory(key)}/shared/${runName}`;
}

/** Whether a copy still matches the checksum it was written with. */
export function verifyLocalCopy(copy: LocalCopy): boolean {
  return copy.verifiedOnRead === true || checksum(copy.snapshot) === copy.checksum;
}

export function verifyLocalRun(run: LocalRun): boolean {
  return run.verifiedOnRead === true || checksum(run.contents) === run.checksum;
}

/**
 * The copy's own part of a snapshot: its shared files as handles (name and size), their contents
 * going to the store's runs. A snapshot without shared files is kept as it is.
 */
export function withoutRunContents(snapshot: TaskStateSnapshot): TaskStateSnapshot {
  if (!snapshot.sharedFiles) return snapshot;
  return { ...snapshot, sharedFiles: snapshot.sharedFiles.map((f) => ({ name: f.name, sizeBytes: f.sizeBytes })) };
}

/** Bytes of a copy that are its own, not in shared runs (the private state, operator state). */
function ownBytes(copy: LocalCopy): number {
  const runBytes = (copy.snapshot.sharedFiles ?? []).reduce((n, f) => n + f.sizeBytes, 0);
  return Math.max(0, copy.bytes - runBytes);
}

/** What reading a copy's runs found: every run's contents, or the first run that cannot be used. */
export type LocalRunsRead =
  | { ok: true; snapshot: TaskStateSnapshot }
  | { ok: false; reason: 'missing' | 'corrupt'; run: string; bytes: number };

interface TaskLocalStateStore {
  key: TaskLocalStateStoreKey;
  /** highest checkpoint confirmed (notify-complete) for this store; copies up to it are confirmed */
  lastConfirmed: number;
  copies: Map<number, LocalCopy>;
  /** run name → the run, shared by the copies that reference it */
  runs: Map<string, LocalRun>;
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
    const complete = write.complete ?? true;
    // A write in flight has not put its new runs down yet; a complete one adds those the disk lacks.
    if (complete) this.addRuns(key, (snapshot.sharedFiles ?? []).flatMap((f) => (f.contents === undefined ? [] : [{ name: f.name, bytes: f.sizeBytes, contents: f.contents }])));
    return this.storeOwn(key, checkpointId, withoutRunContents(snapshot), write);
  }

  /**
   * Adds the runs the store does not hold yet (a run already there is linked, not written again)
   * and returns the ones added. Without a checksum, one is taken of the contents when first needed;
   * `verified`: the checksum is of bytes that matched when the contents were written (intact until damaged).
   */
  addRuns(key: TaskLocalStateStoreKey, runs: ReadonlyArray<{ name: string; bytes: number; contents: unknown; checksum?: string; verified?: boolean }>): LocalRun[] {
    const store = this.#storeOf(key, true);
    const added: LocalRun[] = [];
    for (const r of runs) {
      if (store.runs.has(r.name)) continue;
      let recorded = r.checksum;
      const run: LocalRun = {
        name: r.name,
        path: localRunPath(key, r.name),
        bytes: r.bytes,
        contents: r.contents,
        get checksum() {
          return (recorded ??= checksum(r.contents));
        },
        ...(r.checksum === undefined || r.verified === true ? { verifiedOnRead: true } : {}),
      };
      store.runs.set(r.name, run);
      added.push(run);
    }
    return added;
  }

  /** Writes a copy's own part (shared files as handles): the runs it references are the store's. */
  protected storeOwn(key: TaskLocalStateStoreKey, checkpointId: number, snapshot: TaskStateSnapshot, write: LocalCopyWrite = {}): LocalCopy {
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
      runs: (snapshot.sharedFiles ?? []).map((f) => f.name),
      ...(write.keyGroupHandles === undefined ? {} : { keyGroupHandles: write.keyGroupHandles }),
      ...(typeof write.checksum === 'string' ? {} : { verifiedOnRead: true }),
    };
    this.#storeOf(key, true).copies.set(checkpointId, copy);
    return copy;
  }

  /** The copy of exactly this checkpoint (Flink's retrieveLocalState), or undefined. */
  retrieve(key: TaskLocalStateStoreKey, checkpointId: number): LocalCopy | undefined {
    return this.#storeOf(key, false)?.copies.get(checkpointId);
  }

  /**
   * The copy's snapshot with the contents of every run it references, read from the store's
   * runs, each verified against its checksum: what a local restore reads, nothing of it remote.
   */
  readRuns(copy: LocalCopy): LocalRunsRead {
    const store = this.#storeOf(copy.key, false);
    const files = copy.snapshot.sharedFiles;
    if (!files) return { ok: true, snapshot: copy.snapshot };
    const read: Array<{ name: string; sizeBytes: number; contents: unknown }> = [];
    for (const f of files) {
      const run = store?.runs.get(f.name);
      if (!run) return { ok: false, reason: 'missing', run: f.name, bytes: 0 };
      if (!verifyLocalRun(run)) return { ok: false, reason: 'corrupt', run: f.name, bytes: run.bytes };
      read.push({ name: f.name, sizeBytes: f.sizeBytes, contents: run.contents });
    }
    return { ok: true, snapshot: { ...copy.snapshot, sharedFiles: read } };
  }

  /** The runs a store holds (for persisting, tests and the inspector). */
  runsOf(key: TaskLocalStateStoreKey): LocalRun[] {
    return [...(this.#storeOf(key, false)?.runs.values() ?? [])].sort((a, b) => compareText(a.name, b.name));
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
      removed.push(...this.#prune(store, () => true), ...[...store.runs.values()].map((r) => r.path));
      this.#stores.delete(directory);
    }
    return removed;
  }

  /**
   * Replaces everything the disk holds with copies read back from where it persists them
   * (persistent-host-local-disk.ts), keeping each copy's recorded checksum, so damage done to
   * the stored bytes is found by verification as any other corruption.
   */
  adopt(
    copies: readonly LocalCopy[],
    confirmations: ReadonlyArray<{ key: TaskLocalStateStoreKey; lastConfirmed: number }>,
    runs: ReadonlyArray<{ key: TaskLocalStateStoreKey; run: LocalRun }> = [],
  ): void {
    this.#stores.clear();
    for (const c of confirmations) this.#storeOf(c.key, true).lastConfirmed = c.lastConfirmed;
    for (const copy of copies) this.#storeOf(copy.key, true).copies.set(copy.checkpointId, copy);
    for (const r of runs) this.#storeOf(r.key, true).runs.set(r.run.name, r.run);
  }

  /** The highest confirmed checkpoint of a store (-Infinity: none), for persisting it. */
  lastConfirmed(key: TaskLocalStateStoreKey): number {
    return this.#storeOf(key, false)?.lastConfirmed ?? -Infinity;
  }

  /** Replaces every copy on the disk by what `change` makes of it (same key and checkpoint), and every run by what `changeRun` makes of it. */
  replaceCopies(change: (copy: LocalCopy) => LocalCopy, changeRun: (run: LocalRun) => LocalRun = (r) => r): void {
    for (const store of this.#stores.values()) {
      for (const [id, copy] of store.copies) store.copies.set(id, change(copy));
      for (const [name, run] of store.runs) store.runs.set(name, changeRun(run));
    }
  }

  /** The host was lost: everything on its disk is gone. */
  wipe(): string[] {
    const removed = [...this.#selected(() => true).map((c) => c.path), ...[...this.#stores.values()].flatMap((s) => [...s.runs.values()].map((r) => r.path))];
    this.#stores.clear();
    return removed;
  }

  /** A playground fault: damages the selected copies (or, with `run`, that shared run) so that verification fails. Returns their paths. */
  corrupt(selector: LocalCopySelector, mode: CorruptionMode = 'content'): string[] {
    if (selector.run !== undefined) return this.#corruptRuns(selector, mode);
    if (selector.keyGroup !== undefined) return this.#changeHandles(selector, (copy, h) => ({ handles: [corruptedHandle(copy.snapshot, h)], lost: 0 }));
    const damaged = this.#selected((store) => matches(store.key, selector), selector.checkpointId);
    for (const copy of damaged) this.#storeOf(copy.key, false)!.copies.set(copy.checkpointId, corrupted(copy, mode));
    return damaged.map((c) => c.path);
  }

  /** A playground fault: the selected copies (or, with `run`, that shared run) disappear from the disk. Returns their paths, and those of runs no copy links any more. */
  delete(selector: LocalCopySelector): string[] {
    if (selector.run !== undefined) {
      const doomed = this.#selectedRuns(selector);
      for (const { store, run } of doomed) store.runs.delete(run.name);
      return doomed.map((d) => d.run.path);
    }
    // One handle file goes: the copy stays, partial.
    if (selector.keyGroup !== undefined) return this.#changeHandles(selector, (_, h) => ({ handles: [{ ...h, present: false }], lost: h.bytes }));
    // The copies go, and with them the runs no other copy links.
    const stores = [...this.#stores.values()].filter((s) => matches(s.key, selector)).sort((a, b) => compareKeys(a.key, b.key));
    return stores.flatMap((store) => this.#prune(store, (id) => selector.checkpointId === undefined || id === selector.checkpointId));
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
        runs: [...s.runs.values()].sort((a, b) => compareText(a.name, b.name)).map((r) => ({ name: r.name, path: r.path, bytes: r.bytes })),
        // Each run counts once, however many copies link it.
        bytes: sortedCopies(s).reduce((n, c) => n + ownBytes(c), 0) + [...s.runs.values()].reduce((n, r) => n + r.bytes, 0),
      }));
    const bytes = stores.reduce((n, s) => n + s.bytes, 0);
    return { host: this.host, bytes, stores: stores.map(({ bytes: _bytes, ...s }) => s) };
  }

  #storeOf(key: TaskLocalStateStoreKey, create: true): TaskLocalStateStore;
  #storeOf(key: TaskLocalStateStoreKey, create: false): TaskLocalStateStore | undefined;
  #storeOf(key: TaskLocalStateStoreKey, create: boolean): TaskLocalStateStore | undefined {
    const directory = localStoreDirectory(key);
    let store = this.#stores.get(directory);
    if (!store && create) {
      store = { key: { ...key, subtask: { ...key.subtask } }, lastConfirmed: -Infinity, copies: new Map(), runs: new Map() };
      this.#stores.set(directory, store);
    }
    return store;
  }

  /** Removes the doomed copies, then the runs no remaining copy references (the last hard link went). */
  #prune(store: TaskLocalStateStore, doomed: (checkpointId: number) => boolean): string[] {
    const removed = sortedCopies(store).filter((c) => doomed(c.checkpointId));
    for (const copy of removed) store.copies.delete(copy.checkpointId);
    if (removed.length === 0) return [];
    const referenced = new Set([...store.copies.values()].flatMap((c) => c.runs));
    const unlinked = [...store.runs.values()].filter((r) => !referenced.has(r.name)).sort((a, b) => compareText(a.name, b.name));
    for (const run of unlinked) store.runs.delete(run.name);
    return [...removed.map((c) => c.path), ...unlinked.map((r) => r.path)];
  }

  /**
   * Replaces, in every selected copy, the present handle holding `selector.keyGroup` by what
   * `change` makes of it, `lost` bytes leaving the disk (the copy is then partial). Returns the
   * handles' paths.
   */
  #changeHandles(selector: LocalCopySelector, change: (copy: LocalCopy, handle: LocalKeyGroupsHandle) => { handles: LocalKeyGroupsHandle[]; lost: number }): string[] {
    const paths: string[] = [];
    for (const copy of this.#selected((store) => matches(store.key, selector), selector.checkpointId)) {
      const handles = keyGroupHandlesOfCopy(copy);
      const i = handles.findIndex((h) => h.present && handleHoldsKeyGroup(h, selector.keyGroup!));
      if (i < 0) continue;
      const changed = change(copy, handles[i]!);
      const keyGroupHandles = [...handles.slice(0, i), ...changed.handles, ...handles.slice(i + 1)];
      const complete = keyGroupHandles.every((h) => h.present) && copy.complete;
      this.#storeOf(copy.key, false)!.copies.set(copy.checkpointId, withHandles(copy, keyGroupHandles, complete, copy.bytes - changed.lost));
      paths.push(localHandlePath(copy.path, handles[i]!));
    }
    return paths;
  }

  #selectedRuns(selector: LocalCopySelector): Array<{ store: TaskLocalStateStore; run: LocalRun }> {
    return [...this.#stores.values()]
      .filter((s) => matches(s.key, selector))
      .sort((a, b) => compareKeys(a.key, b.key))
      .flatMap((store) => {
        const run = store.runs.get(selector.run!);
        const linked = selector.checkpointId === undefined || store.copies.get(selector.checkpointId)?.runs.includes(selector.run!);
        return run && linked ? [{ store, run }] : [];
      });
  }

  #corruptRuns(selector: LocalCopySelector, mode: CorruptionMode): string[] {
    const damaged = this.#selectedRuns(selector);
    for (const { store, run } of damaged) store.runs.set(run.name, corruptedRun(run, mode));
    return damaged.map((d) => d.run.path);
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

/** A copy with other handles (the checksum getter of `copy` kept, not evaluated). */
function withHandles(copy: LocalCopy, keyGroupHandles: LocalKeyGroupsHandle[], complete: boolean, bytes: number): LocalCopy {
  const { key, checkpointId, path, snapshot, runs, verifiedOnRead } = copy;
  return {
    key,
    checkpointId,
    path,
    snapshot,
    runs,
    bytes,
    complete,
    keyGroupHandles,
    get checksum() {
      return copy.checksum;
    },
    ...(verifiedOnRead === undefined ? {} : { verifiedOnRead }),
  };
}

function corruptedRun(run: LocalRun, mode: CorruptionMode): LocalRun {
  const { name, path, bytes } = run;
  if (mode === 'checksum') return { name, path, bytes, contents: run.contents, checksum: flipLowestBit(run.checksum), verifiedOnRead: false };
  return { name, path, bytes, checksum: run.checksum, contents: { corrupted: 'bytes of a shared run on the local disk were damaged (injected)', was: run.contents }, verifiedOnRead: false };
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

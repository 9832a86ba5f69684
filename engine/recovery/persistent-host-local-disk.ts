/**
 * A host's local disk that persists (the browser's stand-in for the disk a TaskManager's working
 * directory lives on): the synchronous HostLocalDisk interface the drivers use, written through
 * to a LocalDiskStore in call order. The in-memory copies serve the synchronous simulation; a
 * driver that can wait (live) calls `reload()` before a restore, so the restore reads what the
 * store really holds: what survived the crash of the host's workers, and nothing a lost host had.
 *
 * A write to the store that fails is recorded in `errors` and never fails a checkpoint (the
 * restore then falls back to remote, as for a missing copy). Memory changed at once, the store
 * did not: once the writes queued after it are done, memory is made what the store holds again
 * (read back; emptied if the store cannot be read), so the two never disagree for longer.
 */
import type { TaskStateSnapshot } from '../protocol.ts';
import { fnv1a32Bytes } from './checksum.ts';
import { decodeSharedFile, decodeTaskStateSnapshot, encodeSharedFile, encodeTaskStateSnapshot, type DecodeOptions } from '../storage/snapshot-codec.ts';
import { HostLocalDisk, keyGroupHandlesOfCopy, localStoreDirectory, withoutRunContents, type CorruptionMode, type LocalCopy, type LocalCopySelector, type LocalCopyWrite, type LocalRun, type TaskLocalStateStoreKey } from './host-local-disk.ts';
import type { LocalCopyChecksumKind, LocalRunChecksumKind, LocalDiskBatch, LocalDiskStore, StoredLocalCopy, StoredLocalRun } from './local-disk-store.ts';

/**
 * The record of a copy for the store. `encoded`: the snapshot's bytes whose checksum the copy
 * records (store() below), so a restore can check the bytes before decoding them.
 */
function stored(copy: LocalCopy, encoded?: Uint8Array): StoredLocalCopy {
  const { key, checkpointId, path, bytes, checksum, complete } = copy;
  const runs = { ...(copy.runs.length > 0 ? { runs: [...copy.runs] } : {}), ...(copy.keyGroupHandles ? { keyGroupHandles: [...copy.keyGroupHandles] } : {}) };
  if (encoded) return { path, key, checkpointId, bytes, checksum, complete, snapshot: encoded, checksumOf: 'bytes', ...runs };
  return { path, key, checkpointId, bytes, checksum, complete, snapshot: encodeTaskStateSnapshot(copy.snapshot), ...runs };
}

/**
 * The record of a shared run for the store; `sent`: its bytes, then checksummed as bytes
 * (fnv1a32Bytes), or, `checksumOf: 'xxh64'`, with the XXH64 its TaskManager gave it as `run.checksum`.
 */
function storedRun(key: TaskLocalStateStoreKey, run: LocalRun, sent?: Pick<EncodedLocalRun, 'encoded' | 'checksumOf'>): StoredLocalRun {
  const { path, name, bytes, checksum } = run;
  if (sent?.checksumOf === 'xxh64') return { path, key, name, bytes, checksum, checksumOf: 'xxh64', contents: sent.encoded };
  if (sent) return { path, key, name, bytes, checksum: fnv1a32Bytes(sent.encoded), checksumOf: 'bytes', contents: sent.encoded };
  return { path, key, name, bytes, checksum, contents: encodeSharedFile(name, run.contents) };
}

/**
 * A stored run back as a LocalRun; bytes that do not match or decode become contents that fail
 * their checksum. An XXH64 is not checked here, where reading must be synchronous: such a run comes
 * back failing verification; the TaskManagers read their runs through verifiedStoredCopy.
 */
function loadedRun(record: StoredLocalRun, options?: DecodeOptions): { key: TaskLocalStateStoreKey; run: LocalRun } {
  return { key: record.key, run: checkedRun(record, options) };
}

function checkedRun(record: StoredLocalRun, options?: DecodeOptions): LocalRun {
  if (record.checksumOf === 'xxh64') return unreadableLocalRun(record, 'its xxh64 checksum is checked by the TaskManager that reads it');
  if (record.checksumOf === 'bytes' && fnv1a32Bytes(record.contents) !== record.checksum) return unreadableLocalRun(record, 'its bytes do not match their checksum');
  return decodedLocalRun(record, options);
}

/**
 * A stored run decoded, trusted as its bytes are (verified on read when its checksum is of the
 * bytes: the caller checked them, or, 'bytes', they were checked before); bytes that do not decode
 * become a run that fails verification.
 */
export function decodedLocalRun(record: StoredLocalRun, options?: DecodeOptions): LocalRun {
  const { path, name, bytes, checksum } = record;
  try {
    const contents = decodeSharedFile(record.contents, options).contents;
    return { path, name, bytes, checksum, contents, ...(record.checksumOf !== undefined ? { verifiedOnRead: true } : {}) };
  } catch (error) {
    return unreadableLocalRun(record, `the stored run does not decode: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A run that cannot be trusted: contents that fail verification, saying why. */
export function unreadableLocalRun(record: StoredLocalRun, why: string): LocalRun {
  const { path, name, bytes, checksum } = record;
  return { path, name, bytes, checksum, contents: { unreadable: why }, verifiedOnRead: false };
}

/**
 * A stored copy back as a LocalCopy; bytes that do not decode become a snapshot that fails its
 * checksum. An XXH64 or SHA-256 checksum (a live TaskManager's, workers/local-copy-digest.ts) is
 * not checked here, where reading must be synchronous: such a copy comes back failing verification, so a restore from this
 * reading falls back to remote; the TaskManagers read their copies through verifiedStoredCopy.
 */
function loaded(record: StoredLocalCopy): LocalCopy {
  // Bytes checked before decoding: damaged ones are not trusted whatever they decode to.
  if (record.checksumOf === 'bytes' && fnv1a32Bytes(record.snapshot) !== record.checksum) return unreadableLocalCopy(record, 'its bytes do not match their checksum');
  if (record.checksumOf === 'xxh64' || record.checksumOf === 'sha-256') return unreadableLocalCopy(record, `its ${record.checksumOf} checksum is checked by the TaskManager that reads it`);
  return decodedLocalCopy(record);
}

/**
 * A stored copy decoded, trusted as its bytes are: the caller checked them (or checks them
 * meanwhile and drops the result when they do not match). Bytes that do not decode become a copy
 * that fails verification.
 */
export function decodedLocalCopy(record: StoredLocalCopy, options?: DecodeOptions): LocalCopy {
  let snapshot: TaskStateSnapshot;
  try {
    snapshot = decodeTaskStateSnapshot(record.snapshot, options);
  } catch (error) {
    return unreadableLocalCopy(record, `the stored copy does not decode: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { key, checkpointId, path, bytes, checksum, complete } = record;
  const runs = record.runs ?? (snapshot.sharedFiles ?? []).map((f) => f.name);
  const handles = record.keyGroupHandles ? { keyGroupHandles: record.keyGroupHandles } : {};
  const verified = record.checksumOf === undefined ? {} : { verifiedOnRead: true };
  return { key, checkpointId, path, bytes, checksum, complete, snapshot, runs, ...handles, ...verified };
}

/**
 * One copy read back by path with its runs (a TaskManager's read of its own host's disk), each
 * checked against its checksum: bytes that do not match or decode come back as a copy or run that
 * fails verification (verifyLocalCopy), with why.
 */
export function verifiedLocalCopy(record: StoredLocalCopy, runs: readonly StoredLocalRun[]): { copy: LocalCopy; runs: LocalRun[] } {
  return { copy: loaded(record), runs: verifiedLocalRuns(runs) };
}

/** Stored runs back, each checked against its checksum (one that does not match or decode fails verification). */
export function verifiedLocalRuns(runs: readonly StoredLocalRun[], options?: DecodeOptions): LocalRun[] {
  return runs.map((r) => loadedRun(r, options).run);
}

/** A copy that cannot be trusted: a snapshot that fails verification against the recorded checksum. */
export function unreadableLocalCopy(record: StoredLocalCopy, why: string): LocalCopy {
  const { key, checkpointId, path, bytes, checksum, complete } = record;
  const snapshot: TaskStateSnapshot = { subtask: { ...record.key.subtask }, keyedState: { unreadable: why }, stateSize: record.bytes, checkpointedSize: 0 };
  return { key, checkpointId, path, bytes, checksum, complete, snapshot, runs: record.runs ?? [] };
}

/**
 * A copy's snapshot once its bytes are only in the store: the subtask and the sizes. It fails
 * verification (its checksum is the full snapshot's), so a restore that could not reload the
 * store falls back to remote storage.
 */
function contentless(snapshot: TaskStateSnapshot): TaskStateSnapshot {
  const handles = snapshot.sharedFiles ? { sharedFiles: snapshot.sharedFiles.map((f) => ({ name: f.name, sizeBytes: f.sizeBytes })) } : {};
  return { subtask: { ...snapshot.subtask }, stateSize: snapshot.stateSize, checkpointedSize: snapshot.checkpointedSize, ...handles };
}

/** A run once its bytes are only in the store: fails verification until `reload()` reads it back. */
function contentlessRun(run: LocalRun): LocalRun {
  const { name, path, bytes, checksum } = run;
  return { name, path, bytes, checksum, contents: undefined, verifiedOnRead: false };
}

/** A run a TaskManager sent encoded (encodeSharedFile), with the checksum of the bytes it computed. */
export interface EncodedLocalRun {
  name: string;
  bytes: number;
  encoded: Uint8Array;
  /** of `encoded`, as `checksumOf` says (default 'bytes': fnv1a32Bytes) */
  checksum: string;
  checksumOf?: LocalRunChecksumKind;
}

export interface PersistentHostLocalDiskOptions {
  /**
   * Keep each copy's snapshot in memory beside the store (default true, for callers that read
   * copies synchronously without `reload()`). false: memory holds the copies' handles only (path,
   * bytes, checksum) as a disk's directory listing does; `reload()` reads the snapshots back for a
   * restore and `releaseContents()` lets go of them after it.
   */
  contentsInMemory?: boolean;
  /**
   * Resolves in a later task of the host (a driver's scheduler; the engine has no timers). With
   * contents in memory, a copy is encoded for the store only then, one copy per task, not in the
   * simulation step that wrote it. Default: right after the write before it (a microtask).
   */
  nextTask?: () => Promise<void>;
}

export class PersistentHostLocalDisk extends HostLocalDisk {
  readonly persistence: LocalDiskStore;
  /** messages of writes to the store that failed */
  readonly errors: string[] = [];
  #queue: Promise<void> = Promise.resolve();
  /** writes queued and not yet done */
  #pending = 0;
  /** a write failed since memory last matched the store */
  #diverged = false;
  readonly #contentsInMemory: boolean;
  readonly #nextTask: () => Promise<void>;

  constructor(host: string, store: LocalDiskStore, options: PersistentHostLocalDiskOptions = {}) {
    super(host);
    this.persistence = store;
    this.#contentsInMemory = options.contentsInMemory ?? true;
    this.#nextTask = options.nextTask ?? (() => Promise.resolve());
  }

  /** Without contents in memory: every copy's snapshot goes back to the store only (after a restore read them). */
  releaseContents(): void {
    if (this.#contentsInMemory) return;
    this.replaceCopies((copy) => ({ ...copy, snapshot: contentless(copy.snapshot) }), contentlessRun);
  }

  /** Resolves when every write so far reached the store. */
  persisted(): Promise<void> {
    return this.#queue;
  }

  /**
   * Waits for the writes so far, then replaces the in-memory copies with what the store holds.
   * A store that cannot be read leaves the copies as they are (recorded in `errors`).
   */
  async reload(): Promise<void> {
    await this.#queue;
    try {
      const { copies, confirmations, runs } = await this.persistence.read();
      this.adopt(copies.map(loaded), confirmations, (runs ?? []).map((r) => loadedRun(r)));
    } catch (error) {
      this.#recordError(error);
    }
  }

  /**
   * The copy's checksum is of its encoded bytes (fnv1a32Bytes), so one encoding serves the store
   * and the checksum: serializing it again for a checksum of its JSON cost as much again, on the
   * page's main thread in the sim.
   */
  protected override storeOwn(key: TaskLocalStateStoreKey, checkpointId: number, snapshot: TaskStateSnapshot, write: LocalCopyWrite = {}): LocalCopy {
    if (write.checksum !== undefined) {
      const copy = super.storeOwn(key, checkpointId, snapshot, write);
      this.#write(() => ({ put: [stored(copy)] }));
      return copy;
    }
    if (!this.#contentsInMemory) {
      // Encoded now, so the snapshot need not stay in memory until the write runs.
      const encoded = encodeTaskStateSnapshot(snapshot);
      const checksum = fnv1a32Bytes(encoded);
      const copy = super.storeOwn(key, checkpointId, snapshot, { ...write, checksum: () => checksum });
      this.#write({ put: [stored(copy, encoded)] });
      // The handles are named now, while the key groups are at hand: a fault can then hit one of them.
      return super.storeOwn(key, checkpointId, contentless(snapshot), { complete: copy.complete, bytes: copy.bytes, checksum, keyGroupHandles: keyGroupHandlesOfCopy(copy) });
    }
    // The snapshot stays in memory anyway: encoded in a task of its own, or earlier if the checksum is asked for.
    let encoded: Uint8Array | undefined;
    const encode = () => (encoded ??= encodeTaskStateSnapshot(snapshot));
    const copy = super.storeOwn(key, checkpointId, snapshot, { ...write, checksum: () => fnv1a32Bytes(encode()) });
    this.#write(() => {
      const record = stored(copy, encode());
      encoded = undefined;
      return { put: [record] };
    });
    return copy;
  }

  /**
   * Runs new to the store go to it beside the copy that brought them: a run the store holds
   * already is linked by the new copy, not written again. Encoded now (the checksum is of the
   * bytes stored); memory keeps the contents only with contents in memory.
   */
  override addRuns(key: TaskLocalStateStoreKey, runs: ReadonlyArray<{ name: string; bytes: number; contents: unknown; checksum?: string; verified?: boolean }>): LocalRun[] {
    if (this.#contentsInMemory) {
      // The contents stay in memory anyway: encoded for the store in a task of its own, as copies are.
      const added = super.addRuns(key, runs);
      if (added.length > 0) this.#write(() => ({ putRuns: added.map((run) => storedRun(key, run, { encoded: encodeSharedFile(run.name, run.contents) })) }));
      return added;
    }
    const held = new Set(this.runsOf(key).map((r) => r.name));
    const fresh = runs.filter((r) => !held.has(r.name)).map((r) => ({ ...r, encoded: encodeSharedFile(r.name, r.contents) }));
    return this.#addEncodedRuns(key, fresh.map((r) => ({ name: r.name, bytes: r.bytes, encoded: r.encoded, checksum: fnv1a32Bytes(r.encoded), contents: r.contents })));
  }

  #addEncodedRuns(key: TaskLocalStateStoreKey, runs: ReadonlyArray<EncodedLocalRun & { contents?: unknown }>): LocalRun[] {
    const held = new Set(this.runsOf(key).map((r) => r.name));
    const fresh = runs.filter((r) => !held.has(r.name));
    if (fresh.length === 0) return [];
    const added = super.addRuns(
      key,
      // Kept in memory, the contents are as written: intact until damaged. Otherwise only the store has them.
      fresh.map((r) => ({ name: r.name, bytes: r.bytes, contents: this.#contentsInMemory ? (r.contents ?? decodeSharedFile(r.encoded).contents) : undefined, checksum: r.checksum, verified: this.#contentsInMemory })),
    );
    const byName = new Map(fresh.map((r) => [r.name, r]));
    this.#write({ putRuns: added.map((run) => storedRun(key, run, byName.get(run.name))) });
    return added;
  }

  /**
   * Writes a copy that arrives encoded (from a TaskManager, with the checksum it computed of the
   * bytes: fnv1a32Bytes, or with `checksumOf: 'xxh64'` their XXH64): straight to the store, without decoding it here, with the runs it
   * brought that the store lacks (`newRuns`; `runs`: every run it references). Memory keeps the
   * copy's handle, or the decoded snapshot when contents stay in memory.
   */
  storeEncoded(
    key: TaskLocalStateStoreKey,
    checkpointId: number,
    encoded: Uint8Array,
    write: Required<Pick<LocalCopyWrite, 'bytes' | 'checksum'>> & LocalCopyWrite & { checksumOf?: LocalCopyChecksumKind; runs?: ReadonlyArray<{ name: string; sizeBytes: number }>; newRuns?: readonly EncodedLocalRun[] },
  ): LocalCopy {
    if (write.complete ?? true) this.#addEncodedRuns(key, write.newRuns ?? []);
    if (this.#contentsInMemory) return this.storeOwn(key, checkpointId, withoutRunContents(decodeTaskStateSnapshot(encoded)), { complete: write.complete, bytes: write.bytes });
    const handles = write.runs ? { sharedFiles: write.runs.map((r) => ({ name: r.name, sizeBytes: r.sizeBytes })) } : {};
    const handle: TaskStateSnapshot = { subtask: { ...key.subtask }, stateSize: write.bytes, checkpointedSize: write.bytes, ...handles };
    const copy = super.storeOwn(key, checkpointId, handle, write);
    const { path, bytes, checksum, complete } = copy;
    const runs = copy.runs.length > 0 ? { runs: [...copy.runs] } : {};
    this.#write({ put: [{ path, key: copy.key, checkpointId, bytes, checksum, complete, snapshot: encoded, checksumOf: write.checksumOf ?? 'bytes', ...runs }] });
    return copy;
  }

  override confirmCheckpoint(key: TaskLocalStateStoreKey, checkpointId: number): string[] {
    const removed = super.confirmCheckpoint(key, checkpointId);
    const lastConfirmed = this.lastConfirmed(key);
    if (lastConfirmed !== -Infinity) this.#write({ delete: removed, confirm: [{ directory: localStoreDirectory(key), key, lastConfirmed }] });
    return removed;
  }

  override abortCheckpoint(key: TaskLocalStateStoreKey, checkpointId: number): string[] {
    return this.#removed(super.abortCheckpoint(key, checkpointId));
  }

  override pruneAllBut(key: TaskLocalStateStoreKey, checkpointId: number): string[] {
    return this.#removed(super.pruneAllBut(key, checkpointId));
  }

  override releaseAllocation(allocationId: string): string[] {
    return this.#removed(super.releaseAllocation(allocationId));
  }

  override delete(selector: LocalCopySelector): string[] {
    if (selector.keyGroup !== undefined) return this.#handlesChanged(super.delete(selector));
    return this.#removed(super.delete(selector));
  }

  /** A handle of some copies was lost or damaged: the store records their handles, their snapshots stay. */
  #handlesChanged(paths: string[]): string[] {
    const copies = this.list().stores.flatMap((s) => {
      const key = { allocationId: s.allocationId, jobId: s.jobId, subtask: { vertexId: s.vertexId, subtaskIndex: s.subtaskIndex } };
      return s.copies.filter((c) => paths.some((p) => p.startsWith(`${c.path}/`))).map((c) => this.retrieve(key, c.checkpointId)!);
    });
    const patch = copies.map((c) => ({ path: c.path, complete: c.complete, bytes: c.bytes, keyGroupHandles: [...keyGroupHandlesOfCopy(c)] }));
    if (patch.length > 0) this.#write({ patch });
    return paths;
  }

  override wipe(): string[] {
    const removed = super.wipe();
    this.#write({ clear: true });
    return removed;
  }

  override corrupt(selector: LocalCopySelector, mode: CorruptionMode = 'content'): string[] {
    const damaged = super.corrupt(selector, mode);
    if (selector.keyGroup !== undefined) return this.#handlesChanged(damaged);
    if (selector.run !== undefined) {
      const runs = this.list().stores.flatMap((s) => {
        const key = { allocationId: s.allocationId, jobId: s.jobId, subtask: { vertexId: s.vertexId, subtaskIndex: s.subtaskIndex } };
        return this.runsOf(key).filter((r) => damaged.includes(r.path)).map((r) => storedRun(key, r));
      });
      if (runs.length > 0) this.#write({ putRuns: runs });
      return damaged;
    }
    const copies = this.list().stores.flatMap((s) =>
      s.copies
        .filter((c) => damaged.includes(c.path))
        .map((c) => this.retrieve({ allocationId: s.allocationId, jobId: s.jobId, subtask: { vertexId: s.vertexId, subtaskIndex: s.subtaskIndex } }, c.checkpointId)!),
    );
    if (copies.length > 0) this.#write({ put: copies.map((copy) => stored(copy)) });
    return damaged;
  }

  #removed(paths: string[]): string[] {
    if (paths.length > 0) this.#write({ delete: paths });
    return paths;
  }

  /** Queues a batch in call order; one given as a function is built in a later task (`nextTask`), when its turn comes. */
  #write(batch: LocalDiskBatch | (() => LocalDiskBatch)): void {
    const deferred = typeof batch === 'function';
    this.#pending++;
    this.#queue = this.#queue
      .then(() => (deferred ? this.#nextTask() : undefined))
      .then(() => this.persistence.apply(deferred ? batch() : batch))
      .catch((error: unknown) => {
        this.#recordError(error);
        this.#diverged = true;
      })
      .then(() => {
        this.#pending--;
        if (this.#diverged && this.#pending === 0) return this.#reconcile();
      });
  }

  /**
   * Makes memory what the store holds after a write to it failed. Only when no write is queued:
   * memory already holds what a queued write will bring, and reading the store before it landed
   * would lose that. A write queued while the store is read calls this again when it is done.
   */
  async #reconcile(): Promise<void> {
    let read: Awaited<ReturnType<LocalDiskStore['read']>> | undefined;
    try {
      read = await this.persistence.read();
    } catch (error) {
      this.#recordError(error);
    }
    if (this.#pending > 0) return;
    // Unread, the store may still hold copies memory no longer knows: the next write tries again.
    this.#diverged = read === undefined;
    // Unreadable: no copy in memory can be vouched for, so none is offered for a local restore.
    if (!read) return this.adopt([], []);
    this.adopt(read.copies.map(loaded), read.confirmations, (read.runs ?? []).map((r) => loadedRun(r)));
    this.releaseContents();
  }

  #recordError(error: unknown): void {
    this.errors.push(`${this.persistence.name}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
}

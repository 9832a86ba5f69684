/**
 * A host's local disk that persists (the browser's stand-in for the disk a TaskManager's working
 * directory lives on): the synchronous HostLocalDisk interface the drivers use, written through
 * to a LocalDiskStore in call order. The in-memory copies serve the synchronous simulation; a
 * driver that can wait (live) calls `reload()` before a restore, so the restore reads what the
 * store really holds: what survived the crash of the host's workers, and nothing a lost host had.
 *
 * A write to the store that fails is recorded in `errors` and otherwise ignored: a local copy
 * never fails a checkpoint (the restore then falls back to remote, as for a missing copy).
 */
import type { TaskStateSnapshot } from '../protocol.ts';
import { decodeTaskStateSnapshot, encodeTaskStateSnapshot } from '../storage/snapshot-codec.ts';
import { HostLocalDisk, localStoreDirectory, type CorruptionMode, type LocalCopy, type LocalCopySelector, type TaskLocalStateStoreKey } from './host-local-disk.ts';
import type { LocalDiskBatch, LocalDiskStore, StoredLocalCopy } from './local-disk-store.ts';

function stored(copy: LocalCopy): StoredLocalCopy {
  const { key, checkpointId, path, bytes, checksum, complete } = copy;
  return { path, key, checkpointId, bytes, checksum, complete, snapshot: encodeTaskStateSnapshot(copy.snapshot) };
}

/** A stored copy back as a LocalCopy; bytes that do not decode become a snapshot that fails its checksum. */
function loaded(record: StoredLocalCopy): LocalCopy {
  let snapshot: TaskStateSnapshot;
  try {
    snapshot = decodeTaskStateSnapshot(record.snapshot);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    snapshot = { subtask: { ...record.key.subtask }, keyedState: { unreadable: `the stored copy does not decode: ${detail}` }, stateSize: record.bytes, checkpointedSize: 0 };
  }
  const { key, checkpointId, path, bytes, checksum, complete } = record;
  return { key, checkpointId, path, bytes, checksum, complete, snapshot };
}

export class PersistentHostLocalDisk extends HostLocalDisk {
  readonly persistence: LocalDiskStore;
  /** messages of writes to the store that failed */
  readonly errors: string[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(host: string, store: LocalDiskStore) {
    super(host);
    this.persistence = store;
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
      const { copies, confirmations } = await this.persistence.read();
      this.adopt(copies.map(loaded), confirmations);
    } catch (error) {
      this.#recordError(error);
    }
  }

  override store(key: TaskLocalStateStoreKey, checkpointId: number, snapshot: TaskStateSnapshot, write: { complete?: boolean; bytes?: number } = {}): LocalCopy {
    const copy = super.store(key, checkpointId, snapshot, write);
    this.#write({ put: [stored(copy)] });
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
    return this.#removed(super.delete(selector));
  }

  override wipe(): string[] {
    const removed = super.wipe();
    this.#write({ clear: true });
    return removed;
  }

  override corrupt(selector: LocalCopySelector, mode: CorruptionMode = 'content'): string[] {
    const damaged = super.corrupt(selector, mode);
    const copies = this.list().stores.flatMap((s) =>
      s.copies
        .filter((c) => damaged.includes(c.path))
        .map((c) => this.retrieve({ allocationId: s.allocationId, jobId: s.jobId, subtask: { vertexId: s.vertexId, subtaskIndex: s.subtaskIndex } }, c.checkpointId)!),
    );
    if (copies.length > 0) this.#write({ put: copies.map(stored) });
    return damaged;
  }

  #removed(paths: string[]): string[] {
    if (paths.length > 0) this.#write({ delete: paths });
    return paths;
  }

  #write(batch: LocalDiskBatch): void {
    this.#queue = this.#queue
      .then(() => this.persistence.apply(batch))
      .catch((error: unknown) => this.#recordError(error));
  }

  #recordError(error: unknown): void {
    this.errors.push(`${this.persistence.name}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
}

/**
 * A host's local disk for the page's simulation: kept in memory as the sim reads it (synchronously)
 * and persisted to the host's IndexedDB database (workers/storage/indexeddb-local-disk-store.ts),
 * whose code (with `idb`) loads with the disk's first write. A run writes a local copy at its
 * first checkpoint at the earliest, so the first page does not carry that code.
 */
import type { HostLocalDisk } from '../../../engine/recovery/host-local-disk.ts';
import type { LocalDiskBatch, LocalDiskStore, StoredConfirmation, StoredLocalCopy, StoredLocalRun } from '../../../engine/recovery/local-disk-store.ts';
import { PersistentHostLocalDisk } from '../../../engine/recovery/persistent-host-local-disk.ts';
import { localDiskDatabaseName } from '../../../workers/storage/database-names.ts';
import type { IndexedDbLocalDiskStore } from '../../../workers/storage/indexeddb-local-disk-store.ts';
import { nextTask } from '../../next-task.ts';

/** The local disk of `host` of the sim run whose disks are under `root` (run-storage-lease.ts, simRunRoot). */
export function openSimHostLocalDisk(host: string, root: string): HostLocalDisk {
  return new PersistentHostLocalDisk(host, new DeferredLocalDiskStore(localDiskDatabaseName(root, host)), { contentsInMemory: true, nextTask });
}

/** The IndexedDB store of a host's disk, opened (its module loaded) by the first request. */
class DeferredLocalDiskStore implements LocalDiskStore {
  readonly name: string;
  #store: Promise<IndexedDbLocalDiskStore> | undefined;

  constructor(name: string) {
    this.name = name;
  }

  async apply(batch: LocalDiskBatch): Promise<void> {
    return (await this.#open()).apply(batch);
  }

  async read(): Promise<{ copies: StoredLocalCopy[]; confirmations: StoredConfirmation[]; runs?: StoredLocalRun[] }> {
    return (await this.#open()).read();
  }

  async close(): Promise<void> {
    if (this.#store) await (await this.#store).close();
  }

  /** A store never opened never created its database (each run's disks have names of their own): nothing to delete. */
  async destroy(): Promise<void> {
    if (this.#store) await (await this.#store).destroy();
  }

  #open(): Promise<IndexedDbLocalDiskStore> {
    this.#store ??= import('../../../workers/storage/indexeddb-local-disk-store.ts').then(({ IndexedDbLocalDiskStore }) => new IndexedDbLocalDiskStore(this.name));
    return this.#store;
  }
}

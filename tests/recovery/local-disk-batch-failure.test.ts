/**
 * A host's local disk whose IndexedDB batch fails for real (its transaction aborted, or the
 * database taken by another tab): memory, changed at once, is made what the database holds again
 * once the writes queued after it are done, so the two never disagree until a reload. Checked by
 * comparing the disk's listing with that of a fresh disk reading the same database (fake-indexeddb).
 */
import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { LocalDiskListing } from '../../engine/recovery/host-local-disk.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { keyOf, snapshot } from './local-state-fixtures.ts';

const HOST = 'host-0';
const KEY = keyOf('tm-0/slot-0');
let databases = 0;

/** The live JobManager's kind of disk: handles in memory, bytes in the database. */
function openDisk(): { disk: PersistentHostLocalDisk; store: IndexedDbLocalDiskStore } {
  const store = new IndexedDbLocalDiskStore(localDiskDatabaseName(`checkpoint-playground/batch-failure-${++databases}/checkpoints`, HOST));
  return { disk: new PersistentHostLocalDisk(HOST, store, { contentsInMemory: false }), store };
}

/** What the database holds, as a fresh disk over it lists it. */
async function listingOfDatabase(name: string): Promise<LocalDiskListing> {
  const store = new IndexedDbLocalDiskStore(name);
  const fresh = new PersistentHostLocalDisk(HOST, store, { contentsInMemory: false });
  await fresh.reload();
  await store.close();
  return fresh.list();
}

function checkpointIds(listing: LocalDiskListing): number[] {
  return listing.stores.flatMap((s) => s.copies.map((c) => c.checkpointId));
}

/** Aborts the store's next batch for real, in the middle of its transaction. */
function abortNextBatch(store: IndexedDbLocalDiskStore): void {
  store.onReadWriteTransaction = (tx) => {
    store.onReadWriteTransaction = undefined;
    tx.abort();
  };
}

describe('a local disk batch that fails in IndexedDB', () => {
  it('drops from memory a copy whose write was aborted, so no restore trusts a copy the disk lacks', async () => {
    const { disk, store } = openDisk();
    disk.store(KEY, 4, snapshot(4));
    disk.confirmCheckpoint(KEY, 4);
    await disk.persisted();

    abortNextBatch(store);
    disk.store(KEY, 5, snapshot(5));
    expect(checkpointIds(disk.list())).toEqual([4, 5]);
    await disk.persisted();
    expect(disk.errors).toEqual([expect.stringMatching(/^checkpoint-playground\/batch-failure-\d+\/checkpoints\/local-disk\/host-0: AbortError/)]);
    expect(checkpointIds(disk.list())).toEqual([4]);
    expect(disk.list()).toEqual(await listingOfDatabase(store.name));
    await store.close();
  });

  it('takes back into memory a copy whose deletion was aborted, and prunes it again on the next confirmation', async () => {
    const { disk, store } = openDisk();
    disk.store(KEY, 4, snapshot(4));
    disk.confirmCheckpoint(KEY, 4);
    disk.store(KEY, 5, snapshot(5));
    await disk.persisted();

    // Confirming 5 prunes 4 in memory; the batch deleting it from the database is aborted.
    abortNextBatch(store);
    disk.confirmCheckpoint(KEY, 5);
    await disk.persisted();
    expect(disk.list()).toEqual(await listingOfDatabase(store.name));
    expect(checkpointIds(disk.list())).toEqual([4, 5]);
    expect(disk.lastConfirmed(KEY)).toBe(4);

    disk.confirmCheckpoint(KEY, 5);
    await disk.persisted();
    expect(checkpointIds(await listingOfDatabase(store.name))).toEqual([5]);
    expect(disk.list()).toEqual(await listingOfDatabase(store.name));
    await store.close();
  });

  it('keeps a write queued behind the failed one: memory is read back only once the queue is done', async () => {
    const { disk, store } = openDisk();
    abortNextBatch(store);
    disk.store(KEY, 4, snapshot(4));
    disk.store(KEY, 5, snapshot(5));
    await disk.persisted();
    expect(checkpointIds(disk.list())).toEqual([5]);
    expect(disk.list()).toEqual(await listingOfDatabase(store.name));
    await store.close();
  });

  it('offers no copy for a local restore once another tab deleted the database, and says why', async () => {
    const { disk, store } = openDisk();
    disk.store(KEY, 4, snapshot(4));
    disk.confirmCheckpoint(KEY, 4);
    await disk.persisted();

    await deleteDB(store.name);
    disk.store(KEY, 5, snapshot(5));
    await disk.persisted();
    expect(disk.errors.length).toBeGreaterThanOrEqual(1);
    for (const error of disk.errors) expect(error).toContain('the local disk database was closed: another tab or connection deletes it');
    expect(disk.errors.join('\n')).not.toMatch(/InvalidStateError/);
    expect(disk.list().stores).toEqual([]);
    expect(disk.retrieve(KEY, 4)).toBeUndefined();
  });
});

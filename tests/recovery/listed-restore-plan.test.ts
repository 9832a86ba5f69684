/**
 * The live JobManager's restore plan from a host's disk listing (decideSubtaskRestore with
 * `localCopies: 'listed'`), on the kind of disk it keeps (handles in memory, bytes in IndexedDB,
 * fake-indexeddb here): it picks a copy the listing shows whole, names the present handles of a
 * partial one, never picks a copy whose write did not finish, and reads no byte of the disk's
 * database to decide. Damage it cannot see: the TaskManager that reads the copy verifies it
 * (tests/live/task-restore-handle-choice.test.ts).
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import { localCopyPath } from '../../engine/recovery/host-local-disk.ts';
import { decideSubtaskRestore, type SubtaskRestoreDecision } from '../../engine/recovery/local-recovery.ts';
import type { StoredLocalCopy } from '../../engine/recovery/local-disk-store.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName, localDisksSettled } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { MiB, keyOf, sameSlotRestore, snapshot } from './local-state-fixtures.ts';

const CHECKPOINT = 5;
const SLOT = { slotId: 'tm-0/slot-0', host: 'host-0' };
const KEY = keyOf(SLOT.slotId);
let databases = 0;

function openDisk(): { disk: PersistentHostLocalDisk; store: IndexedDbLocalDiskStore } {
  const store = new IndexedDbLocalDiskStore(localDiskDatabaseName(`checkpoint-playground/listed-plan-${++databases}/checkpoints`, SLOT.host));
  return { disk: new PersistentHostLocalDisk(SLOT.host, store, { contentsInMemory: false }), store };
}

/** Plans once the disk's writes settled, as the live JobManager does, counting the reads of its database meanwhile. */
async function planFromListing(disk: PersistentHostLocalDisk, store: IndexedDbLocalDiskStore): Promise<{ decision: SubtaskRestoreDecision; databaseReads: number }> {
  await localDisksSettled([disk]);
  const read = vi.spyOn(store, 'read');
  const readCopy = vi.spyOn(store, 'readCopy');
  const decision = decideSubtaskRestore({ ...sameSlotRestore(disk, SLOT, CHECKPOINT), localCopies: 'listed' });
  const databaseReads = read.mock.calls.length + readCopy.mock.calls.length;
  await store.close();
  return { decision, databaseReads };
}

describe('the live JobManager plans a restore from its hosts’ disk listings', () => {
  it('picks a copy the listing shows whole, reading nothing of the disk to decide', async () => {
    const { disk, store } = openDisk();
    disk.store(KEY, CHECKPOINT, snapshot(CHECKPOINT));
    const { decision, databaseReads } = await planFromListing(disk, store);
    expect(decision).toMatchObject({ source: 'local', bytes: MiB });
    expect(databaseReads).toBe(0);
  });

  it('never picks a copy whose write did not finish: a transaction aborted part way leaves nothing in the listing', async () => {
    const { disk, store } = openDisk();
    // The write is cut off in the middle of its transaction, as when the page or the disk goes while writing.
    store.onReadWriteTransaction = (tx) => {
      store.onReadWriteTransaction = undefined;
      tx.abort();
    };
    disk.store(KEY, CHECKPOINT, snapshot(CHECKPOINT));
    const { decision } = await planFromListing(disk, store);
    expect(decision).toMatchObject({ source: 'remote', reason: 'missing' });
  });

  it('names only the present key-group handles of a copy that lost one, the rest from remote (partial)', async () => {
    const { disk, store } = openDisk();
    disk.store(KEY, CHECKPOINT, snapshot(CHECKPOINT));
    disk.delete({ vertexId: 'count', subtaskIndex: 0, checkpointId: CHECKPOINT, keyGroup: 3 });
    const { decision, databaseReads } = await planFromListing(disk, store);
    expect(decision.source).toBe('remote');
    if (decision.source !== 'remote') return;
    expect(decision.reason).toBe('partial');
    expect(decision.localPart?.keyGroupRanges).toEqual([
      { start: 16, end: 31 },
      { start: 32, end: 47 },
      { start: 48, end: 63 },
    ]);
    expect(databaseReads).toBe(0);
  });

  it('still picks a copy damaged in the database only: it cannot see damage without reading, the TaskManager verifies it', async () => {
    const { disk, store } = openDisk();
    disk.store(KEY, CHECKPOINT, snapshot(CHECKPOINT));
    await disk.persisted();
    const db = await openDB(store.name);
    const path = localCopyPath(KEY, CHECKPOINT);
    const record = (await db.get('copies', path)) as StoredLocalCopy;
    await db.put('copies', { ...record, snapshot: record.snapshot.map((b) => b ^ 0xff) }, path);
    db.close();
    const { decision, databaseReads } = await planFromListing(disk, store);
    expect(decision).toMatchObject({ source: 'local' });
    expect(databaseReads).toBe(0);
  });

  it('takes an incremental copy whose shared run is not in the listing as missing', async () => {
    const { disk, store } = openDisk();
    const incremental = { ...snapshot(CHECKPOINT), sharedFiles: [{ name: 'run-1.sst', sizeBytes: 100, contents: { rows: [1] } }] };
    disk.store(KEY, CHECKPOINT, incremental);
    disk.delete({ vertexId: 'count', subtaskIndex: 0, run: 'run-1.sst' });
    const { decision } = await planFromListing(disk, store);
    expect(decision).toMatchObject({ source: 'remote', reason: 'missing' });
  });
});

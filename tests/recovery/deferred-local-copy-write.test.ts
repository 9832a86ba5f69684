/**
 * The page's sim keeps its local copies in memory and writes them through to IndexedDB: a copy is
 * encoded for the database in a later task of the page (`nextTask`), not in the simulation step
 * that stored it, and its checksum is of those encoded bytes (one encoding, no JSON
 * serialization). The write still reaches the database in call order, damage done in memory
 * before the write still fails verification, and a restarted process trusts the bytes it reads.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fnv1a32Bytes } from '../../engine/recovery/checksum.ts';
import { verifyLocalCopy } from '../../engine/recovery/host-local-disk.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { encodeTaskStateSnapshot } from '../../engine/storage/snapshot-codec.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { keyOf, snapshot } from './local-state-fixtures.ts';

const HOST = 'host-0';
const KEY = keyOf('tm-0/slot-0');
let databases = 0;

/** A disk whose deferred writes wait until the test lets the next task run. */
function diskWithManualTasks(): { disk: PersistentHostLocalDisk; name: string; runTask: () => Promise<void>; waiting: () => number } {
  const name = localDiskDatabaseName(`checkpoint-playground/deferred-${++databases}/checkpoints`, HOST);
  const tasks: Array<() => void> = [];
  const nextTask = () => new Promise<void>((resolve) => tasks.push(resolve));
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { nextTask });
    const runTask = async () => {
    await settle(); // the queue reaches its wait for the task
    tasks.shift()?.();
  };
  return { disk, name, runTask, waiting: () => tasks.length };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('a local copy written through from the page sim', () => {
  it('is written to the database only in a later task, with the checksum of its encoded bytes', async () => {
    const { disk, name, runTask, waiting } = diskWithManualTasks();
    const copy = disk.store(KEY, 3, snapshot(3));
    expect(verifyLocalCopy(copy)).toBe(true);
    await settle();
    expect(waiting()).toBe(1);
    expect((await new IndexedDbLocalDiskStore(name).read()).copies).toEqual([]);

    await runTask();
    await disk.persisted();
    const [record] = (await new IndexedDbLocalDiskStore(name).read()).copies;
    expect(record!.checksumOf).toBe('bytes');
    expect(record!.checksum).toBe(fnv1a32Bytes(encodeTaskStateSnapshot(snapshot(3))));
    expect(copy.checksum).toBe(record!.checksum);
  });

  it('still fails verification when damaged in memory before its write ran, and the database holds the damage after the original', async () => {
    const { disk, name, runTask } = diskWithManualTasks();
    disk.store(KEY, 3, snapshot(3));
    expect(disk.corrupt({ vertexId: KEY.subtask.vertexId, subtaskIndex: KEY.subtask.subtaskIndex }, 'content')).toHaveLength(1);
    expect(verifyLocalCopy(disk.retrieve(KEY, 3)!)).toBe(false);
    await runTask();
    await disk.persisted();

    const restarted = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name));
    await restarted.reload();
    expect(verifyLocalCopy(restarted.retrieve(KEY, 3)!)).toBe(false);
  });

  it('reads back intact in a restarted process, verified by its bytes', async () => {
    const { disk, name, runTask } = diskWithManualTasks();
    disk.store(KEY, 4, snapshot(4));
    await runTask();
    await disk.persisted();

    const restarted = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name));
    await restarted.reload();
    const copy = restarted.retrieve(KEY, 4)!;
    expect(copy.verifiedOnRead).toBe(true);
    expect(verifyLocalCopy(copy)).toBe(true);
    expect(copy.snapshot).toEqual(snapshot(4));
  });
});

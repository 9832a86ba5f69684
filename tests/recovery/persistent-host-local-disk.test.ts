/**
 * A host's local disk persisted in IndexedDB (fake-indexeddb here; Chromium in
 * tests/browser/live-local-disk.test.ts): a copy outlives the process that wrote it (a new disk
 * object over the same database reads it back and the restore uses it), a lost host leaves an
 * empty database, and damage done to the stored copy (bytes, checksum, the record itself) makes
 * the restore fall back to remote with the reason. The live JobManager's disks keep only the
 * copies' handles in memory and read the bytes back for a restore.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { decideSubtaskRestore, type SubtaskRestoreDecision } from '../../engine/recovery/local-recovery.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import type { LocalDiskStore, StoredLocalCopy } from '../../engine/recovery/local-disk-store.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { JOB, MiB, keyOf, sameSlotRestore, snapshot } from './local-state-fixtures.ts';
import { fnv1a32Bytes } from '../../engine/recovery/checksum.ts';
import { decodeTaskStateSnapshot, encodeTaskStateSnapshot } from '../../engine/storage/snapshot-codec.ts';

const HOST = 'host-0';
const SLOT = { slotId: 'tm-0/slot-0', host: HOST };
const KEY = keyOf(SLOT.slotId);
let databases = 0;

function freshName(): string {
  return localDiskDatabaseName(`checkpoint-playground/test-${++databases}/checkpoints`, HOST);
}

/** The disk as a (re)started TaskManager process sees it: a new connection, read back from the database. */
async function reopened(name: string): Promise<PersistentHostLocalDisk> {
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name));
  await disk.reload();
  return disk;
}

function restore(disk: PersistentHostLocalDisk, checkpointId: number): SubtaskRestoreDecision {
  return decideSubtaskRestore(sameSlotRestore(disk, SLOT, checkpointId));
}

async function storedRecords(name: string): Promise<StoredLocalCopy[]> {
  const db = await openDB(name);
  try {
    return (await db.getAll('copies')) as StoredLocalCopy[];
  } finally {
    db.close();
  }
}

async function rewriteRecord(name: string, change: (record: StoredLocalCopy) => StoredLocalCopy | undefined): Promise<void> {
  const db = await openDB(name);
  try {
    for (const record of (await db.getAll('copies')) as StoredLocalCopy[]) {
      const next = change(record);
      if (next) await db.put('copies', next, record.path);
      else await db.delete('copies', record.path);
    }
  } finally {
    db.close();
  }
}

/** A disk with checkpoints 3 and 4 written and 4 confirmed, persisted; its first process is gone. */
async function writtenAndCrashed(): Promise<string> {
  const name = freshName();
  const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name));
  disk.store(KEY, 3, snapshot(3));
  disk.confirmCheckpoint(KEY, 3);
  disk.store(KEY, 4, snapshot(4));
  disk.confirmCheckpoint(KEY, 4);
  await disk.persisted();
  await disk.persistence.close();
  return name;
}

describe('a host local disk persisted in IndexedDB', () => {
  it('keeps the latest confirmed copy across a crash of the process, and the restore reads it back locally', async () => {
    const name = await writtenAndCrashed();
    expect((await storedRecords(name)).map((r) => r.path)).toEqual([`aid_${SLOT.slotId}/jid_${JOB}/vtx_count_sti_0/chk_4`]);
    const disk = await reopened(name);
    expect(disk.list().stores[0]!.copies).toEqual([{ checkpointId: 4, path: `aid_${SLOT.slotId}/jid_${JOB}/vtx_count_sti_0/chk_4`, bytes: MiB, complete: true, confirmed: true }]);
    const decision = restore(disk, 4);
    expect(decision.source).toBe('local');
    expect(decision.source === 'local' && decision.snapshot).toEqual(snapshot(4));
  });

  it('is empty once the host is lost, and the restore goes remote because the copy is missing', async () => {
    const name = await writtenAndCrashed();
    const disk = await reopened(name);
    expect(disk.wipe()).toHaveLength(1);
    await disk.persisted();
    expect(await storedRecords(name)).toEqual([]);
    expect(restore(await reopened(name), 4)).toMatchObject({ source: 'remote', reason: 'missing' });
  });

  it.each([
    ['its bytes were damaged on the disk', (r: StoredLocalCopy) => ({ ...r, snapshot: r.snapshot.map((b, i) => (i === r.snapshot.length - 3 ? b ^ 0xff : b)) }), 'corrupt'],
    ['its bytes were cut short', (r: StoredLocalCopy) => ({ ...r, snapshot: r.snapshot.slice(0, 5) }), 'corrupt'],
    ['its recorded checksum no longer matches', (r: StoredLocalCopy) => ({ ...r, checksum: r.checksum === '00000000' ? '00000001' : '00000000' }), 'corrupt'],
    ['the write had stopped part way', (r: StoredLocalCopy) => ({ ...r, complete: false }), 'partial'],
    ['the copy was deleted from the disk', () => undefined, 'missing'],
  ] as const)('falls back to remote when %s', async (_what, change, reason) => {
    const name = await writtenAndCrashed();
    await rewriteRecord(name, change);
    const decision = restore(await reopened(name), 4);
    expect(decision).toMatchObject({ source: 'remote', reason, bytes: MiB });
  });

  it('persists the corrupt-local-copy and delete-local-copy faults, so a restarted process sees them', async () => {
    for (const [fault, reason] of [
      ['corrupt', 'corrupt'],
      ['delete', 'missing'],
    ] as const) {
      const name = await writtenAndCrashed();
      const disk = await reopened(name);
      const selector = { vertexId: 'count', subtaskIndex: 0 };
      expect(fault === 'corrupt' ? disk.corrupt(selector) : disk.delete(selector)).toHaveLength(1);
      await disk.persisted();
      expect(restore(await reopened(name), 4)).toMatchObject({ source: 'remote', reason });
    }
  });

  it('records a write the store refused and carries on (a local copy never fails a checkpoint)', async () => {
    const failing: LocalDiskStore = {
      name: 'a full disk',
      apply: async () => {
        throw new DOMException('the disk is full', 'QuotaExceededError');
      },
      read: async () => ({ copies: [], confirmations: [] }),
      close: async () => {},
      destroy: async () => {},
    };
    const disk = new PersistentHostLocalDisk(HOST, failing);
    expect(() => disk.store(KEY, 4, snapshot(4))).not.toThrow();
    await disk.persisted();
    expect(disk.errors).toEqual(['a full disk: QuotaExceededError: the disk is full']);
    await disk.reload();
    expect(restore(disk, 4)).toMatchObject({ source: 'remote', reason: 'missing' });
  });
});

describe('a persisted host local disk that keeps only handles in memory (the live JobManager)', () => {
  function handlesOnly(name: string): PersistentHostLocalDisk {
    return new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory: false });
  }

  it('holds no keyed state in memory after a write, yet lists the copy with its bytes', async () => {
    const disk = handlesOnly(freshName());
    disk.store(KEY, 4, snapshot(4));
    expect(disk.retrieve(KEY, 4)!.snapshot.keyedState).toBeUndefined();
    expect(disk.list().stores[0]!.copies).toMatchObject([{ checkpointId: 4, bytes: MiB, complete: true }]);
    await disk.persisted();
  });

  it('reads the full copy back for a restore, which is local, and lets go of it again after releaseContents', async () => {
    const disk = handlesOnly(freshName());
    disk.store(KEY, 4, snapshot(4));
    disk.confirmCheckpoint(KEY, 4);
    await disk.reload();
    const decision = restore(disk, 4);
    expect(decision.source === 'local' && decision.snapshot).toEqual(snapshot(4));
    disk.releaseContents();
    expect(disk.retrieve(KEY, 4)!.snapshot.keyedState).toBeUndefined();
    await disk.reload();
    expect(restore(disk, 4).source).toBe('local');
  });

  it('writes a copy that arrives encoded as it came, and a restore verifies its bytes against the checksum sent with it', async () => {
    const name = freshName();
    const disk = handlesOnly(name);
    const [four, five] = [encodeTaskStateSnapshot(snapshot(4)), encodeTaskStateSnapshot(snapshot(5))];
    disk.storeEncoded(KEY, 4, four, { bytes: MiB, checksum: fnv1a32Bytes(four) });
    disk.storeEncoded(KEY, 5, five, { bytes: MiB, checksum: fnv1a32Bytes(four) });
    await disk.persisted();
    expect((await storedRecords(name)).map((r) => decodeTaskStateSnapshot(r.snapshot))).toEqual([snapshot(4), snapshot(5)]);
    const reopenedDisk = await reopened(name);
    expect(restore(reopenedDisk, 4).source).toBe('local');
    // checkpoint 5 came with the wrong checksum: the restore does not trust it
    expect(restore(reopenedDisk, 5)).toMatchObject({ source: 'remote', reason: 'corrupt' });
  });

  it('does not trust encoded bytes damaged on the disk, though they may still decode', async () => {
    const name = freshName();
    const disk = handlesOnly(name);
    const bytes = encodeTaskStateSnapshot(snapshot(4));
    disk.storeEncoded(KEY, 4, bytes, { bytes: MiB, checksum: fnv1a32Bytes(bytes) });
    await disk.persisted();
    await rewriteRecord(name, (r) => ({ ...r, snapshot: r.snapshot.map((b, i) => (i === r.snapshot.length - 3 ? b ^ 0xff : b)) }));
    expect(restore(await reopened(name), 4)).toMatchObject({ source: 'remote', reason: 'corrupt' });
  });

  it('still finds a corrupted copy after the fault was applied to the handle in memory', async () => {
    const name = freshName();
    const disk = handlesOnly(name);
    disk.store(KEY, 4, snapshot(4));
    expect(disk.corrupt({ vertexId: 'count', subtaskIndex: 0 })).toHaveLength(1);
    await disk.persisted();
    expect(restore(await reopened(name), 4)).toMatchObject({ source: 'remote', reason: 'corrupt' });
  });
});

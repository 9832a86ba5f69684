/**
 * The shared runs of incremental copies on a host's disk (Flink's native RocksDB checkpoint
 * directories, whose SST files are hard links): a copy references every run of its checkpoint,
 * a run shared by successive copies of a subtask is stored once, pruning deletes the runs no
 * retained copy references, and a missing or corrupt run makes the restore fall back to remote.
 * In memory here, and persisted in IndexedDB (fake-indexeddb) read back by a new process.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { HostLocalDisk } from '../../engine/recovery/host-local-disk.ts';
import { decideSubtaskRestore, type SubtaskRestoreDecision } from '../../engine/recovery/local-recovery.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { COSTS, JOB, MiB, keyOf } from './local-state-fixtures.ts';

const HOST = 'host-0';
const SLOT = { slotId: 'tm-0/slot-0', host: HOST };
const KEY = keyOf(SLOT.slotId);
const MANIFEST = 1000;

/**
 * An incremental snapshot referencing `runs` (1 MiB each); those in `uploaded` carry their
 * contents, the others are reused from an earlier checkpoint (names only).
 */
function incremental(checkpointId: number, runs: string[], uploaded: string[]): TaskStateSnapshot {
  return {
    subtask: { ...KEY.subtask },
    keyedState: { incremental: { checkpointId, runs } },
    sharedFiles: runs.map((name) => (uploaded.includes(name) ? { name, sizeBytes: MiB, contents: { run: name, blocks: [`data of ${name}`] } } : { name, sizeBytes: MiB })),
    stateSize: runs.length * MiB + MANIFEST,
    checkpointedSize: uploaded.length * MiB + MANIFEST,
  };
}

function restore(disk: HostLocalDisk, checkpointId: number): SubtaskRestoreDecision {
  return decideSubtaskRestore({ jobId: JOB, subtask: KEY.subtask, checkpointId, localRecovery: true, rescaled: false, previousSlot: SLOT, slot: SLOT, disk, remote: { bytes: MiB }, costs: COSTS });
}

const runNames = (disk: HostLocalDisk) => disk.runsOf(KEY).map((r) => r.name);

/** chk 1 uploads a, b; chk 2 reuses them and uploads c; chk 3 reuses c and uploads d (a and b were compacted away). */
function writeThreeCheckpoints(disk: HostLocalDisk): void {
  disk.store(KEY, 1, incremental(1, ['a', 'b'], ['a', 'b']));
  disk.confirmCheckpoint(KEY, 1);
  disk.store(KEY, 2, incremental(2, ['a', 'b', 'c'], ['c']));
  disk.confirmCheckpoint(KEY, 2);
}

describe('shared runs of incremental local copies', () => {
  it('stores a run shared by successive copies once, and counts it once in the disk bytes', () => {
    const disk = new HostLocalDisk(HOST);
    disk.store(KEY, 1, incremental(1, ['a', 'b'], ['a', 'b']));
    disk.store(KEY, 2, incremental(2, ['a', 'b', 'c'], ['c']));
    expect(runNames(disk)).toEqual(['a', 'b', 'c']);
    expect(disk.retrieve(KEY, 2)!.runs).toEqual(['a', 'b', 'c']);
    // Two manifests and three runs, where the copies' state sizes add up to five runs.
    expect(disk.list().bytes).toBe(2 * MANIFEST + 3 * MiB);
    expect(disk.list().stores[0]!.runs.map((r) => r.path)).toEqual(['a', 'b', 'c'].map((n) => `aid_${SLOT.slotId}/jid_${JOB}/vtx_count_sti_0/shared/${n}`));
  });

  it('restores a copy locally with the contents of every run, those its checkpoint reused included', () => {
    const disk = new HostLocalDisk(HOST);
    writeThreeCheckpoints(disk);
    const decision = restore(disk, 2);
    expect(decision.source).toBe('local');
    if (decision.source !== 'local') return;
    expect(decision.snapshot.sharedFiles!.map((f) => f.contents)).toEqual(['a', 'b', 'c'].map((n) => ({ run: n, blocks: [`data of ${n}`] })));
  });

  it('keeps exactly the runs of the retained copies when a confirmation prunes older copies', () => {
    const disk = new HostLocalDisk(HOST);
    writeThreeCheckpoints(disk);
    // chk 1 was pruned, but a and b stay: chk 2 links them.
    expect(disk.list().stores[0]!.copies.map((c) => c.checkpointId)).toEqual([2]);
    expect(runNames(disk)).toEqual(['a', 'b', 'c']);
    disk.store(KEY, 3, incremental(3, ['c', 'd'], ['d']));
    expect(disk.confirmCheckpoint(KEY, 3)).toEqual([`aid_${SLOT.slotId}/jid_${JOB}/vtx_count_sti_0/chk_2`, ...['a', 'b'].map((n) => `aid_${SLOT.slotId}/jid_${JOB}/vtx_count_sti_0/shared/${n}`)]);
    expect(runNames(disk)).toEqual(['c', 'd']);
  });

  it('falls back to remote when a reused run is corrupt, or missing, and says why', () => {
    for (const [damage, reason] of [
      ['corrupt', 'corrupt'],
      ['delete', 'missing'],
    ] as const) {
      const disk = new HostLocalDisk(HOST);
      writeThreeCheckpoints(disk);
      const selector = { vertexId: 'count', subtaskIndex: 0, run: 'a' };
      expect(damage === 'corrupt' ? disk.corrupt(selector) : disk.delete(selector)).toEqual([`aid_${SLOT.slotId}/jid_${JOB}/vtx_count_sti_0/shared/a`]);
      expect(restore(disk, 2)).toMatchObject({ source: 'remote', reason });
    }
  });

  it('counts a copy whose reused run the disk never held as missing', () => {
    const disk = new HostLocalDisk(HOST);
    disk.store(KEY, 2, incremental(2, ['a', 'b', 'c'], ['c']));
    expect(restore(disk, 2)).toMatchObject({ source: 'remote', reason: 'missing' });
  });

  it('adds no run while the copy is still being written, and treats that copy as partial', () => {
    const disk = new HostLocalDisk(HOST);
    disk.store(KEY, 1, incremental(1, ['a'], ['a']), { complete: false, bytes: MiB / 2 });
    expect(runNames(disk)).toEqual([]);
    expect(restore(disk, 1)).toMatchObject({ source: 'remote', reason: 'partial' });
  });

  it('deleting a copy deletes the runs no other copy links', () => {
    const disk = new HostLocalDisk(HOST);
    writeThreeCheckpoints(disk);
    disk.delete({ vertexId: 'count', subtaskIndex: 0 });
    expect(runNames(disk)).toEqual([]);
    expect(disk.list().bytes).toBe(0);
  });
});

describe('shared runs on a persistent disk (IndexedDB)', () => {
  let databases = 0;
  const freshName = () => localDiskDatabaseName(`checkpoint-playground/runs-${++databases}/checkpoints`, HOST);

  async function reopened(name: string): Promise<PersistentHostLocalDisk> {
    const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name));
    await disk.reload();
    return disk;
  }

  it('reads every run back in a new process, each stored once, and restores locally from them', async () => {
    const name = freshName();
    const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name));
    writeThreeCheckpoints(disk);
    await disk.persisted();
    const stored = await new IndexedDbLocalDiskStore(name).read();
    expect(stored.copies.map((c) => c.checkpointId)).toEqual([2]);
    expect(stored.runs.map((r) => r.name).sort()).toEqual(['a', 'b', 'c']);
    const back = await reopened(name);
    expect(back.list().bytes).toBe(MANIFEST + 3 * MiB);
    const decision = restore(back, 2);
    expect(decision.source).toBe('local');
    if (decision.source === 'local') expect(decision.snapshot.sharedFiles!.map((f) => (f.contents as { run: string }).run)).toEqual(['a', 'b', 'c']);
  });

  it('deletes a pruned run from the database, and finds a corrupted one after a restart', async () => {
    const name = freshName();
    const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name));
    writeThreeCheckpoints(disk);
    disk.store(KEY, 3, incremental(3, ['c', 'd'], ['d']));
    disk.confirmCheckpoint(KEY, 3);
    disk.corrupt({ vertexId: 'count', subtaskIndex: 0, run: 'c' });
    await disk.persisted();
    expect((await new IndexedDbLocalDiskStore(name).read()).runs.map((r) => r.name).sort()).toEqual(['c', 'd']);
    expect(restore(await reopened(name), 3)).toMatchObject({ source: 'remote', reason: 'corrupt' });
  });

  it('takes encoded copies and runs from a TaskManager, linking the runs it holds already', async () => {
    const name = freshName();
    const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory: false });
    const { encodeSharedFile, encodeTaskStateSnapshot } = await import('../../engine/storage/snapshot-codec.ts');
    const { fnv1a32Bytes } = await import('../../engine/recovery/checksum.ts');
    const { withoutRunContents } = await import('../../engine/recovery/host-local-disk.ts');
    const send = (checkpointId: number, runs: string[], sent: string[]) => {
      const snap = incremental(checkpointId, runs, sent);
      const encoded = encodeTaskStateSnapshot(withoutRunContents(snap));
      const newRuns = snap.sharedFiles!.filter((f) => f.contents !== undefined).map((f) => {
        const bytes = encodeSharedFile(f.name, f.contents);
        return { name: f.name, bytes: f.sizeBytes, encoded: bytes, checksum: fnv1a32Bytes(bytes) };
      });
      disk.storeEncoded(KEY, checkpointId, encoded, { bytes: snap.stateSize, checksum: fnv1a32Bytes(encoded), runs: snap.sharedFiles!, newRuns });
    };
    send(1, ['a', 'b'], ['a', 'b']);
    disk.confirmCheckpoint(KEY, 1);
    send(2, ['a', 'b', 'c'], ['c']);
    disk.confirmCheckpoint(KEY, 2);
    expect(disk.list().bytes).toBe(MANIFEST + 3 * MiB);
    // Memory holds handles only: a restore reads the runs back from the database.
    expect(restore(disk, 2)).toMatchObject({ source: 'remote' });
    await disk.reload();
    const decision = restore(disk, 2);
    expect(decision.source).toBe('local');
    if (decision.source === 'local') expect(decision.snapshot.sharedFiles!.map((f) => (f.contents as { run: string }).run)).toEqual(['a', 'b', 'c']);
  });
});

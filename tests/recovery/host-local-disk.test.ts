import { describe, expect, it } from 'vitest';
import { HostLocalDisk, localCopyPath, verifyLocalCopy, type CorruptionMode } from '../../engine/recovery/host-local-disk.ts';
import { JOB, MiB, keyOf, snapshot } from './local-state-fixtures.ts';

const SLOT = 'tm-0/slot-0';
const key = keyOf(SLOT);

function diskWith(checkpointIds: number[], k = key): HostLocalDisk {
  const disk = new HostLocalDisk('host-0');
  for (const id of checkpointIds) disk.store(k, id, snapshot(id, MiB, k.subtask.vertexId, k.subtask.subtaskIndex));
  return disk;
}

const heldIds = (disk: HostLocalDisk, k = key) =>
  disk.list().stores.find((s) => s.allocationId === k.allocationId && s.vertexId === k.subtask.vertexId && s.subtaskIndex === k.subtask.subtaskIndex)?.copies.map((c) => c.checkpointId) ?? [];

describe('local copy paths', () => {
  it("follow TaskLocalStateStoreImpl's aid_/jid_/vtx_ _sti_/chk_ layout, with the slot id as allocation", () => {
    expect(localCopyPath(keyOf('tm-3/slot-1', 'window', 2), 17)).toBe(`aid_tm-3/slot-1/jid_${JOB}/vtx_window_sti_2/chk_17`);
  });
});

describe('HostLocalDisk store and retrieve', () => {
  it('keeps a complete copy with a checksum that verifies, sized by the state size', () => {
    const disk = new HostLocalDisk('host-0');
    const copy = disk.store(key, 4, snapshot(4, 3 * MiB));
    expect(copy).toMatchObject({ checkpointId: 4, bytes: 3 * MiB, complete: true, path: localCopyPath(key, 4) });
    expect(copy.checksum).toMatch(/^[0-9a-f]{8}$/);
    expect(verifyLocalCopy(copy)).toBe(true);
    expect(disk.retrieve(key, 4)).toBe(copy);
  });

  it('keeps a partial copy as incomplete, with the bytes written so far', () => {
    const disk = new HostLocalDisk('host-0');
    disk.store(key, 4, snapshot(4, 3 * MiB), { complete: false, bytes: MiB });
    expect(disk.retrieve(key, 4)).toMatchObject({ complete: false, bytes: MiB });
  });

  it('finds nothing for another checkpoint id, another slot, another job or another subtask', () => {
    const disk = diskWith([4]);
    expect(disk.retrieve(key, 5)).toBeUndefined();
    expect(disk.retrieve(keyOf('tm-0/slot-1'), 4)).toBeUndefined();
    expect(disk.retrieve({ ...key, jobId: 'other-job' }, 4)).toBeUndefined();
    expect(disk.retrieve(keyOf(SLOT, 'count', 1), 4)).toBeUndefined();
  });

  it('replaces an earlier write of the same checkpoint', () => {
    const disk = new HostLocalDisk('host-0');
    disk.store(key, 4, snapshot(4), { complete: false });
    disk.store(key, 4, snapshot(4));
    expect(disk.retrieve(key, 4)?.complete).toBe(true);
    expect(heldIds(disk)).toEqual([4]);
  });
});

describe('HostLocalDisk retention (TaskLocalStateStoreImpl)', () => {
  it.each<[string, number[], (disk: HostLocalDisk) => string[], number[], number[]]>([
    ['confirming a checkpoint prunes every older copy and keeps newer pending ones', [3, 4, 5, 6], (d) => d.confirmCheckpoint(key, 5), [3, 4], [5, 6]],
    ['a later confirmation leaves only the latest confirmed copy', [3, 4, 5], (d) => [...d.confirmCheckpoint(key, 3), ...d.confirmCheckpoint(key, 4)], [3], [4, 5]],
    ['confirming a checkpoint that has no local copy still prunes the older ones', [3, 6], (d) => d.confirmCheckpoint(key, 5), [3], [6]],
    ['aborting a checkpoint removes only its copy', [3, 4, 5], (d) => d.abortCheckpoint(key, 4), [4], [3, 5]],
    ['aborting a checkpoint with no copy removes nothing', [3], (d) => d.abortCheckpoint(key, 9), [], [3]],
    ['a restore prunes every copy but the restored one', [3, 4, 5], (d) => d.pruneAllBut(key, 4), [3, 5], [4]],
  ])('%s', (_name, stored, act, removedIds, keptIds) => {
    const disk = diskWith(stored);
    expect(act(disk)).toEqual(removedIds.map((id) => localCopyPath(key, id)));
    expect(heldIds(disk)).toEqual(keptIds);
  });

  it('keeps only the latest confirmed copy however many checkpoints are retained remotely', () => {
    const disk = new HostLocalDisk('host-0');
    for (let id = 1; id <= 10; id++) {
      disk.store(key, id, snapshot(id));
      disk.confirmCheckpoint(key, id);
    }
    expect(heldIds(disk)).toEqual([10]);
  });

  it('prunes per subtask store: confirming one subtask leaves another subtask on the host alone', () => {
    const other = keyOf('tm-0/slot-1', 'count', 1);
    const disk = diskWith([3, 4]);
    for (const id of [3, 4]) disk.store(other, id, snapshot(id, MiB, 'count', 1));
    disk.confirmCheckpoint(key, 4);
    expect(heldIds(disk)).toEqual([4]);
    expect(heldIds(disk, other)).toEqual([3, 4]);
  });

  it('marks copies up to the latest confirmed id as confirmed and newer ones as pending', () => {
    const disk = diskWith([4, 5]);
    disk.confirmCheckpoint(key, 4);
    expect(disk.list().stores[0]!.copies.map((c) => [c.checkpointId, c.confirmed])).toEqual([
      [4, true],
      [5, false],
    ]);
  });
});

describe('HostLocalDisk faults and losses', () => {
  it('loses every copy when the host is lost (wipe)', () => {
    const disk = diskWith([3, 4]);
    disk.store(keyOf('tm-1/slot-0', 'window', 1), 4, snapshot(4, MiB, 'window', 1));
    expect(disk.wipe()).toHaveLength(3);
    expect(disk.list()).toEqual({ host: 'host-0', bytes: 0, stores: [] });
    expect(disk.retrieve(key, 4)).toBeUndefined();
  });

  it("drops a dead TaskManager's allocations and keeps the others on the host", () => {
    const survivor = keyOf('tm-1/slot-0', 'count', 1);
    const disk = diskWith([4]);
    disk.store(survivor, 4, snapshot(4, MiB, 'count', 1));
    expect(disk.releaseAllocation(SLOT)).toEqual([localCopyPath(key, 4)]);
    expect(disk.retrieve(key, 4)).toBeUndefined();
    expect(disk.retrieve(survivor, 4)).toBeDefined();
  });

  it.each<CorruptionMode>(['content', 'checksum'])('a corrupted copy (%s) fails verification and keeps its place', (mode) => {
    const disk = diskWith([4, 5]);
    expect(disk.corrupt({ vertexId: 'count', subtaskIndex: 0, checkpointId: 5 }, mode)).toEqual([localCopyPath(key, 5)]);
    expect(verifyLocalCopy(disk.retrieve(key, 5)!)).toBe(false);
    expect(verifyLocalCopy(disk.retrieve(key, 4)!)).toBe(true);
    expect(heldIds(disk)).toEqual([4, 5]);
  });

  it('corrupts every copy of the subtask on the host when no checkpoint is named (corruptLocalCopy(host, vertex, subtask))', () => {
    const neighbour = keyOf('tm-0/slot-1', 'count', 1);
    const disk = diskWith([4, 5]);
    disk.store(neighbour, 5, snapshot(5, MiB, 'count', 1));
    expect(disk.corrupt({ vertexId: 'count', subtaskIndex: 0 })).toEqual([localCopyPath(key, 4), localCopyPath(key, 5)]);
    expect(verifyLocalCopy(disk.retrieve(neighbour, 5)!)).toBe(true);
  });

  it('deletes the selected copy and nothing else', () => {
    const disk = diskWith([4, 5]);
    expect(disk.delete({ vertexId: 'count', subtaskIndex: 0, checkpointId: 4 })).toEqual([localCopyPath(key, 4)]);
    expect(heldIds(disk)).toEqual([5]);
    expect(disk.delete({ vertexId: 'count', subtaskIndex: 7 })).toEqual([]);
  });
});

describe('HostLocalDisk listing', () => {
  it('lists host → subtask → checkpoint copies with bytes, in a stable order', () => {
    const disk = new HostLocalDisk('host-1');
    disk.store(keyOf('tm-3/slot-0', 'window', 1), 7, snapshot(7, 2 * MiB, 'window', 1));
    disk.store(keyOf('tm-2/slot-1', 'count', 0), 7, snapshot(7, MiB), { complete: false, bytes: 100 });
    disk.store(keyOf('tm-2/slot-1', 'count', 0), 6, snapshot(6, MiB));
    expect(disk.list()).toEqual({
      host: 'host-1',
      bytes: 2 * MiB + MiB + 100,
      stores: [
        {
          directory: `aid_tm-2/slot-1/jid_${JOB}/vtx_count_sti_0`,
          allocationId: 'tm-2/slot-1',
          jobId: JOB,
          vertexId: 'count',
          subtaskIndex: 0,
          copies: [
            { checkpointId: 6, path: `aid_tm-2/slot-1/jid_${JOB}/vtx_count_sti_0/chk_6`, bytes: MiB, complete: true, confirmed: false },
            { checkpointId: 7, path: `aid_tm-2/slot-1/jid_${JOB}/vtx_count_sti_0/chk_7`, bytes: 100, complete: false, confirmed: false },
          ],
          runs: [],
        },
        {
          directory: `aid_tm-3/slot-0/jid_${JOB}/vtx_window_sti_1`,
          allocationId: 'tm-3/slot-0',
          jobId: JOB,
          vertexId: 'window',
          subtaskIndex: 1,
          copies: [{ checkpointId: 7, path: `aid_tm-3/slot-0/jid_${JOB}/vtx_window_sti_1/chk_7`, bytes: 2 * MiB, complete: true, confirmed: false }],
          runs: [],
        },
      ],
    });
  });

  it('leaves out a subtask whose copies were all pruned', () => {
    const disk = diskWith([4]);
    disk.abortCheckpoint(key, 4);
    expect(disk.list().stores).toEqual([]);
  });
});

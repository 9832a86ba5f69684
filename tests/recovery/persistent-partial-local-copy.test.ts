/**
 * A key-group handle lost or damaged on a host's persisted disk (IndexedDB; fake-indexeddb here)
 * stays lost after the disk is read back, so the restore after a TaskManager restart mixes local
 * and remote handles as it does in memory: with contents in memory and without (the live
 * JobManager keeps only the copies' handles, named from the subtask's key-group range).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { decideSubtaskRestore, type SubtaskRestoreDecision } from '../../engine/recovery/local-recovery.ts';
import { localKeyGroupsHandlesOfRange } from '../../engine/recovery/local-key-groups-handles.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { fnv1a32Bytes } from '../../engine/recovery/checksum.ts';
import { encodeTaskStateSnapshot } from '../../engine/storage/snapshot-codec.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { COSTS, JOB, MiB, keyOf } from './local-state-fixtures.ts';

const HOST = 'host-0';
const SLOT = { slotId: 'tm-0/slot-0', host: HOST };
const KEY = keyOf(SLOT.slotId);
const RANGE = { start: 0, end: 63 };
let databases = 0;

function snapshot(): TaskStateSnapshot {
  const keyGroups = Array.from({ length: 64 }, (_, g) => ({ keyGroup: g, states: { count: [[`key-${g}`, g] as [string, number]] } }));
  return { subtask: KEY.subtask, keyedState: { keyGroupRange: RANGE, keyGroups, sizeBytes: MiB }, stateSize: MiB, checkpointedSize: MiB };
}

function restore(disk: PersistentHostLocalDisk): SubtaskRestoreDecision {
  return decideSubtaskRestore({ jobId: JOB, subtask: KEY.subtask, checkpointId: 4, localRecovery: true, rescaled: false, previousSlot: SLOT, slot: SLOT, disk, remote: { bytes: MiB }, costs: COSTS });
}

function sources(d: SubtaskRestoreDecision): string[] {
  return d.handles.map((h) => `${h.keyGroupRange!.start}-${h.keyGroupRange!.end} ${h.source}`);
}

describe('a partial local copy on a persisted disk', () => {
  for (const contentsInMemory of [true, false]) {
    for (const damage of ['delete', 'corrupt'] as const) {
      it(`keeps a ${damage}d key-group handle ${damage}d after the disk is read back (contents in memory: ${contentsInMemory})`, async () => {
        const name = localDiskDatabaseName(`checkpoint-playground/partial-${++databases}/checkpoints`, HOST);
        const disk = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name), { contentsInMemory });
        const encoded = encodeTaskStateSnapshot(snapshot());
        // As the live JobManager stores a TaskManager's copy: bytes, their checksum, handles from the range.
        disk.storeEncoded(KEY, 4, encoded, { bytes: MiB, checksum: fnv1a32Bytes(encoded), keyGroupHandles: localKeyGroupsHandlesOfRange(RANGE, MiB, true) });
        const selector = { vertexId: 'count', subtaskIndex: 0, keyGroup: 20 };
        expect(damage === 'delete' ? disk.delete(selector) : disk.corrupt(selector)).toEqual([`aid_${SLOT.slotId}/jid_${JOB}/vtx_count_sti_0/chk_4/kg_16-31`]);
        await disk.persisted();
        const back = new PersistentHostLocalDisk(HOST, new IndexedDbLocalDiskStore(name));
        await back.reload();
        const decision = restore(back);
        expect(decision).toMatchObject({ source: 'remote', reason: damage === 'delete' ? 'partial' : 'corrupt' });
        expect(sources(decision)).toEqual(['0-15 local', '16-31 remote', '32-47 local', '48-63 local']);
      });
    }
  }
});

import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import type { HostLocalDisk, TaskLocalStateStoreKey } from '../../engine/recovery/host-local-disk.ts';
import type { RestoreCosts, SlotLocation, SubtaskRestoreRequest } from '../../engine/recovery/local-recovery.ts';

export const MiB = 1024 * 1024;
export const JOB = 'job-0';

/** Round figures: 1 MiB reads in 1 + 2 = 3 ms locally and 50 + 10 = 60 ms remotely. */
export const COSTS: RestoreCosts = {
  local_latency_ms: 1,
  local_bandwidth_mb_per_s: 500,
  remote_latency_ms: 50,
  remote_bandwidth_mb_per_s: 100,
};

export function keyOf(allocationId: string, vertexId = 'count', subtaskIndex = 0): TaskLocalStateStoreKey {
  return { allocationId, jobId: JOB, subtask: { vertexId, subtaskIndex } };
}

/** A keyed subtask's snapshot whose content depends on the checkpoint id, so copies differ. */
export function snapshot(checkpointId: number, stateSize = MiB, vertexId = 'count', subtaskIndex = 0): TaskStateSnapshot {
  return {
    subtask: { vertexId, subtaskIndex },
    keyedState: { keyGroupRange: { start: 0, end: 63 }, keyGroups: [{ keyGroup: 3, states: { count: [['k', checkpointId]] } }], sizeBytes: stateSize },
    stateSize,
    checkpointedSize: stateSize,
  };
}

/** The restore of an unrescaled subtask into the slot it ran in, with local recovery on and a 1 MiB remote copy. */
export function sameSlotRestore(disk: HostLocalDisk, slot: SlotLocation, checkpointId: number, subtask = keyOf(slot.slotId).subtask): SubtaskRestoreRequest {
  return { jobId: JOB, subtask, checkpointId, localRecovery: true, rescaled: false, previousSlot: slot, slot, disk, remote: { bytes: MiB }, costs: COSTS };
}

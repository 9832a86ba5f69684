import { describe, expect, it } from 'vitest';
import { ClusterTopology } from '../../engine/job/cluster-topology.ts';
import { HostLocalDisk, type TaskLocalStateStoreKey } from '../../engine/recovery/host-local-disk.ts';
import { decideSubtaskRestore, writesLocalCopy } from '../../engine/recovery/local-recovery.ts';
import { selectSlots } from '../../engine/recovery/slot-selection.ts';
import { COSTS, JOB, MiB, snapshot } from './local-state-fixtures.ts';

/**
 * The three modules wired together the way the simulation is meant to wire them: one keyed
 * vertex `count` with parallelism 4 on 2 hosts × 1 TaskManager × 2 slots; subtask i in slot i.
 */
class Harness {
  readonly cluster = new ClusterTopology({ hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 });
  readonly disks = new Map(this.cluster.hosts.map((h) => [h, new HostLocalDisk(h)]));
  /** subtask index → where it runs (copied: ClusterTopology updates slots in place) */
  placement = this.cluster.slots.map((s) => ({ slotId: s.id, host: s.host }));

  keyOf(i: number): TaskLocalStateStoreKey {
    return { allocationId: this.placement[i]!.slotId, jobId: JOB, subtask: { vertexId: 'count', subtaskIndex: i } };
  }

  /** Every subtask persists checkpoint `id` (remote and local copy), then notify-complete reaches them. */
  completeCheckpoint(id: number): void {
    this.placement.forEach((p, i) => {
      const s = snapshot(id, MiB, 'count', i);
      if (writesLocalCopy({ localBackupEnabled: true, isSavepoint: false, unalignedCheckpoint: false, snapshot: s })) this.disks.get(p.host)!.store(this.keyOf(i), id, s);
    });
    this.placement.forEach((p, i) => this.disks.get(p.host)!.confirmCheckpoint(this.keyOf(i), id));
  }

  /** The restart after a failure: select slots, decide each subtask's source, prune what the restore did not use. */
  restore(checkpointId: number, localRecovery = true) {
    const previous = this.placement;
    const selection = selectSlots(previous.map((p, i) => ({ id: String(i), previousSlotId: p.slotId })), this.cluster.slots.map((s) => s.id));
    this.placement = selection.assignments.map((a) => ({ slotId: a.slotId, host: this.cluster.slots.find((s) => s.id === a.slotId)!.host }));
    return this.placement.map((slot, i) => {
      const disk = this.disks.get(slot.host);
      const decision = decideSubtaskRestore({
        jobId: JOB,
        subtask: { vertexId: 'count', subtaskIndex: i },
        checkpointId,
        localRecovery,
        rescaled: false,
        previousSlot: previous[i],
        slot,
        disk,
        remote: { bytes: MiB },
        costs: COSTS,
      });
      disk?.pruneAllBut(this.keyOf(i), checkpointId);
      return decision.source === 'remote' ? `${decision.source}:${decision.reason}` : decision.source;
    });
  }

  killTaskManager(id: string): void {
    const tm = this.cluster.taskManager(id)!;
    const gone = this.cluster.slots.filter((s) => s.taskManager === id).map((s) => s.id);
    this.cluster.replaceTaskManager(id, tm.host);
    for (const slot of gone) this.disks.get(tm.host)!.releaseAllocation(slot);
  }

  loseHost(host: string): void {
    const others = this.cluster.hosts.filter((h) => h !== host);
    this.cluster.taskManagers.filter((t) => t.host === host).forEach((tm, k) => this.cluster.replaceTaskManager(tm.id, others[k % others.length]!));
    this.disks.get(host)!.wipe();
  }
}

describe('task-local recovery across failures', () => {
  it('restores every subtask from its local copy after a task failure (all slots kept)', () => {
    const h = new Harness();
    h.completeCheckpoint(1);
    h.completeCheckpoint(2);
    expect(h.restore(2)).toEqual(['local', 'local', 'local', 'local']);
  });

  it('restores everything remotely when local recovery is off, though the copies exist', () => {
    const h = new Harness();
    h.completeCheckpoint(1);
    expect(h.restore(1, false)).toEqual(Array(4).fill('remote:local-recovery-disabled'));
  });

  it("reads the killed TaskManager's subtasks remotely and the others locally", () => {
    const h = new Harness();
    h.completeCheckpoint(1);
    h.killTaskManager('tm-0');
    expect(h.restore(1)).toEqual(['remote:different-slot', 'remote:different-slot', 'local', 'local']);
    expect(h.disks.get('host-0')!.list().stores).toEqual([]);
  });

  it("reads a lost host's subtasks remotely: its disk is gone and they run elsewhere", () => {
    const h = new Harness();
    h.completeCheckpoint(1);
    h.loseHost('host-1');
    expect(h.disks.get('host-1')!.list().stores).toEqual([]);
    expect(h.restore(1)).toEqual(['local', 'local', 'remote:different-slot', 'remote:different-slot']);
    expect(h.placement.map((p) => p.host)).toEqual(['host-0', 'host-0', 'host-0', 'host-0']);
  });

  it('falls back to remote for the one subtask whose local copy was corrupted', () => {
    const h = new Harness();
    h.completeCheckpoint(1);
    h.disks.get('host-0')!.corrupt({ vertexId: 'count', subtaskIndex: 1 });
    expect(h.restore(1)).toEqual(['local', 'remote:corrupt', 'local', 'local']);
  });

  it('uses local copies again on the next failure, once the next checkpoint was written in the new slots', () => {
    const h = new Harness();
    h.completeCheckpoint(1);
    h.killTaskManager('tm-1');
    h.restore(1);
    h.completeCheckpoint(2);
    expect(h.restore(2)).toEqual(['local', 'local', 'local', 'local']);
  });

  it('keeps one copy per subtask on disk: the latest confirmed checkpoint', () => {
    const h = new Harness();
    for (let id = 1; id <= 5; id++) h.completeCheckpoint(id);
    const held = [...h.disks.values()].flatMap((d) => d.list().stores.map((s) => s.copies.map((c) => c.checkpointId)));
    expect(held).toEqual([[5], [5], [5], [5]]);
  });
});

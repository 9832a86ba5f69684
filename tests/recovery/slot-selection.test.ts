import { describe, expect, it } from 'vitest';
import { ClusterTopology } from '../../engine/job/cluster-topology.ts';
import { selectSlots, type SlotRequest } from '../../engine/recovery/slot-selection.ts';

const slotsOf = (cluster: ClusterTopology) => cluster.slots.map((s) => s.id);

/** Three subtasks (slot-sharing groups) placed in the first three slots, as the ExecutionGraph places them. */
function runningOn(cluster: ClusterTopology, count = 3): SlotRequest[] {
  return cluster.slots.slice(0, count).map((slot, i) => ({ id: `group-${i}`, previousSlotId: slot.id }));
}

const placement = (requests: SlotRequest[], free: string[]) =>
  Object.fromEntries(selectSlots(requests, free).assignments.map((a) => [a.requestId, [a.slotId, a.previousSlot]]));

describe('selectSlots (PreviousAllocationSlotSelectionStrategy)', () => {
  it('gives every subtask its previous slot back after a task failure (no slot was lost)', () => {
    const cluster = new ClusterTopology({ hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 });
    const requests = runningOn(cluster);
    expect(placement(requests, slotsOf(cluster))).toEqual({
      'group-0': ['tm-0/slot-0', true],
      'group-1': ['tm-0/slot-1', true],
      'group-2': ['tm-1/slot-0', true],
    });
  });

  it("moves a killed TaskManager's subtasks to fresh slots and leaves the others in theirs", () => {
    const cluster = new ClusterTopology({ hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 });
    const requests = runningOn(cluster, 4);
    cluster.replaceTaskManager('tm-0', 'host-0');
    expect(placement(requests, slotsOf(cluster))).toEqual({
      'group-0': ['tm-2/slot-0', false],
      'group-1': ['tm-2/slot-1', false],
      'group-2': ['tm-1/slot-0', true],
      'group-3': ['tm-1/slot-1', true],
    });
  });

  it("moves a lost host's subtasks to the replacement TaskManagers on other hosts", () => {
    const cluster = new ClusterTopology({ hosts: 3, task_managers_per_host: 1, slots_per_task_manager: 1 });
    const requests = runningOn(cluster);
    cluster.replaceTaskManager('tm-1', 'host-2');
    const selection = selectSlots(requests, slotsOf(cluster));
    expect(selection.assignments.map((a) => [a.requestId, a.slotId, a.previousSlot])).toEqual([
      ['group-0', 'tm-0/slot-0', true],
      ['group-1', 'tm-3/slot-0', false],
      ['group-2', 'tm-2/slot-0', true],
    ]);
    expect(cluster.slots.find((s) => s.id === 'tm-3/slot-0')?.host).toBe('host-2');
  });

  it("never takes another subtask's previous slot, even when that slot comes first and the asker comes first", () => {
    const requests: SlotRequest[] = [
      { id: 'lost', previousSlotId: 'tm-0/slot-0' },
      { id: 'kept', previousSlotId: 'tm-1/slot-0' },
    ];
    expect(placement(requests, ['tm-1/slot-0', 'tm-2/slot-0'])).toEqual({
      lost: ['tm-2/slot-0', false],
      kept: ['tm-1/slot-0', true],
    });
  });

  it('hands out fresh slots in the order they are listed, to requests in their order', () => {
    const requests: SlotRequest[] = [{ id: 'a' }, { id: 'b', previousSlotId: 'gone' }];
    expect(placement(requests, ['s-2', 's-1'])).toEqual({ a: ['s-2', false], b: ['s-1', false] });
    expect(placement(requests, ['s-1', 's-2'])).toEqual({ a: ['s-1', false], b: ['s-2', false] });
  });

  it('leaves requests without a slot when there are fewer slots than requests, and says which', () => {
    const requests: SlotRequest[] = [{ id: 'a', previousSlotId: 'x' }, { id: 'b', previousSlotId: 's-1' }, { id: 'c' }];
    expect(selectSlots(requests, ['s-1', 's-2'])).toEqual({
      assignments: [
        { requestId: 'a', slotId: 's-2', previousSlot: false },
        { requestId: 'b', slotId: 's-1', previousSlot: true },
      ],
      unplaced: ['c'],
    });
  });

  it('returns the same selection for the same input', () => {
    const requests: SlotRequest[] = [{ id: 'a', previousSlotId: 'x' }, { id: 'b', previousSlotId: 's-3' }, { id: 'c' }];
    const free = ['s-3', 's-1', 's-2'];
    expect(selectSlots(requests, free)).toEqual(selectSlots(requests, free));
  });
});

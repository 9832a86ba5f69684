/**
 * Restarts of the simulation place subtasks with PreviousAllocationSlotSelectionStrategy
 * (placeOnPreviousSlots): a subtask gets its previous slot back when it is still there, so its
 * host's local copy is reachable; a subtask whose slot went with its TaskManager takes a fresh
 * one, never another's, and restores from remote.
 */
import { describe, expect, it } from 'vitest';
import { ClusterTopology } from '../../engine/job/cluster-topology.ts';
import { ExecutionGraph } from '../../engine/job/execution-graph.ts';
import { placeOnPreviousSlots } from '../../engine/recovery/slot-selection.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';

const LOCAL = { 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': true };

/** Parallelism 3 on four single-slot TaskManagers over two hosts: tm-3 (host-1) is a spare. */
function job(faults: Scenario['faults']): Scenario {
  const base = keyedCountJob({ keys: 3000, rate: 2000, count: 10_000, parallelism: 3 });
  return {
    ...base,
    config: { 'execution.checkpointing.interval': 500, ...LOCAL },
    faults,
    cluster: { hosts: 2, task_managers_per_host: 2, slots_per_task_manager: 1 },
  };
}

/** Each subtask's slot, by `vertex#index`. */
function slots(sim: Simulation): Record<string, string> {
  return Object.fromEntries(sim.graph.subtasks.map((s) => [`${s.id.vertexId}#${s.id.subtaskIndex}`, s.slot.id]));
}

function countSources(sim: Simulation) {
  return sim.restores[0]!.subtasks.filter((s) => s.vertexId === 'count').map((s) => [s.subtaskIndex, s.source, s.reason ?? null]);
}

describe('slot selection on restarts of the simulation', () => {
  it('gives every subtask its previous slot back after a TaskManager is killed, so all restore locally', () => {
    const sim = new Simulation(job([{ at_ms: 2200, type: 'kill-task-manager', task_manager: 'tm-1' }]));
    const before = slots(sim);
    sim.runUntil(5000);
    expect(sim.restores).toHaveLength(1);
    expect(slots(sim)).toEqual(before);
    expect(countSources(sim)).toEqual([
      [0, 'local', null],
      [1, 'local', null],
      [2, 'local', null],
    ]);
  });

  it('moves only a lost host’s subtasks to fresh slots; the others keep theirs and restore locally', () => {
    const sim = new Simulation(job([{ at_ms: 2200, type: 'lose-host', host: 'host-0' }]));
    expect(slots(sim)['count#2']).toBe('tm-2/slot-0');
    sim.runUntil(5000);
    const after = slots(sim);
    // tm-0 and tm-1 were replaced by tm-4 and tm-5 on host-1; tm-2 kept its slot, the spare tm-3 stayed free.
    expect(after['count#0']).toBe('tm-4/slot-0');
    expect(after['count#1']).toBe('tm-5/slot-0');
    expect(after['count#2']).toBe('tm-2/slot-0');
    expect(new Set(Object.values(after))).toEqual(new Set(['tm-4/slot-0', 'tm-5/slot-0', 'tm-2/slot-0']));
    expect(countSources(sim)).toEqual([
      [0, 'remote', 'different-slot'],
      [1, 'remote', 'different-slot'],
      [2, 'local', null],
    ]);
  });
});

describe('placeOnPreviousSlots', () => {
  const scenario = job([]);

  it('puts every slot-sharing group back in its previous slot, wherever the cluster lists it', () => {
    const cluster = new ClusterTopology(scenario.cluster);
    const graph = new ExecutionGraph(scenario, 128, cluster);
    // The groups ran crosswise before (group 0 on tm-2, group 2 on tm-0): each asks for its own.
    const previous = new Map(graph.subtasks.map((s) => [`${s.id.vertexId}#${s.id.subtaskIndex}`, { slotId: ['tm-2/slot-0', 'tm-1/slot-0', 'tm-0/slot-0'][s.id.subtaskIndex]! }]));
    const selection = placeOnPreviousSlots(graph, previous);
    expect(selection.assignments.map((a) => [a.requestId, a.slotId, a.previousSlot])).toEqual([
      ['0', 'tm-2/slot-0', true],
      ['1', 'tm-1/slot-0', true],
      ['2', 'tm-0/slot-0', true],
    ]);
    expect(graph.subtasks.filter((s) => s.id.subtaskIndex === 0).every((s) => s.slot.id === 'tm-2/slot-0')).toBe(true);
  });

  it('gives a group whose slot is gone the first free slot, never another group’s previous one', () => {
    const cluster = new ClusterTopology(scenario.cluster);
    const graph = new ExecutionGraph(scenario, 128, cluster);
    // Group 0's slot (tm-9) no longer exists; groups 1 and 2 ran on tm-0 and tm-1.
    const previous = new Map(graph.subtasks.map((s) => [`${s.id.vertexId}#${s.id.subtaskIndex}`, { slotId: ['tm-9/slot-0', 'tm-0/slot-0', 'tm-1/slot-0'][s.id.subtaskIndex]! }]));
    const selection = placeOnPreviousSlots(graph, previous);
    expect(selection.assignments.map((a) => [a.requestId, a.slotId, a.previousSlot])).toEqual([
      ['0', 'tm-2/slot-0', false],
      ['1', 'tm-0/slot-0', true],
      ['2', 'tm-1/slot-0', true],
    ]);
    expect(selection.unplaced).toEqual([]);
  });
});

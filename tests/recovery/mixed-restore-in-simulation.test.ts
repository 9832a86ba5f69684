import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';

const LOCAL = { 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': true };

/** 5,000 keys of state, two hosts with one TaskManager each, count#0 on host-0 (as in local-recovery-in-simulation). */
function job(faults: Scenario['faults']): Scenario {
  const base = keyedCountJob({ keys: 5000, rate: 2000, count: 10_000, parallelism: 2 });
  base.job.vertices[2]!.operator = { type: 'sink', sink: 'two-phase-commit' };
  return {
    ...base,
    config: { 'execution.checkpointing.interval': 500, ...LOCAL },
    faults,
    cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 },
    costs: { ...base.costs, remote_bandwidth_mb_per_s: 5, remote_latency_ms: 50, local_bandwidth_mb_per_s: 500, local_latency_ms: 0.5 },
  };
}

function run(scenario: Scenario): Simulation {
  const sim = new Simulation(scenario);
  sim.runToEnd();
  return sim;
}

describe('a restore that mixes local and remote handles within one subtask', () => {
  for (const [type, reason] of [
    ['delete-local-copy', 'partial'],
    ['corrupt-local-copy', 'corrupt'],
  ] as const) {
    it(`reads only the key-group handle a ${type} fault hit from remote, the rest locally, exactly once`, () => {
      const scenario = job([
        { at_ms: 2100, type, host: 'host-0', vertex: 'count', subtask: 0, key_group: 0 },
        { at_ms: 2200, type: 'fail-task', vertex: 'count', subtask: 1 },
      ]);
      const sim = run(scenario);
      const fault = sim.events.flatMap((e) => (e.type === 'fault' && e.fault?.kind === type ? [e.fault] : []))[0];
      expect(fault).toMatchObject({ keyGroup: 0 });
      const count0 = sim.restores[0]!.subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 0)!;
      expect([count0.source, count0.reason]).toEqual(['remote', reason]);
      const keyed = count0.handles!.filter((h) => h.kind === 'key-groups');
      expect(keyed.map((h) => [h.keyGroupRange!.start, h.source])).toEqual([
        [0, 'remote'],
        [keyed[1]!.keyGroupRange!.start, 'local'],
        [keyed[2]!.keyGroupRange!.start, 'local'],
        [keyed[3]!.keyGroupRange!.start, 'local'],
      ]);
      expect(count0.remoteBytes).toBe(count0.bytes - keyed.filter((h) => h.source === 'local').reduce((n, h) => n + h.bytes, 0));
      expect(count0.remoteBytes).toBeGreaterThan(0);
      expect(count0.remoteBytes).toBeLessThan(count0.bytes / 2);
      const reference = run({ ...scenario, faults: [] });
      expect(sim.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    });
  }

  it('reports the handles of a fully local restore as local and of a remote one with its reason', () => {
    const sim = run(job([
      { at_ms: 2100, type: 'delete-local-copy', host: 'host-0', vertex: 'count', subtask: 0 },
      { at_ms: 2200, type: 'fail-task', vertex: 'count', subtask: 1 },
    ]));
    const [count0, count1] = sim.restores[0]!.subtasks.filter((s) => s.vertexId === 'count');
    expect(new Set(count0!.handles!.map((h) => `${h.source}:${h.reason}`))).toEqual(new Set(['remote:missing']));
    expect(new Set(count1!.handles!.map((h) => h.source))).toEqual(new Set(['local']));
  });
});

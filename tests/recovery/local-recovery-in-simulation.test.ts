import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import type { RestoreRecord } from '../../engine/run/job-events.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { randomFaultJob } from '../support/random-fault-job.ts';

const LOCAL = { 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': true };

/** 5,000 keys of state, two hosts with one TaskManager each, a slow remote store (5 MB/s). */
function job(config: Scenario['config'], faults: Scenario['faults']): Scenario {
  const base = keyedCountJob({ keys: 5000, rate: 2000, count: 10_000, parallelism: 2 });
  base.job.vertices[2]!.operator = { type: 'sink', sink: 'two-phase-commit' };
  return {
    ...base,
    config: { 'execution.checkpointing.interval': 500, ...config },
    faults,
    cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 },
    costs: { ...base.costs, remote_bandwidth_mb_per_s: 5, remote_latency_ms: 50, local_bandwidth_mb_per_s: 500, local_latency_ms: 0.5 },
  };
}

function countRestores(restore: RestoreRecord) {
  return restore.subtasks.filter((s) => s.vertexId === 'count');
}

function exactlyOnce(sim: Simulation, scenario: Scenario) {
  const reference = new Simulation({ ...scenario, faults: [] });
  reference.runToEnd();
  return sim.sinkOutput.compareTo(reference.sinkOutput);
}

describe('task-local recovery in the simulation', () => {
  it('restores keyed subtasks from their local copies after a task failure, faster than from remote', () => {
    const scenario = job(LOCAL, [{ at_ms: 2200, type: 'fail-task', vertex: 'count', subtask: 0 }]);
    const sim = new Simulation(scenario);
    sim.runToEnd();
    const counts = countRestores(sim.restores[0]!);
    expect(counts.map((s) => s.source)).toEqual(['local', 'local']);
    const remote = new Simulation(job({}, scenario.faults));
    remote.runToEnd();
    const remoteCounts = countRestores(remote.restores[0]!);
    expect(remoteCounts.map((s) => s.source)).toEqual(['remote', 'remote']);
    expect(Math.max(...counts.map((s) => s.durationMs))).toBeLessThan(Math.max(...remoteCounts.map((s) => s.durationMs)) / 5);
    expect(exactlyOnce(sim, scenario)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('restores locally after a TaskManager is killed: it restarts on its host, whose disk survived', () => {
    const sim = new Simulation(job(LOCAL, [{ at_ms: 2200, type: 'kill-task-manager', task_manager: 'tm-0' }]));
    sim.runToEnd();
    expect(countRestores(sim.restores[0]!).map((s) => s.source)).toEqual(['local', 'local']);
  });

  it('restores from remote the subtasks of a lost host, whose disk is gone, and locally the others', () => {
    // slot sharing puts subtask 0 of every vertex on tm-0 (host-0) and subtask 1 on tm-1 (host-1)
    const scenario: Scenario = { ...job(LOCAL, [{ at_ms: 2200, type: 'lose-host', host: 'host-1' }]), cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 1 } };
    const sim = new Simulation(scenario);
    sim.runToEnd();
    const counts = countRestores(sim.restores[0]!);
    expect(counts.map((s) => [s.subtaskIndex, s.source, s.reason])).toEqual([
      [0, 'local', undefined],
      [1, 'remote', 'different-slot'],
    ]);
    expect(exactlyOnce(sim, scenario)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('falls back to remote for a corrupted local copy, and for a deleted one, and says why', () => {
    for (const [type, reason] of [
      ['corrupt-local-copy', 'corrupt'],
      ['delete-local-copy', 'missing'],
    ] as const) {
      const sim = new Simulation(job(LOCAL, [
        { at_ms: 2100, type, host: 'host-0', vertex: 'count', subtask: 0 },
        { at_ms: 2200, type: 'fail-task', vertex: 'count', subtask: 1 },
      ]));
      sim.runToEnd();
      expect(countRestores(sim.restores[0]!).map((s) => [s.source, s.reason])).toEqual([
        ['remote', reason],
        ['local', undefined],
      ]);
    }
  });

  it('reads remote when local recovery is off, even with local backups written', () => {
    const sim = new Simulation(job({ 'execution.checkpointing.local-backup.enabled': true }, [{ at_ms: 2200, type: 'fail-task', vertex: 'count', subtask: 0 }]));
    sim.runToEnd();
    expect(countRestores(sim.restores[0]!).map((s) => s.reason)).toEqual(['local-recovery-disabled', 'local-recovery-disabled']);
  });

  it('never restores locally after a rescale', () => {
    const base = job(LOCAL, []);
    base.job.edges[1]!.partitioning = 'rebalance';
    const sim = new Simulation({ ...base, cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 } });
    sim.runUntil(2200);
    expect(sim.rescale('count', 3)).toBeUndefined();
    sim.runToEnd();
    expect(new Set(countRestores(sim.restores[0]!).map((s) => s.reason))).toEqual(new Set(['rescaled']));
  });

  it('keeps only the latest confirmed local copy per subtask, and wipes a lost host', () => {
    const sim = new Simulation(job(LOCAL, []));
    sim.runUntil(4000);
    const stores = sim.localDisks().flatMap((d) => d.stores).filter((s) => s.vertexId === 'count');
    expect(stores).toHaveLength(2);
    for (const s of stores) expect(s.copies.filter((c) => c.confirmed)).toHaveLength(1);
    expect(sim.loseHost('host-1')).toBeUndefined();
    expect(sim.localDisks().find((d) => d.host === 'host-1')!.stores).toEqual([]);
  });

  it('stays exactly-once with local recovery under seeded fault schedules', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const base = randomFaultJob(seed, { mode: 'EXACTLY_ONCE', sink: 'two-phase-commit' });
      const scenario = { ...base, config: { ...base.config, ...LOCAL } };
      const sim = new Simulation(scenario);
      sim.runToEnd();
      expect(sim.jobStatus, `seed ${seed}`).toBe('FINISHED');
      expect(exactlyOnce(sim, scenario), `seed ${seed}`).toEqual({ duplicates: 0, missing: 0 });
    }
  });
});

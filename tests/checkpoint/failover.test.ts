import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';

function job(config: Scenario['config'], faults: Scenario['faults'] = []): Scenario {
  const base = keyedCountJob({ keys: 10, rate: 1000, count: 4000, parallelism: 2 });
  base.job.vertices[2]!.operator = { type: 'sink', sink: 'two-phase-commit' };
  return { ...base, config: { 'execution.checkpointing.interval': 200, ...config }, faults, cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 } };
}

const statuses = (sim: Simulation) => sim.events.flatMap((e) => (e.type === 'job-status' ? [e.status] : []));

describe('failover and job status', () => {
  it('goes RUNNING → RESTARTING → RUNNING → FINISHED through a task failure', () => {
    const sim = new Simulation(job({}, [{ at_ms: 1000, type: 'fail-task', vertex: 'count', subtask: 1 }]));
    sim.runToEnd();
    expect(statuses(sim)).toEqual(['RUNNING', 'RESTARTING', 'RUNNING', 'FINISHED']);
    expect(sim.restarts).toBe(1);
  });

  it('fails the job (FAILING → FAILED) when the restart strategy is none', () => {
    const sim = new Simulation(job({ 'restart-strategy.type': 'none' }, [{ at_ms: 1000, type: 'fail-task', vertex: 'count', subtask: 0 }]));
    sim.runToEnd();
    expect(statuses(sim)).toEqual(['RUNNING', 'FAILING', 'FAILED']);
    expect(sim.failureCause).toMatch(/count#0 failed/);
  });

  it('gives up after the fixed-delay attempts are used', () => {
    const faults = [1000, 1500, 2000].map((at_ms) => ({ at_ms, type: 'fail-task' as const, vertex: 'count', subtask: 0 }));
    const sim = new Simulation(job({ 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': 2, 'restart-strategy.fixed-delay.delay': 100 }, faults));
    sim.runToEnd();
    expect(sim.jobStatus).toBe('FAILED');
    expect(sim.restarts).toBe(2);
  });

  it('waits the fixed delay before restarting', () => {
    const sim = new Simulation(job({ 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': 3, 'restart-strategy.fixed-delay.delay': 700 }, [{ at_ms: 1000, type: 'fail-task', vertex: 'count', subtask: 0 }]));
    sim.runToEnd();
    expect(sim.restores[0]!.time).toBe(1700);
  });

  it('restores each subtask from the latest completed checkpoint and rewinds the sources to its offsets', () => {
    const sim = new Simulation(job({}, [{ at_ms: 1050, type: 'kill-task-manager', task_manager: 'tm-0' }]));
    sim.runUntil(1050);
    const latest = sim.coordinator.latestCheckpoint()!;
    sim.runToEnd();
    const restore = sim.restores[0]!;
    expect(restore.checkpointId).toBe(latest.id);
    expect(restore.subtasks).toHaveLength(6);
    const sourceOffset = latest.taskStates.get('source#0')!.sourceOffset!;
    expect(sourceOffset).toBeGreaterThan(0);
    expect(sourceOffset).toBeLessThan(1100);
  });

  it('restarts a killed TaskManager in place, and replaces a lost host\'s TaskManagers elsewhere', () => {
    const sim = new Simulation(job({}, [{ at_ms: 500, type: 'kill-task-manager', task_manager: 'tm-1' }, { at_ms: 2500, type: 'lose-host', host: 'host-0' }]));
    sim.runUntil(600);
    expect(sim.topology().taskManagers.map((t) => `${t.id}@${t.host}`)).toEqual(['tm-0@host-0', 'tm-1@host-1']);
    sim.runToEnd();
    expect(sim.topology().taskManagers.map((t) => `${t.id}@${t.host}`)).toEqual(['tm-2@host-1', 'tm-1@host-1']);
    expect(sim.jobStatus).toBe('FINISHED');
  });

  function afterSavepoint(restartAt: number) {
    const sim = new Simulation(job({}));
    sim.runUntil(800);
    expect(sim.triggerCheckpoint('savepoint')).toBeUndefined();
    sim.runUntil(restartAt);
    const savepoint = sim.coordinator.savepoints[0]!;
    const checkpointsAfter = sim.coordinator.store.getAllCheckpoints().filter((c) => c.id > savepoint.id).length;
    expect(sim.restartFromSavepoint(savepoint.id)).toBeUndefined();
    sim.runToEnd();
    expect(sim.restores[0]).toMatchObject({ checkpointId: savepoint.id, isSavepoint: true });
    const reference = new Simulation(job({}));
    reference.runToEnd();
    return { checkpointsAfter, ...sim.sinkOutput.compareTo(reference.sinkOutput) };
  }

  it('restarts from a savepoint taken just before, and keeps exactly-once', () => {
    const { checkpointsAfter, duplicates, missing } = afterSavepoint(870);
    expect(checkpointsAfter).toBe(0);
    expect({ duplicates, missing }).toEqual({ duplicates: 0, missing: 0 });
  });

  it('writes again what later checkpoints committed when restarting from an older savepoint, as Flink does', () => {
    const { checkpointsAfter, duplicates, missing } = afterSavepoint(1500);
    expect(checkpointsAfter).toBeGreaterThan(0);
    expect(duplicates).toBeGreaterThan(0);
    expect(missing).toBe(0);
  });

  it('restores the savepoint again on a failover after a restart from it, until a newer checkpoint completes (Flink adds it to the store)', () => {
    // Periodic checkpoints far apart: nothing completes between the savepoint restart and the failure.
    const sim = new Simulation(job({ 'execution.checkpointing.interval': 600 }));
    sim.runUntil(700);
    expect(sim.triggerCheckpoint('savepoint')).toBeUndefined();
    sim.runUntil(1500);
    const savepoint = sim.coordinator.savepoints[0]!;
    expect(sim.coordinator.store.getLatestCheckpoint()!.id).toBeGreaterThan(savepoint.id);
    expect(sim.restartFromSavepoint(savepoint.id)).toBeUndefined();
    sim.runUntil(1600);
    expect(sim.restores.at(-1)).toMatchObject({ checkpointId: savepoint.id, isSavepoint: true });
    const completedBefore = sim.coordinator.store.getLatestCheckpoint()!.id;
    const restores = sim.restores.length;
    expect(sim.failTask('count', 0)).toBeUndefined();
    while (sim.restores.length === restores && sim.step());
    expect(sim.restores).toHaveLength(restores + 1);
    expect(sim.coordinator.store.getLatestCheckpoint()!.id, 'no checkpoint completed in between').toBe(completedBefore);
    expect(sim.restores.at(-1)).toMatchObject({ checkpointId: savepoint.id, isSavepoint: true });
    sim.runToEnd();
    // Once a checkpoint completed after the savepoint restart, a failover restores that one.
    const newer = sim.coordinator.store.getLatestCheckpoint()!;
    expect(newer.id).toBeGreaterThan(completedBefore);
  });

  for (const [retention, kept] of [
    ['RETAIN_ON_CANCELLATION', true],
    ['DELETE_ON_CANCELLATION', false],
    ['NO_EXTERNALIZED_CHECKPOINTS', false],
  ] as const) {
    it(`on cancel with ${retention} ${kept ? 'keeps' : 'deletes'} the completed checkpoints`, () => {
      const sim = new Simulation(job({ 'execution.checkpointing.externalized-checkpoint-retention': retention, 'execution.checkpointing.num-retained': 2 }));
      sim.runUntil(1500);
      expect(sim.cancel()).toBeUndefined();
      expect(sim.jobStatus).toBe('CANCELED');
      expect(sim.retainedCheckpoints.length).toBe(kept ? 2 : 0);
      sim.runToEnd();
      expect(sim.jobStatus).toBe('CANCELED');
    });
  }

  for (const [retention, kept] of [
    ['RETAIN_ON_CANCELLATION', true],
    ['DELETE_ON_CANCELLATION', true],
    ['NO_EXTERNALIZED_CHECKPOINTS', false],
  ] as const) {
    it(`when the job fails with ${retention} ${kept ? 'keeps' : 'deletes'} the completed checkpoints`, () => {
      const sim = new Simulation(job({ 'execution.checkpointing.externalized-checkpoint-retention': retention, 'restart-strategy.type': 'none' }, [{ at_ms: 1500, type: 'fail-task', vertex: 'sink', subtask: 0 }]));
      sim.runToEnd();
      expect(sim.jobStatus).toBe('FAILED');
      expect(sim.retainedCheckpoints.length).toBe(kept ? 1 : 0);
    });
  }

  it('fails over when checkpoints fail more often than tolerated, and restarts', () => {
    // a 1 ms timeout expires every checkpoint: the second consecutive failure exceeds tolerance 1
    const sim = new Simulation(job({ 'execution.checkpointing.timeout': 10, 'execution.checkpointing.tolerable-failed-checkpoints': 1, 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': 1 }));
    sim.runToEnd();
    const failure = sim.events.find((e) => e.type === 'job-status' && e.status === 'RESTARTING');
    expect(failure && 'message' in failure ? failure.message : '').toMatch(/^Exceeded checkpoint tolerable failure threshold\./);
  });
});

import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { checkpointFailureMessage } from '../../engine/checkpoint/checkpoint-failure-reason.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';

function job(config: Scenario['config'], faults: Scenario['faults']): Scenario {
  const base = keyedCountJob({ keys: 100, rate: 1000, count: 8000, parallelism: 2 });
  base.job.vertices[2]!.operator = { type: 'sink', sink: 'two-phase-commit' };
  return { ...base, config: { 'execution.checkpointing.interval': 500, ...config }, faults, cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 } };
}

type History = Array<{ id: number; status: string; end_to_end_duration: number; failure_message?: string }>;
const history = (sim: Simulation) => (sim.coordinator.stats.checkpointingStatistics() as { history: History }).history;

function exactlyOnce(sim: Simulation, scenario: Scenario) {
  const reference = new Simulation({ ...scenario, faults: [] });
  reference.runToEnd();
  return sim.sinkOutput.compareTo(reference.sinkOutput);
}

describe('remote storage faults', () => {
  it('fails checkpoints with CHECKPOINT_ASYNC_EXCEPTION (the upload, the asynchronous part, failed) while remote storage fails, and the job goes on', () => {
    const scenario = job({ 'execution.checkpointing.tolerable-failed-checkpoints': 100, 'execution.checkpointing.num-retained': 10 }, [
      { at_ms: 2000, type: 'fail-remote-storage' },
      { at_ms: 4000, type: 'heal-remote-storage' },
    ]);
    const sim = new Simulation(scenario);
    sim.runToEnd();
    expect(sim.jobStatus).toBe('FINISHED');
    expect(sim.restarts).toBe(0);
    const entries = (sim.coordinator.stats.checkpointingStatistics() as { counts: { failed: number } }).counts;
    expect(entries.failed).toBeGreaterThanOrEqual(3);
    const failedIds = sim.events.flatMap((e) => (e.type === 'checkpoint-failed' ? [[e.checkpointId, e.reason]] : []));
    expect(failedIds.every(([, reason]) => reason === 'CHECKPOINT_ASYNC_EXCEPTION')).toBe(true);
    // checkpoints completed before the failure and after the healing were not harmed
    const completed = sim.events.filter((e) => e.type === 'checkpoint-completed').map((e) => e.time);
    expect(completed.some((t) => t < 2000)).toBe(true);
    expect(completed.some((t) => t > 4000)).toBe(true);
    expect(exactlyOnce(sim, scenario)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('fails the job over once failing uploads exceed the tolerable failed checkpoints', () => {
    const sim = new Simulation(job({ 'execution.checkpointing.tolerable-failed-checkpoints': 1 }, [{ at_ms: 1000, type: 'fail-remote-storage' }]));
    sim.runUntil(4000);
    const restart = sim.events.find((e) => e.type === 'job-status' && e.status === 'RESTARTING');
    expect(restart && 'message' in restart ? restart.message : '').toBe(
      `Exceeded checkpoint tolerable failure threshold. The latest checkpoint failed due to ${checkpointFailureMessage('CHECKPOINT_ASYNC_EXCEPTION')}, view the Checkpoint History tab or the Job Manager log to find out why continuous checkpoints failed.`,
    );
  });

  it('makes checkpoints take about as many times longer as remote storage is slowed down', () => {
    const sim = new Simulation(job({}, [{ at_ms: 2500, type: 'slow-remote-storage', factor: 10 }]));
    sim.runUntil(6000);
    const done = history(sim).filter((h) => h.status === 'COMPLETED');
    const before = done.filter((h) => h.id <= 3).map((h) => h.end_to_end_duration);
    const after = done.filter((h) => h.id >= 7).map((h) => h.end_to_end_duration);
    expect(Math.min(...after)).toBeGreaterThan(5 * Math.max(...before));
  });

  it('keeps restoring until remote storage is back, then finishes exactly-once', () => {
    const scenario = job({ 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': 50, 'restart-strategy.fixed-delay.delay': 200 }, [
      { at_ms: 2000, type: 'fail-remote-storage' },
      { at_ms: 2100, type: 'fail-task', vertex: 'count', subtask: 0 },
      { at_ms: 3500, type: 'heal-remote-storage' },
    ]);
    const sim = new Simulation(scenario);
    sim.runToEnd();
    expect(sim.jobStatus).toBe('FINISHED');
    expect(sim.restarts).toBeGreaterThan(2);
    expect(sim.events.some((e) => e.type === 'job-status' && e.message?.startsWith('Restoring checkpoint'))).toBe(true);
    expect(exactlyOnce(sim, scenario)).toEqual({ duplicates: 0, missing: 0 });
  });
});

describe('a stalled TaskManager', () => {
  it('freezes its tasks until heartbeat.timeout, then the job fails over with Flink\'s message', () => {
    // one slot per TaskManager: subtask 1 of every vertex runs on tm-1
    const scenario: Scenario = {
      ...job({ 'heartbeat.interval': '500 ms', 'heartbeat.timeout': '3 s' }, [{ at_ms: 2000, type: 'stall-task-manager', task_manager: 'tm-1' }]),
      cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 1 },
    };
    const sim = new Simulation(scenario);
    sim.runUntil(4900);
    expect(sim.jobStatus).toBe('RUNNING');
    const stalled = sim.tasks.filter((t) => t.id.subtaskIndex === 1).map((t) => t.metrics.numRecordsIn + t.metrics.numRecordsOut);
    sim.runUntil(4990);
    expect(sim.tasks.filter((t) => t.id.subtaskIndex === 1).map((t) => t.metrics.numRecordsIn + t.metrics.numRecordsOut)).toEqual(stalled);
    sim.runToEnd();
    const restart = sim.events.find((e) => e.type === 'job-status' && e.status === 'RESTARTING');
    expect(restart?.time).toBe(5000);
    expect(restart && 'message' in restart ? restart.message : '').toBe('Heartbeat of TaskManager with id tm-1 timed out.');
    expect(sim.jobStatus).toBe('FINISHED');
    expect(exactlyOnce(sim, scenario)).toEqual({ duplicates: 0, missing: 0 });
  });
});

/**
 * Flink's stop-with-savepoint through the JobMaster, with a manual clock (every call says what
 * time it is) and the runtime played by the test; then in the sim, where the job ends FINISHED
 * before its bounded sources ran out.
 */
import { describe, expect, it } from 'vitest';
import { JobMaster } from '../../engine/job/job-master.ts';
import type { JobMasterEffect } from '../../engine/job/job-master-effect.ts';
import type { JobOperation } from '../../engine/job/job-operation.ts';
import { HostLocalDisk } from '../../engine/recovery/host-local-disk.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { metricsAt, snapshotOf } from '../support/coordinator-harness.ts';

/** source → count → sink (two-phase commit) at parallelism 2; checkpoints every 200 ms. */
function scenario(config: Scenario['config'] = {}): Scenario {
  const base = keyedCountJob({ keys: 10, rate: 1000, count: 4000, parallelism: 2 });
  base.job.vertices[2]!.operator = { type: 'sink', sink: 'two-phase-commit' };
  return {
    ...base,
    cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 1 },
    config: { 'execution.checkpointing.interval': 200, 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.delay': 100, ...config },
  };
}

/** A JobMaster whose every subtask runs (the test plays the runtime), started at time 0. */
function jobMaster(config: Scenario['config'] = {}) {
  const disks = new Map(['host-0', 'host-1'].map((h) => [h, new HostLocalDisk(h)]));
  const jm: JobMaster = new JobMaster(scenario(config), {
    seed: 1,
    jobId: 'job',
    disks,
    subtasks: () => jm.graph.subtasks.map((s) => ({ id: s.id, running: true, finished: false, finalSnapshot: undefined })),
  });
  jm.start(0, []);
  return jm;
}

function operate(jm: JobMaster, op: JobOperation, now: number) {
  const effects: JobMasterEffect[] = [];
  return { problem: jm.operate(op, now, effects), effects };
}

/** Every subtask acknowledges `checkpointId` at `now`. */
function ackAll(jm: JobMaster, checkpointId: number, now: number): JobMasterEffect[] {
  const effects: JobMasterEffect[] = [];
  for (const s of jm.graph.subtasks) jm.onAcknowledge(jm.attempt, checkpointId, s.id, snapshotOf(s.id), { ...metricsAt(now), asyncDurationMs: 0, ackTimestamp: now }, now, effects);
  return effects;
}

const triggers = (effects: readonly JobMasterEffect[]) => effects.flatMap((e) => (e.type === 'trigger-task' ? [e.barrier] : []));
const statuses = (jm: JobMaster) => jm.events.flatMap((e) => (e.type === 'job-status' ? [e.status] : []));
const historyEntry = (jm: JobMaster, id: number) =>
  (jm.coordinator.stats.checkpointingStatistics() as { history: Array<{ id: number; status: string; checkpoint_type: string; is_savepoint: boolean }> }).history.find((h) => h.id === id);

describe('stop-with-savepoint in the JobMaster', () => {
  it.each<[string, JobOperation, string]>([
    ['without drain', { type: 'stop-with-savepoint' }, 'NO_DRAIN'],
    ['with drain: false', { type: 'stop-with-savepoint', drain: false }, 'NO_DRAIN'],
    ['with drain: true', { type: 'stop-with-savepoint', drain: true }, 'DRAIN'],
  ])('triggers a synchronous savepoint %s at the sources, its barrier carrying the stop mode', (_, op, stopMode) => {
    const jm = jobMaster();
    const { problem, effects } = operate(jm, op, 100);
    expect(problem).toBeUndefined();
    const barriers = triggers(effects);
    expect(barriers.map((b) => b.checkpointKind)).toEqual(['SAVEPOINT', 'SAVEPOINT']);
    expect(barriers.every((b) => b.stopMode === stopMode && b.alignment === 'ALIGNED')).toBe(true);
    expect(historyEntry(jm, barriers[0]!.checkpointId)).toMatchObject({ status: 'IN_PROGRESS', checkpoint_type: 'SYNC_SAVEPOINT', is_savepoint: true });
    expect(jm.isStopping).toBe(true);
  });

  it('aborts a pending periodic checkpoint and stops the periodic trigger while it stops', () => {
    const jm = jobMaster();
    const periodic = jm.coordinator.nextPeriodicTriggerAt;
    const first: JobMasterEffect[] = [];
    jm.onCoordinatorTimer({ kind: 'periodic', generation: 0 }, periodic, first);
    expect(triggers(first)).toHaveLength(2);
    operate(jm, { type: 'stop-with-savepoint' }, periodic + 10);
    expect(jm.events).toContainEqual(expect.objectContaining({ type: 'checkpoint-failed', checkpointId: 1, reason: 'CHECKPOINT_COORDINATOR_SUSPEND' }));
    expect(jm.coordinator.nextPeriodicTriggerAt).toBe(Infinity);
  });

  it('notifies the tasks once the savepoint completes, and the job FINISHES when they have finished', () => {
    const jm = jobMaster();
    const id = triggers(operate(jm, { type: 'stop-with-savepoint' }, 100).effects)[0]!.checkpointId;
    const completion = ackAll(jm, id, 150);
    expect(completion).toContainEqual(expect.objectContaining({ type: 'notify-complete', checkpointId: id }));
    expect(jm.coordinator.savepoints.map((s) => s.id)).toEqual([id]);
    expect(jm.status).toBe('RUNNING');
    const end: JobMasterEffect[] = [];
    jm.onAllTasksFinished(200, end);
    expect(statuses(jm)).toEqual(['RUNNING', 'FINISHED']);
    expect(end).toContainEqual(expect.objectContaining({ type: 'job-terminated', retain: false }));
    expect(historyEntry(jm, id)).toMatchObject({ status: 'COMPLETED', checkpoint_type: 'SYNC_SAVEPOINT' });
    expect(jm.isStopping).toBe(false);
  });

  it('keeps the job running, checkpointing again, when the savepoint expires (a job-level failure)', () => {
    const jm = jobMaster({ 'execution.checkpointing.timeout': 1000 });
    const id = triggers(operate(jm, { type: 'stop-with-savepoint' }, 100).effects)[0]!.checkpointId;
    const effects: JobMasterEffect[] = [];
    jm.onCoordinatorTimer({ kind: 'timeout', checkpointId: id }, 1100, effects);
    expect(jm.events).toContainEqual(expect.objectContaining({ type: 'checkpoint-failed', checkpointId: id, reason: 'CHECKPOINT_EXPIRED' }));
    expect(jm.status).toBe('RUNNING');
    expect(jm.isStopping).toBe(false);
    expect(jm.coordinator.nextPeriodicTriggerAt).toBeLessThan(Infinity);
    expect(operate(jm, { type: 'stop-with-savepoint' }, 1200).problem).toBeUndefined();
  });

  it('fails the job over when a task declines the savepoint (a task-level failure of a synchronous savepoint)', () => {
    const jm = jobMaster();
    const id = triggers(operate(jm, { type: 'stop-with-savepoint' }, 100).effects)[0]!.checkpointId;
    jm.onDecline(jm.attempt, id, 'CHECKPOINT_DECLINED_TASK_NOT_READY', 120, []);
    expect(statuses(jm)).toEqual(['RUNNING', 'RESTARTING']);
    expect(jm.isStopping).toBe(false);
  });

  it.each<[string, (jm: JobMaster) => void, RegExp]>([
    ['already stopping', (jm) => operate(jm, { type: 'stop-with-savepoint' }, 50), /being stopped with a savepoint already/],
    ['restarting', (jm) => jm.onTaskFailed(jm.attempt, 0, 'boom', 50, []), /while it is RESTARTING/],
    ['canceled', (jm) => operate(jm, { type: 'cancel' }, 50), /while it is CANCELED/],
  ])('refuses to stop a job that is %s', (_, before, problem) => {
    const jm = jobMaster();
    before(jm);
    expect(operate(jm, { type: 'stop-with-savepoint' }, 100).problem).toMatch(problem);
  });
});

/** well past the bounded sources' end (4 s): a job that did not finish by then is a failure */
const RUN_UNTIL = 10_000;

describe('stop-with-savepoint in the sim', () => {
  function stopped(drain: boolean) {
    const sim = new Simulation(scenario());
    sim.runUntil(1500);
    expect(sim.stopWithSavepoint(drain)).toBeUndefined();
    sim.runUntil(RUN_UNTIL);
    return sim;
  }

  it.each([false, true])('ends the job FINISHED with the savepoint completed (drain: %s), before the bounded sources ran out', (drain) => {
    const sim = stopped(drain);
    expect(sim.jobStatus).toBe('FINISHED');
    const finishedAt = sim.jobMaster.events.find((e) => e.type === 'job-status' && e.status === 'FINISHED')!.time;
    expect(finishedAt).toBeLessThan(4000);
    const savepoint = sim.coordinator.savepoints.at(-1)!;
    expect(savepoint.isSavepoint).toBe(true);
    expect(sim.tasks.every((t) => t.lifecycle.state === 'FINISHED')).toBe(true);
  });
});

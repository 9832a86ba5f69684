import { describe, expect, it } from 'vitest';
import { FencingChecker } from '../../../engine/run/invariants/fencing-checker.ts';
import { InvariantCheckers } from '../../../engine/run/invariants/invariant-checkers.ts';
import type { TaskMessage } from '../../../engine/job/task-message.ts';
import { Simulation } from '../../../engine/sim/simulation.ts';
import type { Scenario } from '../../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from '../../support/scenario-builder.ts';
import { metricsAt, snapshotOf } from '../../support/coordinator-harness.ts';

function verdict(messages: TaskMessage[]): string[] {
  const checker = new FencingChecker();
  messages.forEach((m) => checker.onTaskMessage(m));
  return checker.verdict().map((v) => v.message);
}

const cancelled = (attempt: number, time: number): TaskMessage => ({ kind: 'attempt-cancelled', time, attempt });
const ack = (attempt: number, time: number): TaskMessage => ({ kind: 'acknowledge', time, attempt, checkpointId: 4, subtask: 'count#1' });

/** source → count → sink (two-phase commit), checkpoints every 100 ms, a TaskManager killed at 450 ms. */
function killedTwoPhaseCommitRun(): Scenario {
  const base = keyedCountJob({ keys: 10, rate: 2000, count: 4000, parallelism: 2 });
  base.job.vertices[2]!.operator = { type: 'sink', sink: 'two-phase-commit' };
  return {
    ...base,
    config: { 'execution.checkpointing.interval': 100, 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': 3, 'restart-strategy.fixed-delay.delay': 50 },
    faults: [{ at_ms: 450, type: 'kill-task-manager', task_manager: 'tm-1' }],
  };
}

function fencingOf(checkers: InvariantCheckers): FencingChecker {
  return checkers.checkers.find((c): c is FencingChecker => c instanceof FencingChecker)!;
}

describe('the fencing checker', () => {
  it('passes messages of the current attempt, and of an attempt before it was cancelled', () => {
    expect(verdict([ack(0, 10), { kind: 'commit', time: 20, attempt: 0, subtask: 'sink#0', transactionId: 'sink#0@0-1' }, cancelled(0, 30), ack(1, 40), { kind: 'deliver', time: 41, attempt: 1, subtask: 'source#0' }])).toEqual([]);
  });

  it.each<[string, TaskMessage[], string]>([
    ['an acknowledgement', [cancelled(0, 30), ack(0, 31.0000001)], 'count#1 of attempt 0 acknowledged checkpoint 4 at 31 ms, after its attempt was cancelled at 30 ms'],
    ['a decline', [cancelled(2, 30), { kind: 'decline', time: 35, attempt: 2, checkpointId: 7, subtask: 'source#0' }], 'source#0 of attempt 2 declined checkpoint 7 at 35 ms, after its attempt was cancelled at 30 ms'],
    ['a commit', [cancelled(0, 30), { kind: 'commit', time: 32, attempt: 0, subtask: 'sink#1', transactionId: 'sink#1@0-3' }], 'sink#1 of attempt 0 committed transaction sink#1@0-3 at 32 ms, after its attempt was cancelled at 30 ms'],
    ['a delivered buffer', [cancelled(0, 30), { kind: 'deliver', time: 33, attempt: 0, subtask: 'source#1' }], 'source#1 of attempt 0 had a buffer delivered at 33 ms, after its attempt was cancelled at 30 ms'],
    ['an attempt older than a cancelled one', [cancelled(3, 30), ack(1, 34)], 'count#1 of attempt 1 acknowledged checkpoint 4 at 34 ms, after a later attempt was cancelled'],
  ])('flags %s from a cancelled attempt', (_what, messages, expected) => {
    expect(verdict(messages)).toEqual([expected]);
  });

  it('is fed by a sim run through the JobMaster: acknowledgements, commits, deliveries and the cancelled attempt, with nothing to flag', () => {
    const sim = new Simulation(killedTwoPhaseCommitRun());
    const checkers = new InvariantCheckers(sim);
    checkers.attach(sim);
    sim.runToEnd();
    const fencing = fencingOf(checkers);
    expect(sim.jobStatus).toBe('FINISHED');
    expect(sim.restarts).toBe(1);
    expect(fencing.seen['attempt-cancelled']).toBe(1);
    expect(fencing.seen.acknowledge).toBeGreaterThan(0);
    expect(fencing.seen.commit).toBeGreaterThan(0);
    expect(fencing.seen.deliver).toBeGreaterThan(0);
    expect(fencing.verdict()).toEqual([]);
  });

  it('flags an acknowledgement and a decline the JobMaster took from the attempt it cancelled', () => {
    const sim = new Simulation(killedTwoPhaseCommitRun());
    const checkers = new InvariantCheckers(sim);
    checkers.attach(sim);
    sim.runUntil(600);
    expect(sim.jobMaster.attempt).toBe(1);
    expect(sim.jobMaster.isFencedOff(0)).toBe(true);
    expect(sim.jobMaster.isFencedOff(1)).toBe(false);
    const subtask = sim.graph.subtasks[0]!.id;
    const now = sim.now;
    sim.jobMaster.onAcknowledge(0, 3, subtask, snapshotOf(subtask), { ...metricsAt(now), asyncDurationMs: 0, ackTimestamp: now }, now, []);
    sim.jobMaster.onDecline(0, 3, 'CHECKPOINT_DECLINED_TASK_NOT_READY', now, [], subtask);
    expect(fencingOf(checkers).verdict().map((v) => v.message)).toEqual([
      `source#0 of attempt 0 acknowledged checkpoint 3 at ${now} ms, after its attempt was cancelled at 450 ms`,
      `source#0 of attempt 0 declined checkpoint 3 at ${now} ms, after its attempt was cancelled at 450 ms`,
    ]);
  });

  it('reads a job that gave up as fenced off: its attempt number stays, its tasks are cancelled', () => {
    const scenario = { ...killedTwoPhaseCommitRun(), config: { 'execution.checkpointing.interval': 100, 'restart-strategy.type': 'none' } };
    const sim = new Simulation(scenario);
    sim.runToEnd();
    expect(sim.jobStatus).toBe('FAILED');
    expect(sim.jobMaster.attempt).toBe(0);
    expect(sim.jobMaster.isFencedOff(0)).toBe(true);
  });
});

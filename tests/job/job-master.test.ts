/**
 * The JobMaster on its own, in the style of the coordinator's tests: a manual clock (every call
 * says what time it is), the runtime played by the test (it carries out nothing; it reports what
 * a runtime would), and every effect asserted.
 */
import { describe, expect, it } from 'vitest';
import { JobMaster } from '../../engine/job/job-master.ts';
import type { JobMasterEffect } from '../../engine/job/job-master-effect.ts';
import { HostLocalDisk } from '../../engine/recovery/host-local-disk.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';

/** source → count → sink at parallelism 2 on `cluster`; fixed-delay restarts of 100 ms. */
function scenario(cluster: Scenario['cluster'], config: Scenario['config'] = {}): Scenario {
  const base = keyedCountJob({ keys: 10, rate: 1000, count: 4000, parallelism: 2 });
  base.job.vertices[2]!.operator = { type: 'sink', sink: 'two-phase-commit' };
  return {
    ...base,
    cluster,
    config: {
      'execution.checkpointing.interval': 200,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 3,
      'restart-strategy.fixed-delay.delay': 100,
      'heartbeat.interval': '500 ms',
      'heartbeat.timeout': '3 s',
      ...config,
    },
  };
}

/** One TaskManager per host with one slot each: subtask i runs on tm-i, and tm-2 holds no slot. */
const SPREAD = { hosts: 3, task_managers_per_host: 1, slots_per_task_manager: 1 };

function jobMaster(s: Scenario) {
  const disks = new Map(Array.from({ length: s.cluster.hosts }, (_, h) => [`host-${h}`, new HostLocalDisk(`host-${h}`)]));
  const jm = new JobMaster(s, { seed: 1, jobId: 'job', disks, subtasks: () => [] });
  const effects: JobMasterEffect[] = [];
  jm.start(0, effects);
  return { jm, disks, startEffects: effects };
}

const types = (effects: readonly JobMasterEffect[]) => effects.map((e) => e.type);
const statuses = (jm: JobMaster) => jm.events.flatMap((e) => (e.type === 'job-status' ? [e.status] : []));

/** Plays the runtime after an operation: a terminated TaskManager is reported lost, as its connection breaks. */
function operate(jm: JobMaster, op: Parameters<JobMaster['operate']>[0], now: number): { problem: string | undefined; effects: JobMasterEffect[] } {
  const effects: JobMasterEffect[] = [];
  const problem = jm.operate(op, now, effects);
  for (let i = 0; i < effects.length; i++) {
    const e = effects[i]!;
    if (e.type === 'terminate-task-managers') jm.onTaskManagersLost(e.ids, e.cause, now, effects);
    if (e.type === 'fail-task') jm.onTaskFailed(e.attempt, e.task, e.cause, now, effects);
  }
  return { problem, effects };
}

/** Plays the runtime of a restart that has its state at hand (the sim): due, prepared, deployed. */
function restart(jm: JobMaster, now: number): JobMasterEffect[] {
  const effects: JobMasterEffect[] = [];
  jm.onRestartDue(jm.attempt, now, effects);
  if (effects.some((e) => e.type === 'prepare-restart')) jm.onRestartPrepared(jm.attempt, now, effects);
  return effects;
}

describe('the JobMaster', () => {
  it('deploys attempt 0, goes RUNNING and starts the periodic trigger when the job starts', () => {
    const { jm, startEffects } = jobMaster(scenario(SPREAD));
    expect(types(startEffects)).toEqual(['deploy', 'schedule']);
    expect(startEffects[0]).toMatchObject({ type: 'deploy', attempt: 0 });
    expect(statuses(jm)).toEqual(['RUNNING']);
  });

  it('fails nothing over when a TaskManager that holds none of the job\'s slots is lost, and starts it again', () => {
    const { jm } = jobMaster(scenario(SPREAD));
    const { problem, effects } = operate(jm, { type: 'kill-task-manager', task_manager: 'tm-2' }, 500);
    expect(problem).toBeUndefined();
    expect(types(effects)).toEqual(['terminate-task-managers', 'start-task-manager']);
    expect(effects[1]).toMatchObject({ info: { id: 'tm-2', host: 'host-2' } });
    expect(statuses(jm)).toEqual(['RUNNING']);
    expect(jm.events.some((e) => e.type === 'task-failed')).toBe(false);
    expect(jm.restarts).toBe(0);
  });

  it('fails over the subtasks of a killed TaskManager that runs some, and restarts it in place', () => {
    const { jm } = jobMaster(scenario(SPREAD));
    const { effects } = operate(jm, { type: 'kill-task-manager', task_manager: 'tm-1' }, 500);
    expect(types(effects)).toEqual(['terminate-task-managers', 'start-task-manager', 'cancel-tasks', 'schedule-restart']);
    expect(effects.find((e) => e.type === 'cancel-tasks')).toEqual({ type: 'cancel-tasks', attempt: 0, failed: [1, 3, 5] });
    expect(effects.find((e) => e.type === 'schedule-restart')).toEqual({ type: 'schedule-restart', at: 600, attempt: 1 });
    expect(statuses(jm)).toEqual(['RUNNING', 'RESTARTING']);
    expect(jm.events.filter((e) => e.type === 'task-failed').map((e) => e.type === 'task-failed' && `${e.vertexId}#${e.subtaskIndex}`)).toEqual(['source#1', 'count#1', 'sink#1']);
  });

  it.each([
    ['kill-task-manager', { type: 'kill-task-manager', task_manager: 'tm-0' }, 'tm-0', 'host-0'],
    ['lose-host', { type: 'lose-host', host: 'host-0' }, 'tm-3', 'host-1'],
  ] as const)('during a restart, %s hits the cluster: the TaskManager comes back, the restart is planned again, no failure is counted', (_, op, id, host) => {
    const { jm } = jobMaster(scenario(SPREAD));
    operate(jm, { type: 'fail-task', vertex: 'count', subtask: 1 }, 500);
    expect(jm.status).toBe('RESTARTING');
    const { problem, effects } = operate(jm, op, 550);
    expect(problem).toBeUndefined();
    expect(types(effects)).toEqual(['terminate-task-managers', 'start-task-manager', 'schedule-restart']);
    expect(effects[1]).toMatchObject({ info: { id, host } });
    // The restart that was due at 600 stays due then, as attempt 2: attempt 1 is fenced off.
    expect(effects[2]).toEqual({ type: 'schedule-restart', at: 600, attempt: 2 });
    expect(jm.restarts).toBe(1);
    expect(restart(jm, 600).some((e) => e.type === 'deploy')).toBe(true);
    expect(statuses(jm)).toEqual(['RUNNING', 'RESTARTING', 'RUNNING']);
  });

  it('refuses to lose a lost host again, naming the hosts left, and to lose the last host', () => {
    const { jm } = jobMaster(scenario({ hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 }));
    expect(operate(jm, { type: 'lose-host', host: 'host-1' }, 500).problem).toBeUndefined();
    expect(jm.lostHosts).toEqual(['host-1']);
    const again = operate(jm, { type: 'lose-host', host: 'host-1' }, 700);
    expect(again).toEqual({ problem: 'host-1 is lost already (hosts left: host-0)', effects: [] });
    expect(operate(jm, { type: 'lose-host', host: 'host-0' }, 700).problem).toBe('host-0 is the last host left: its TaskManagers would have nowhere to come back');
  });

  it('puts a lost host\'s TaskManagers on the least loaded host left, with new ids, and wipes its disk', () => {
    const { jm, disks } = jobMaster(scenario({ hosts: 3, task_managers_per_host: 2, slots_per_task_manager: 1 }));
    const wiped: string[] = [];
    disks.get('host-0')!.wipe = () => {
      wiped.push('host-0');
      return [];
    };
    const { effects } = operate(jm, { type: 'lose-host', host: 'host-0' }, 500);
    expect(wiped).toEqual(['host-0']);
    expect(effects.filter((e) => e.type === 'start-task-manager').map((e) => e.type === 'start-task-manager' && `${e.info.id}@${e.info.host}`)).toEqual(['tm-6@host-1', 'tm-7@host-2']);
  });

  it('declares a stalled TaskManager lost at heartbeat.timeout even after another failover, and the job recovers on its replacement', () => {
    const { jm } = jobMaster(scenario(SPREAD));
    expect(operate(jm, { type: 'stall-task-manager', task_manager: 'tm-1' }, 100).effects).toEqual([{ type: 'stall-task-manager', id: 'tm-1' }]);
    operate(jm, { type: 'fail-task', vertex: 'count', subtask: 0 }, 200);
    restart(jm, 300);
    expect(jm.status).toBe('RUNNING');
    expect(jm.taskManagerHealth(1600)[1]).toEqual({ id: 'tm-1', host: 'host-1', state: 'unresponsive', silentForMs: 1500 });
    const early: JobMasterEffect[] = [];
    jm.onHeartbeatsMissed('tm-1', 2500, 2600, early);
    expect(early).toEqual([]);
    const timedOut: JobMasterEffect[] = [];
    jm.onHeartbeatsMissed('tm-1', 3000, 3100, timedOut);
    expect(timedOut).toEqual([{ type: 'terminate-task-managers', ids: ['tm-1'], cause: 'Heartbeat of TaskManager with id tm-1 timed out.' }]);
    jm.onTaskManagersLost(['tm-1'], 'Heartbeat of TaskManager with id tm-1 timed out.', 3100, timedOut);
    expect(types(timedOut).slice(0, 3)).toEqual(['terminate-task-managers', 'start-task-manager', 'cancel-tasks']);
    expect(jm.taskManagerHealth(3100)[1]).toEqual({ id: 'tm-1', host: 'host-1', state: 'registered', silentForMs: 0 });
    expect(statuses(jm)).toEqual(['RUNNING', 'RESTARTING', 'RUNNING', 'RESTARTING']);
    restart(jm, 3200);
    expect(statuses(jm).at(-1)).toBe('RUNNING');
  });

  it('fails the job with Flink\'s JobException once the restart strategy\'s attempts are used up', () => {
    const { jm } = jobMaster(scenario(SPREAD, { 'restart-strategy.fixed-delay.attempts': 1 }));
    operate(jm, { type: 'fail-task', vertex: 'count', subtask: 0 }, 100);
    restart(jm, 200);
    const { effects } = operate(jm, { type: 'fail-task', vertex: 'count', subtask: 1 }, 300);
    expect(statuses(jm)).toEqual(['RUNNING', 'RESTARTING', 'RUNNING', 'FAILING', 'FAILED']);
    expect(jm.failureCause).toBe(
      'org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=1, backoffTimeMS=100)\nCaused by: Task count#1 failed: an exception in the operator (injected)',
    );
    expect(effects.at(-1)).toEqual({ type: 'job-terminated', retain: false, discard: [] });
  });

  it.each([
    ['fail-task', { type: 'fail-task', vertex: 'count', subtask: 0 }, 'the job is RESTARTING; no task of count#0 runs to fail'],
    ['trigger-checkpoint', { type: 'trigger-checkpoint' }, 'cannot trigger a checkpoint while the job is RESTARTING'],
  ] as const)('reports a scheduled %s it cannot carry out during a restart as an event, and the API caller as a refusal', (faultType, op, reason) => {
    const { jm } = jobMaster(scenario(SPREAD));
    operate(jm, { type: 'fail-task', vertex: 'count', subtask: 1 }, 100);
    expect(jm.operate(op, 150, [])).toBe(reason);
    expect(jm.events.some((e) => e.type === 'fault-not-applied')).toBe(false);
    expect(jm.operate(op, 160, [], 'schedule')).toBe(reason);
    expect(jm.events.at(-1)).toEqual({ type: 'fault-not-applied', time: 160, faultType, reason, problem: expect.objectContaining({ code: expect.stringMatching(/^refusal\./) }) });
  });

  it('stalls a TaskManager only once, and nothing after the job ended', () => {
    const { jm } = jobMaster(scenario(SPREAD));
    expect(operate(jm, { type: 'stall-task-manager', task_manager: 'tm-0' }, 100).problem).toBeUndefined();
    expect(operate(jm, { type: 'stall-task-manager', task_manager: 'tm-0' }, 200).problem).toBe('TaskManager tm-0 is stalled already');
    operate(jm, { type: 'cancel' }, 300);
    expect(operate(jm, { type: 'stall-task-manager', task_manager: 'tm-1' }, 400).problem).toBe('the job is CANCELED; nothing to stall');
  });
});

describe('the JobMaster in the sim runtime', () => {
  function exactlyOnce(sim: Simulation, s: Scenario) {
    const reference = new Simulation({ ...s, faults: [] });
    reference.runToEnd();
    return sim.sinkOutput.compareTo(reference.sinkOutput);
  }

  it('recovers with nothing lost when a TaskManager stalls and another failover comes before its heartbeat timeout', () => {
    const s: Scenario = {
      ...scenario(SPREAD),
      faults: [
        { at_ms: 1000, type: 'stall-task-manager', task_manager: 'tm-1' },
        { at_ms: 1500, type: 'fail-task', vertex: 'count', subtask: 0 },
      ],
    };
    const sim = new Simulation(s);
    sim.runToEnd();
    const restarting = sim.events.flatMap((e) => (e.type === 'job-status' && e.status === 'RESTARTING' ? [[e.time, e.message]] : []));
    expect(restarting).toEqual([
      [1500, 'Task count#0 failed: an exception in the operator (injected)'],
      [4000, 'Heartbeat of TaskManager with id tm-1 timed out.'],
    ]);
    expect(sim.jobStatus).toBe('FINISHED');
    expect(exactlyOnce(sim, s)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('shows the stalled TaskManager as unresponsive, with how long it has been silent, until it is declared lost', () => {
    const sim = new Simulation({ ...scenario(SPREAD), faults: [{ at_ms: 1000, type: 'stall-task-manager', task_manager: 'tm-1' }] });
    sim.runUntil(2200);
    expect(sim.jobMaster.taskManagerHealth(sim.now).map((h) => `${h.id}:${h.state}:${h.silentForMs}`)).toEqual(['tm-0:registered:0', 'tm-1:unresponsive:1200', 'tm-2:registered:0']);
    sim.runUntil(4100);
    expect(sim.jobMaster.taskManagerHealth(sim.now)[1]!.state).toBe('registered');
  });

  it('reports a fault that came due while it could not be carried out', () => {
    const s: Scenario = {
      ...scenario(SPREAD),
      faults: [
        { at_ms: 1000, type: 'fail-task', vertex: 'count', subtask: 0 },
        { at_ms: 1050, type: 'fail-task', vertex: 'count', subtask: 1 },
      ],
    };
    const sim = new Simulation(s);
    sim.runToEnd();
    expect(sim.events.filter((e) => e.type === 'fault-not-applied')).toEqual([
      {
        type: 'fault-not-applied',
        time: 1050,
        faultType: 'fail-task',
        reason: 'the job is RESTARTING; no task of count#1 runs to fail',
        problem: { code: 'refusal.fail-task-not-running', params: { status: 'RESTARTING', vertex: 'count', subtask: 1 } },
      },
    ]);
    expect(sim.restarts).toBe(1);
  });
});

/**
 * The timeline's model from a simulated run's job events: min-pause after each completed
 * checkpoint, the gaps between consecutive ones, faults, restores and the time the job was down.
 */
import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../engine/run/job-events.ts';
import { faultEvent } from '../../engine/run/fault-event.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { buildTimeline } from '../../web/timeline/timeline-model.ts';
import { CHECKPOINTING_SCENARIO } from '../browser/scenarios.ts';
import { HEALTH_HEARTBEAT_TIMEOUT_MS, healthScenario } from '../browser/health-scenarios.ts';

describe('buildTimeline', () => {
  it('shades the min-pause after every completed checkpoint and marks the fault, the outage and the restore', () => {
    const scenario = validateScenario({ ...CHECKPOINTING_SCENARIO, run: { until: '12 s' } });
    if (!scenario.ok) throw new Error(JSON.stringify(scenario.errors));
    const simulation = new Simulation(scenario.scenario);
    simulation.runUntil(6000);
    expect(simulation.killTaskManager('tm-1')).toBeUndefined();
    simulation.runUntil(12_000);
    const model = buildTimeline(simulation.events, simulation.now, 300);

    const completed = model.checkpoints.filter((c) => c.status === 'COMPLETED');
    expect(completed.length).toBeGreaterThan(5);
    expect(model.pauses).toEqual(completed.map((c) => ({ from: c.end, to: c.end + 300, afterId: c.id })));
    // Flink: the next periodic checkpoint starts no earlier than min-pause after the last completed one.
    for (const gap of model.gaps) expect(gap.length).toBeGreaterThanOrEqual(300);

    expect(model.faults).toHaveLength(1);
    expect(model.faults[0]!.time).toBe(6000);
    expect(model.restores).toHaveLength(1);
    expect(model.restores[0]!.time).toBeGreaterThan(6000);
    expect(model.restores[0]!.checkpointId).toBe(Math.max(...completed.filter((c) => c.end <= 6000).map((c) => c.id)));
    expect(model.outages).toHaveLength(1);
    expect(model.outages[0]!.from).toBe(6000);
    expect(model.outages[0]!.to).toBeGreaterThan(6000);
  });

  it('has no min-pause spans when min-pause is 0', () => {
    const scenario = validateScenario({ ...CHECKPOINTING_SCENARIO, run: { until: '5 s' } });
    if (!scenario.ok) throw new Error(JSON.stringify(scenario.errors));
    const simulation = new Simulation(scenario.scenario);
    simulation.runUntil(5000);
    expect(buildTimeline(simulation.events, simulation.now, 0).pauses).toEqual([]);
  });
});

const stall = (time: number, taskManager: string, heartbeatTimeoutMs = 3000): JobEvent =>
  faultEvent(time, { kind: 'stall-task-manager', taskManager, heartbeatTimeoutMs });
const timedOut = (tm: string) => `Heartbeat of TaskManager with id ${tm} timed out.`;
/** The JobMaster's failover: the failed task, then RESTARTING with the same cause. */
const failover = (time: number, cause: string): JobEvent[] => [
  { type: 'task-failed', time, vertexId: 'count', subtaskIndex: 1, cause },
  { type: 'job-status', time, status: 'RESTARTING', message: cause },
];
const running = (time: number): JobEvent => ({ type: 'job-status', time, status: 'RUNNING' });

describe('buildTimeline: TaskManagers unresponsive', () => {
  const cases: { name: string; events: JobEvent[]; now: number; expected: { taskManager: string; from: number; to: number; open: boolean }[] }[] = [
    {
      name: 'stall, then the heartbeat timeout',
      events: [running(0), stall(2000, 'tm-1'), ...failover(5000, timedOut('tm-1')), running(6000)],
      now: 8000,
      expected: [{ taskManager: 'tm-1', from: 2000, to: 5000, open: false }],
    },
    {
      name: 'stall, another failover, then the heartbeat timeout',
      events: [
        running(0),
        stall(2000, 'tm-1'),
        faultEvent(3000, { kind: 'fail-task', vertex: 'count', subtask: 0 }),
        ...failover(3000, 'Task count#0 failed: injected'),
        running(4000),
        ...failover(5000, timedOut('tm-1')),
        running(6000),
      ],
      now: 7000,
      expected: [{ taskManager: 'tm-1', from: 2000, to: 5000, open: false }],
    },
    {
      name: 'stall cut by the end of the run',
      events: [running(0), stall(2000, 'tm-1')],
      now: 3500,
      expected: [{ taskManager: 'tm-1', from: 2000, to: 3500, open: true }],
    },
    {
      name: 'two TaskManagers stalled, each declared lost on its own',
      events: [running(0), stall(1000, 'tm-0'), stall(2000, 'tm-2'), ...failover(4000, timedOut('tm-0')), running(4500), ...failover(5000, timedOut('tm-2'))],
      now: 6000,
      expected: [
        { taskManager: 'tm-0', from: 1000, to: 4000, open: false },
        { taskManager: 'tm-2', from: 2000, to: 5000, open: false },
      ],
    },
    {
      name: 'lost while the job was already restarting: no failover says so, it ends at heartbeat.timeout',
      events: [running(0), stall(2000, 'tm-1'), ...failover(4000, 'Task count#0 failed: injected'), running(6000)],
      now: 7000,
      expected: [{ taskManager: 'tm-1', from: 2000, to: 5000, open: false }],
    },
  ];

  it.each(cases)('$name', ({ events, now, expected }) => {
    const spans = buildTimeline(events, now, 0).unresponsive;
    expect(spans.map(({ taskManager, from, to, open }) => ({ taskManager, from, to, open }))).toEqual(expected);
    for (const span of spans) expect(span.heartbeatTimeoutMs).toBe(3000);
  });

  it('matches what a simulated stall emits: silent from the stall until exactly heartbeat.timeout later', () => {
    const scenario = validateScenario(healthScenario('Stall', [{ at: '3 s', type: 'stall-task-manager', task_manager: 'tm-1' }]));
    if (!scenario.ok) throw new Error(JSON.stringify(scenario.errors));
    const simulation = new Simulation(scenario.scenario);
    simulation.runUntil(5000);
    expect(buildTimeline(simulation.events, simulation.now, 0).unresponsive).toEqual([
      { taskManager: 'tm-1', from: 3000, to: 5000, open: true, heartbeatTimeoutMs: HEALTH_HEARTBEAT_TIMEOUT_MS },
    ]);
    simulation.runUntil(12_000);
    const model = buildTimeline(simulation.events, simulation.now, 0);
    expect(model.unresponsive).toEqual([
      { taskManager: 'tm-1', from: 3000, to: 3000 + HEALTH_HEARTBEAT_TIMEOUT_MS, open: false, heartbeatTimeoutMs: HEALTH_HEARTBEAT_TIMEOUT_MS },
    ]);
    // It was the heartbeat failover that ended it.
    expect(simulation.events.some((e) => e.type === 'task-failed' && e.time === 3000 + HEALTH_HEARTBEAT_TIMEOUT_MS && e.cause.includes('tm-1 timed out'))).toBe(true);
  });
});

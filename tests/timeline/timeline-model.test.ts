/**
 * The timeline's model from a simulated run's job events: min-pause after each completed
 * checkpoint, the gaps between consecutive ones, faults, restores and the time the job was down.
 */
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { buildTimeline } from '../../web/timeline/timeline-model.ts';
import { CHECKPOINTING_SCENARIO } from '../browser/scenarios.ts';

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

/**
 * The phases of a checkpoint per subtask, laid out on the checkpoint's own time axis, from the
 * Flink per-subtask statistics of a real simulated run (a slowed operator makes start delay and
 * alignment visible).
 */
import { describe, expect, it } from 'vitest';
import type { TaskCheckpointStatisticsWithSubtaskDetailsDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { subtaskPhases } from '../../web/timeline/subtask-phases.ts';
import { CHECKPOINTING_SCENARIO } from '../browser/scenarios.ts';

function completed(index: number, fields: { start_delay: number; alignment: number; sync: number; async: number; end_to_end: number }) {
  return {
    className: 'completed' as const,
    index,
    status: 'completed' as const,
    ack_timestamp: 0,
    end_to_end_duration: fields.end_to_end,
    checkpointed_size: 0,
    state_size: 0,
    checkpoint: { sync: fields.sync, async: fields.async },
    alignment: { buffered: 0, processed: 0, persisted: 0, duration: fields.alignment },
    start_delay: fields.start_delay,
    unaligned_checkpoint: false,
    aborted: false,
  };
}

describe('subtaskPhases', () => {
  it('lays the phases out one after the other from the trigger, the rest until the acknowledgement last', () => {
    const document = {
      subtasks: [completed(0, { start_delay: 10, alignment: 5, sync: 2, async: 30, end_to_end: 50 }), { className: 'pending', index: 1, status: 'pending_or_failed' }],
    } as unknown as TaskCheckpointStatisticsWithSubtaskDetailsDocument;
    const { rows, scale } = subtaskPhases([{ id: 'counts', name: 'Counts' }, { id: 'gone', name: 'Gone' }], (id) => (id === 'counts' ? document : undefined));
    expect(scale).toBe(50);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.segments).toEqual([
      { phase: 'startDelay', from: 0, length: 10 },
      { phase: 'alignment', from: 10, length: 5 },
      { phase: 'sync', from: 15, length: 2 },
      { phase: 'async', from: 17, length: 30 },
      { phase: 'rest', from: 47, length: 3 },
    ]);
    expect(rows[1]).toMatchObject({ vertexId: 'counts', index: 1, pending: true, segments: [] });
  });

  it('reads every subtask of every vertex from a simulated run, and shows backpressure as start delay and alignment', () => {
    const scenario = validateScenario({ ...CHECKPOINTING_SCENARIO, run: { until: '20 s' } });
    if (!scenario.ok) throw new Error(JSON.stringify(scenario.errors));
    const simulation = new Simulation(scenario.scenario);
    simulation.runUntil(3000);
    expect(simulation.slowOperator('counts', 2000)).toBeUndefined();
    simulation.runUntil(12_000);
    const stats = simulation.coordinator.stats;
    const latest = stats.checkpointingStatistics().latest.completed!;
    const vertices = simulation.topology().vertices.map((v) => ({ id: v.id, name: v.name }));
    const { rows, scale } = subtaskPhases(vertices, (id) => stats.taskCheckpointStatistics(latest.id, id));
    expect(rows.map((r) => `${r.vertexId}#${r.index}`)).toEqual(['clicks#0', 'clicks#1', 'counts#0', 'counts#1', 'counts#2', 'sink#0', 'sink#1', 'sink#2']);
    expect(rows.every((r) => !r.pending)).toBe(true);
    for (const row of rows) {
      const end = row.segments.at(-1)!;
      expect(end.from + end.length).toBeCloseTo(row.endToEnd, 6);
    }
    expect(scale).toBe(Math.max(...rows.map((r) => r.endToEnd)));
    // The slowed counts cannot keep up: the barrier waits behind its backlog (start delay), and the
    // sinks, fed by all three counts, wait for the slowest one's barrier (alignment).
    const max = (vertexId: string, phase: 'startDelay' | 'alignment') => Math.max(...rows.filter((r) => r.vertexId === vertexId).map((r) => r.durations[phase]));
    expect(max('counts', 'startDelay')).toBeGreaterThan(max('clicks', 'startDelay') + 1000);
    expect(max('sink', 'alignment')).toBeGreaterThan(1000);
  });
});

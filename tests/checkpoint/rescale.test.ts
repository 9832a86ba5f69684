import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import { pipeline, sequenceSource, vertex } from '../support/scenario-builder.ts';

/** source(2) → keyBy count(2) → rebalance → two-phase-commit sink(2), checkpoints every 200 ms, 3 slots. */
function rescalableJob() {
  const job = pipeline(
    [
      vertex('source', sequenceSource(40, 1000, 4000), 2),
      vertex('count', { type: 'keyed-aggregate', aggregate: 'count' }, 2, 50),
      vertex('sink', { type: 'sink', sink: 'two-phase-commit' }, 2),
    ],
    [
      ['source', 'count', 'hash'],
      ['count', 'sink', 'rebalance'],
    ],
  );
  return { ...job, config: { 'execution.checkpointing.interval': 200, 'pipeline.max-parallelism': 128 }, cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 } };
}

function finishedReference() {
  const reference = new Simulation(rescalableJob());
  reference.runToEnd();
  return reference;
}

describe('rescaling from a checkpoint', () => {
  for (const parallelism of [3, 1]) {
    it(`restores keyed state by key groups when count goes from 2 to ${parallelism} subtasks, with the same totals`, () => {
      const sim = new Simulation(rescalableJob());
      sim.runUntil(1500);
      expect(sim.rescale('count', parallelism)).toBeUndefined();
      sim.runToEnd();
      expect(sim.jobStatus).toBe('FINISHED');
      const counts = sim.tasks.filter((t) => t.id.vertexId === 'count');
      expect(counts).toHaveLength(parallelism);
      // every new subtask owns the key groups Flink assigns it
      const ranges = sim.topology().subtasks.filter((s) => s.vertexId === 'count').map((s) => s.keyGroupRange);
      expect(ranges[0]!.start).toBe(0);
      expect(ranges.at(-1)!.end).toBe(127);
      const restore = sim.restores.at(-1)!;
      expect(restore.subtasks.filter((s) => s.vertexId === 'count')).toHaveLength(parallelism);
      expect(sim.sinkOutput.compareTo(finishedReference().sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    });
  }

  it('refuses to rescale a source, whose splits are fixed', () => {
    const sim = new Simulation(rescalableJob());
    sim.runUntil(1000);
    expect(sim.rescale('source', 3)).toMatch(/cannot rescale source "source"/);
  });

  it('refuses to rescale across a forward edge, or above the slots or the max parallelism', () => {
    const job = rescalableJob();
    job.job.edges[1]!.partitioning = 'forward';
    const sim = new Simulation(job);
    sim.runUntil(1000);
    expect(sim.rescale('count', 3)).toMatch(/forward/);
    expect(sim.rescale('count', 4)).toMatch(/slots/);
    expect(sim.rescale('count', 0)).toMatch(/from 1 to 128/);
  });

  it('refuses to rescale before any checkpoint completed', () => {
    const sim = new Simulation(rescalableJob());
    sim.runUntil(10);
    expect(sim.rescale('count', 3)).toMatch(/no completed checkpoint/);
  });
});

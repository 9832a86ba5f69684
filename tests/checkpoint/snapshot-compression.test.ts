import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { HeapKeyedStateBackend } from '../../engine/state/heap-keyed-state-backend.ts';
import { compressSnapshot, decompressSnapshot } from '../../engine/state/snapshot-compression.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';

function job(compression: boolean, faults: Scenario['faults'] = []): Scenario {
  const base = keyedCountJob({ keys: 3000, rate: 2000, count: 14_000, parallelism: 2 });
  base.job.vertices[2]!.operator = { type: 'sink', sink: 'two-phase-commit' };
  base.job.edges[1]!.partitioning = 'rebalance';
  return {
    ...base,
    config: { 'execution.checkpointing.interval': 500, 'execution.checkpointing.snapshot-compression': compression },
    faults,
    cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 },
  };
}

const countStateSize = (sim: Simulation) => {
  const latest = sim.coordinator.latestCheckpoint()!;
  return [...latest.taskStates].filter(([k]) => k.startsWith('count#')).reduce((n, [, s]) => n + s.checkpointedSize, 0);
};

describe('snapshot compression', () => {
  it('compresses each key group on its own and gives back exactly the key groups asked for', () => {
    const backend = new HeapKeyedStateBackend({ start: 0, end: 127 });
    for (let i = 0; i < 500; i++) backend.put('aggregate', i % 128, `key-${i}`, i);
    const full = backend.snapshot();
    const compressed = compressSnapshot(full);
    expect(compressed.compressedKeyGroups.map((g) => g.keyGroup)).toEqual(full.keyGroups.map((g) => g.keyGroup));
    expect(decompressSnapshot(compressed, { start: 0, end: 127 }).keyGroups).toEqual(full.keyGroups);
    const half = decompressSnapshot(compressed, { start: 0, end: 63 });
    expect(half.keyGroups).toEqual(full.keyGroups.filter((g) => g.keyGroup <= 63));
  });

  it('writes smaller checkpoints of the same state', () => {
    const plain = new Simulation(job(false));
    plain.runUntil(3200);
    const snappy = new Simulation(job(true));
    snappy.runUntil(3200);
    expect(countStateSize(snappy)).toBeLessThan(countStateSize(plain) * 0.8);
  });

  it('restores compressed snapshots exactly-once, also with another parallelism', () => {
    const scenario = job(true, [{ at_ms: 2200, type: 'fail-task', vertex: 'count', subtask: 1 }]);
    const sim = new Simulation(scenario);
    sim.runUntil(4500);
    expect(sim.rescale('count', 3)).toBeUndefined();
    sim.runToEnd();
    const reference = new Simulation({ ...scenario, faults: [] });
    reference.runToEnd();
    expect(sim.restores).toHaveLength(2);
    expect(sim.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
  });
});

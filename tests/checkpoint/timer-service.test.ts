import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { pipeline, sequenceSource, vertex } from '../support/scenario-builder.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

/** 20,000 keys in 10 s windows: one event-time timer per key and window. */
function windowJob(timers: 'HEAP' | 'ROCKSDB'): Scenario {
  const job = pipeline(
    [
      vertex('source', sequenceSource(20_000, 10_000, 30_000), 2),
      vertex('window', { type: 'window', size_ms: 10_000, aggregate: 'count' }, 2),
      vertex('sink', { type: 'sink', sink: 'plain' }, 2),
    ],
    [
      ['source', 'window', 'hash'],
      ['window', 'sink', 'forward'],
    ],
  );
  return {
    ...job,
    config: { 'execution.checkpointing.interval': 500, 'state.backend.type': 'rocksdb', 'state.backend.rocksdb.timer-service.factory': timers },
  };
}

function maxSyncMs(sim: Simulation): number {
  let max = 0;
  for (const id of Object.keys(sim.coordinator.stats.allCheckpointDetails())) {
    const task = sim.coordinator.stats.taskCheckpointStatistics(Number(id), 'window') as { summary: { checkpoint_duration: { sync: { max: number } } } } | undefined;
    if (task) max = Math.max(max, task.summary.checkpoint_duration.sync.max);
  }
  return max;
}

describe('the timer service of the rocksdb backend', () => {
  it('makes the synchronous part of checkpoints longer with heap timers than with timers in RocksDB', () => {
    const heap = new Simulation(windowJob('HEAP'), { lsmStorage });
    heap.runUntil(2600);
    const rocks = new Simulation(windowJob('ROCKSDB'), { lsmStorage });
    rocks.runUntil(2600);
    expect(maxSyncMs(heap)).toBeGreaterThan(2 * maxSyncMs(rocks));
  });
});

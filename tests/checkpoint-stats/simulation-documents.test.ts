import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import { checkpointConfigDocument } from '../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import { keyOrderMismatches } from '../flink-reference/document-key-order.ts';
import { flinkResponseSchema, flinkResponseValidator } from '../flink-reference/flink-schema.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { trackerDocuments } from './flink-documents.ts';

describe('documents of a simulated job', () => {
  it('match Flink’s schemas although the virtual clock has fractional milliseconds', () => {
    const job = keyedCountJob({ keys: 20, rate: 1_000, count: 1_000_000, parallelism: 2 });
    const config = { ...job.config, 'execution.checkpointing.interval': '500 ms' };
    const simulation = new Simulation({ ...job, config, run: { until_ms: 3_000 } });
    simulation.runToEnd();
    const stats = simulation.coordinator.stats;
    expect(stats.checkpointingStatistics().counts.completed).toBeGreaterThan(2);
    for (const { schema, label, document } of trackerDocuments(stats, ['source', 'count', 'sink'])) {
      expect(flinkResponseValidator(schema)(document), label).toEqual([]);
      expect(keyOrderMismatches(flinkResponseSchema(schema), document), label).toEqual([]);
    }
    expect(flinkResponseValidator('checkpoint-config')(checkpointConfigDocument(simulation.config))).toEqual([]);
  });
});

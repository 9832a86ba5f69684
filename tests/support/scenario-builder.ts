import type { OperatorSpec, Partitioning, Scenario, SourceSpec, VertexSpec } from '../../engine/scenario/scenario-types.ts';

/** Builds already-validated scenarios for engine tests, with the file format's defaults. */
export function vertex(id: string, operator: OperatorSpec, parallelism = 2, record_cost_us = 1): VertexSpec {
  return { id, name: id, parallelism, record_cost_us, operator };
}

export function sequenceSource(keys: number, rate_per_s: number, count?: number): OperatorSpec {
  const source: SourceSpec = { kind: 'sequence', keys, rate_per_s, ...(count === undefined ? {} : { count }) };
  return { type: 'source', source };
}

export function pipeline(
  vertices: VertexSpec[],
  edges: Array<[string, string, Partitioning]>,
  overrides: Partial<Scenario> = {},
): Scenario {
  const slots = Math.max(...vertices.map((v) => v.parallelism));
  return {
    version: 1,
    name: 'test',
    description: '',
    seed: 42,
    job: { name: 'test', vertices, edges: edges.map(([from, to, partitioning]) => ({ from, to, partitioning })) },
    config: {},
    cluster: { hosts: 1, task_managers_per_host: slots, slots_per_task_manager: 1 },
    costs: {
      network_latency_ms: 0.2,
      record_size_bytes: 100,
      remote_latency_ms: 50,
      remote_bandwidth_mb_per_s: 100,
      local_latency_ms: 0.5,
      local_bandwidth_mb_per_s: 1000,
    },
    faults: [],
    run: { until_ms: Infinity },
    expectations: [],
    ...overrides,
  };
}

/** source(sequence) → keyed count (hash) → sink (forward), the pipeline most tests use. */
export function keyedCountJob(options: { keys?: number; rate?: number; count?: number; parallelism?: number; countCostUs?: number } = {}): Scenario {
  const p = options.parallelism ?? 2;
  return pipeline(
    [
      vertex('source', sequenceSource(options.keys ?? 10, options.rate ?? 1000, options.count ?? 2000), p),
      vertex('count', { type: 'keyed-aggregate', aggregate: 'count' }, p, options.countCostUs ?? 2),
      vertex('sink', { type: 'sink', sink: 'plain' }, p),
    ],
    [
      ['source', 'count', 'hash'],
      ['count', 'sink', 'forward'],
    ],
  );
}

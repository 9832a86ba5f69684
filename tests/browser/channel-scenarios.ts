/**
 * Scenarios for the channel view's browser tests: 16 subtasks per operator (the view must stay
 * smooth with that many), loaded enough that queues fill, barriers wait and inputs block.
 */

/** 16 sources hash-partitioned into 16 slow keyed counters: backpressure, aligned barriers, blocked inputs. */
export function sixteenWide(options: { unaligned?: boolean; seed?: number; rate?: number; cost?: number } = {}) {
  return {
    version: 1,
    name: options.unaligned ? 'Sixteen wide, unaligned' : 'Sixteen wide, aligned',
    seed: options.seed ?? 3,
    job: {
      name: 'sixteen-wide',
      vertices: [
        { id: 'src', name: 'Clicks', type: 'source', source: { kind: 'random', keys: 500, rate_per_s: options.rate ?? 4000 } },
        { id: 'agg', name: 'Count per user', type: 'keyed-aggregate', aggregate: 'count', record_cost_us: options.cost ?? 300 },
        { id: 'sink', name: 'Sink', type: 'sink', sink: 'plain' },
      ],
      edges: [
        { from: 'src', to: 'agg', partitioning: 'hash' },
        { from: 'agg', to: 'sink', partitioning: 'forward' },
      ],
    },
    config: {
      'parallelism.default': 16,
      'execution.checkpointing.interval': '2 s',
      ...(options.unaligned ? { 'execution.checkpointing.unaligned.enabled': true } : {}),
    },
    cluster: { hosts: 4, task_managers_per_host: 2, slots_per_task_manager: 2 },
    costs: { network_latency_ms: 1 },
    run: { until: '10 min' },
  };
}

/** Two small operators, one slow: few lanes, so a test can look at one barrier closely. */
export function twoWideSlow(options: { unaligned?: boolean } = {}) {
  return {
    version: 1,
    name: options.unaligned ? 'Two wide, slow, unaligned' : 'Two wide, slow',
    seed: 7,
    job: {
      name: 'two-wide-slow',
      vertices: [
        { id: 'src', name: 'Events', type: 'source', source: { kind: 'random', keys: 50, rate_per_s: 6000 } },
        { id: 'agg', name: 'Count per key', type: 'keyed-aggregate', aggregate: 'count', record_cost_us: 400 },
        { id: 'sink', name: 'Sink', type: 'sink', sink: 'plain' },
      ],
      edges: [
        { from: 'src', to: 'agg', partitioning: 'hash' },
        { from: 'agg', to: 'sink', partitioning: 'forward' },
      ],
    },
    config: {
      'parallelism.default': 2,
      'execution.checkpointing.interval': '1 s',
      ...(options.unaligned ? { 'execution.checkpointing.unaligned.enabled': true } : {}),
    },
    cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 },
    costs: { network_latency_ms: 1 },
    run: { until: '10 min' },
  };
}

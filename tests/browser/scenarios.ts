/**
 * Scenarios the browser tests load through `window.playground.load(...)`: small, checkpointing,
 * and unbounded, so that a fault always has a completed checkpoint to restore from.
 */

/** Keyed counts over a random source, checkpointing every second into a two-phase-commit sink. */
export const CHECKPOINTING_SCENARIO = {
  version: 1,
  name: 'Checkpointed click counts',
  seed: 11,
  job: {
    name: 'checkpointed-click-counts',
    vertices: [
      { id: 'clicks', name: 'Clicks', type: 'source', source: { kind: 'random', keys: 20, skew: 1.1, rate_per_s: 800 } },
      { id: 'counts', name: 'Count per user', type: 'keyed-aggregate', aggregate: 'count', parallelism: 3 },
      { id: 'sink', name: 'Sink', type: 'sink', sink: 'two-phase-commit', parallelism: 3 },
    ],
    edges: [
      { from: 'clicks', to: 'counts', partitioning: 'hash' },
      { from: 'counts', to: 'sink', partitioning: 'rebalance' },
    ],
  },
  config: {
    'parallelism.default': 2,
    'execution.checkpointing.interval': '1 s',
    'execution.checkpointing.min-pause': '300 ms',
  },
  cluster: { hosts: 2, task_managers_per_host: 2, slots_per_task_manager: 2 },
  run: { until: '10 min' },
} as const;

/** The same job as YAML text, with a savepoint in the fault schedule. */
export const CHECKPOINTING_SCENARIO_YAML = `
version: 1
name: Checkpointed word count
seed: 5
job:
  name: word-count
  vertices:
    - id: lines
      type: source
      source: { kind: lines, rate_per_s: 100, lines: ["to be or not to be", "that is the question"] }
    - id: words
      type: map
      fn: split-words
    - id: count
      type: keyed-aggregate
      aggregate: count
    - id: sink
      type: sink
      sink: plain
  edges:
    - { from: lines, to: words, partitioning: forward }
    - { from: words, to: count, partitioning: hash }
    - { from: count, to: sink, partitioning: forward }
config:
  parallelism.default: 2
  execution.checkpointing.interval: 500 ms
cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 2 }
faults:
  - { at: 2 s, type: trigger-savepoint }
run:
  until: 1 min
`;

/**
 * The job most live tests run: a sequence source, a keyed count (hash-partitioned: Flink's keyBy)
 * and a two-phase-commit sink, so exactly-once can be checked against a failure-free run.
 * Without `count` the source is unbounded.
 */
export function keyedCountsJob(source: { keys: number; rate: number; count?: number }, sinkEdge: 'forward' | 'hash' = 'forward'): object {
  const { keys, rate, count } = source;
  return {
    vertices: [
      { id: 'source', name: 'Events', type: 'source', source: { kind: 'sequence', keys, rate_per_s: rate, ...(count === undefined ? {} : { count }) } },
      { id: 'count', name: 'Count per key', type: 'keyed-aggregate', aggregate: 'count' },
      { id: 'sink', name: 'Transactional sink', type: 'sink', sink: 'two-phase-commit' },
    ],
    edges: [
      { from: 'source', to: 'count', partitioning: 'hash' },
      { from: 'count', to: 'sink', partitioning: sinkEdge },
    ],
  };
}

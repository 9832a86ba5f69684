/**
 * The CLI tests' small bounded keyed count (a 2PC sink, a task failure at 250 ms), with the
 * expectations given as YAML list items.
 */
export const tiny = (expectations: string) => `
version: 1
name: Tiny
seed: 3
job:
  vertices:
    - { id: src, type: source, source: { kind: sequence, keys: 4, rate_per_s: 1000, count: 400 } }
    - { id: count, type: keyed-aggregate, aggregate: count }
    - { id: sink, type: sink, sink: two-phase-commit }
  edges:
    - { from: src, to: count, partitioning: hash }
    - { from: count, to: sink, partitioning: forward }
config:
  parallelism.default: 2
  execution.checkpointing.interval: 100 ms
cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 }
faults:
  - { at: 250 ms, type: fail-task, vertex: count, subtask: 1 }
expectations:
${expectations}`;

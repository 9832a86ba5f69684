/**
 * The CLI tests' small bounded keyed count (a 2PC sink, one task failure), with the expectations
 * given as YAML list items. The default shape suits the sim; a live run takes a slower one.
 */
export interface TinyShape {
  name: string;
  ratePerS: number;
  count: number;
  interval: string;
  failAt: string;
}

const SIM: TinyShape = { name: 'Tiny', ratePerS: 1000, count: 400, interval: '100 ms', failAt: '250 ms' };

export const tiny = (expectations: string, shape: TinyShape = SIM) => `
version: 1
name: ${shape.name}
seed: 3
job:
  vertices:
    - { id: src, type: source, source: { kind: sequence, keys: 4, rate_per_s: ${shape.ratePerS}, count: ${shape.count} } }
    - { id: count, type: keyed-aggregate, aggregate: count }
    - { id: sink, type: sink, sink: two-phase-commit }
  edges:
    - { from: src, to: count, partitioning: hash }
    - { from: count, to: sink, partitioning: forward }
config:
  parallelism.default: 2
  execution.checkpointing.interval: ${shape.interval}
cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 }
faults:
  - { at: ${shape.failAt}, type: fail-task, vertex: count, subtask: 1 }
expectations:
${expectations}`;

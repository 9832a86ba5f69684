/** Scale scenarios for the scale runtime's tests and bench, written as a user writes the file. */
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';

export interface ScaleJob {
  parallelism: number;
  hosts: number;
  /** records per second per source subtask */
  ratePerSubtask: number;
  /** the count's record cost: its capacity per subtask is 1e6 / this */
  countCostUs: number;
  scale: Record<string, string | number>;
  config?: Record<string, string | number | boolean>;
  costs?: Record<string, number>;
  faults?: Array<Record<string, string | number>>;
  until: string;
}

/** Events → hash → count per key (RocksDB, incremental) → sink, one slot per subtask index. */
export function scaleScenario(job: ScaleJob): Scenario {
  const slots = Math.ceil(job.parallelism / job.hosts);
  const result = validateScenario({
    version: 1,
    name: `scale p${job.parallelism}`,
    runtime: 'scale',
    job: {
      vertices: [
        { id: 'events', type: 'source', source: { kind: 'random', keys: 1_000_000, rate_per_s: job.ratePerSubtask }, record_cost_us: 1 },
        { id: 'count', type: 'keyed-aggregate', aggregate: 'count', record_cost_us: job.countCostUs },
        { id: 'sink', type: 'sink', record_cost_us: 1 },
      ],
      edges: [
        { from: 'events', to: 'count', partitioning: 'hash' },
        { from: 'count', to: 'sink', partitioning: 'forward' },
      ],
    },
    config: {
      'parallelism.default': job.parallelism,
      'execution.checkpointing.interval': '1 min',
      'execution.checkpointing.timeout': '30 min',
      'state.backend.type': 'rocksdb',
      'execution.checkpointing.incremental': true,
      'execution.checkpointing.local-backup.enabled': true,
      'execution.state-recovery.from-local': true,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 10,
      'restart-strategy.fixed-delay.delay': '10 s',
      ...job.config,
    },
    cluster: { hosts: job.hosts, task_managers_per_host: 1, slots_per_task_manager: slots },
    costs: { remote_latency_ms: 50, remote_bandwidth_mb_per_s: 100, ...job.costs },
    scale: job.scale,
    faults: job.faults ?? [],
    run: { until: job.until },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.scenario;
}

/**
 * The scale runtime against the record-level sim on one scenario file small enough for both:
 * the same job, configuration, cluster, costs and faults, run once moving every record and once
 * as flows. Its only extra input is the keyed state the records build up (the scale model does
 * not know the data): the size of one entry per key of the source, as the heap backend counts it.
 * Checkpoint durations and sizes, restore times and catch-up times must agree within 15%; each
 * figure's error is printed.
 */
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { runScenario, type RunReport } from '../../engine/run/run-report.ts';
import { entrySizeBytes } from '../../engine/state/state-size.ts';

const KEYS = 20_000;
const TOLERANCE = 0.15;

/**
 * A count per key over a sequence source at 80% of the count's capacity, one subtask index per
 * host, with a TaskManager kill (its subtasks restore locally) and a host loss (remotely).
 */
function file(runtime: 'records' | 'scale'): Scenario {
  const stateBytes = Array.from({ length: KEYS }, (_, i) => entrySizeBytes(`key-${i}`, 1)).reduce((a, b) => a + b, 0);
  const result = validateScenario({
    version: 1,
    name: `agreement (${runtime})`,
    runtime,
    ...(runtime === 'scale' ? { scale: { state_size: stateBytes } } : {}),
    job: {
      vertices: [
        { id: 'events', type: 'source', source: { kind: 'sequence', keys: KEYS, rate_per_s: 5000 } },
        { id: 'count', type: 'keyed-aggregate', aggregate: 'count', record_cost_us: 160 },
        { id: 'sink', type: 'sink' },
      ],
      edges: [
        { from: 'events', to: 'count', partitioning: 'hash' },
        { from: 'count', to: 'sink', partitioning: 'forward' },
      ],
    },
    config: {
      'parallelism.default': 2,
      'execution.checkpointing.interval': '5 s',
      'execution.checkpointing.local-backup.enabled': true,
      'execution.state-recovery.from-local': true,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 3,
      'restart-strategy.fixed-delay.delay': '5 s',
    },
    cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 1 },
    costs: { remote_bandwidth_mb_per_s: 1, local_bandwidth_mb_per_s: 5 },
    faults: [
      { at: '21 s', type: 'kill-task-manager', task_manager: 'tm-0' },
      { at: '71 s', type: 'lose-host', host: 'host-1' },
    ],
    run: { until: '120 s' },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.scenario;
}

interface Figures {
  checkpointMs: number;
  /** the longest: a checkpoint taken while the job catches up, its barriers behind full queues */
  slowestCheckpointMs: number;
  checkpointedBytes: number;
  restoreMs: number[];
  catchUpMs: number[];
}

function figures(report: RunReport): Figures {
  const history = (report.checkpoints as { history: Array<{ status: string; end_to_end_duration: number; checkpointed_size: number }> }).history.filter((h) => h.status === 'COMPLETED');
  const durations = history.map((h) => h.end_to_end_duration).sort((a, b) => a - b);
  return {
    checkpointMs: durations[Math.floor(durations.length / 2)]!,
    slowestCheckpointMs: durations.at(-1)!,
    checkpointedBytes: Math.max(...history.map((h) => h.checkpointed_size)),
    restoreMs: report.restores.map((r) => Math.max(...r.subtasks.filter((s) => s.vertexId === 'count').map((s) => s.durationMs))),
    catchUpMs: report.restores.map((r) => r.catchUpMs ?? Infinity),
  };
}

const records = figures(runScenario(file('records')).report);
const scale = figures(runScenario(file('scale')).report);

function agree(what: string, recordLevel: number, flows: number): void {
  const error = Math.abs(flows - recordLevel) / recordLevel;
  console.log(`${what}: records ${recordLevel.toFixed(1)}, scale ${flows.toFixed(1)}, error ${(error * 100).toFixed(1)}%`);
  expect(error, what).toBeLessThanOrEqual(TOLERANCE);
}

describe('the scale runtime agrees with the record-level sim within 15%', () => {
  it('on the checkpoint duration (median) and the checkpointed size', () => {
    agree('checkpoint end-to-end duration (median), ms', records.checkpointMs, scale.checkpointMs);
    agree('checkpoint end-to-end duration (slowest, while catching up), ms', records.slowestCheckpointMs, scale.slowestCheckpointMs);
    agree('checkpointed size, bytes', records.checkpointedBytes, scale.checkpointedBytes);
  });

  it('on each restore’s slowest keyed subtask, local after the TaskManager kill and remote after the host loss', () => {
    expect(records.restoreMs).toHaveLength(2);
    expect(scale.restoreMs).toHaveLength(2);
    records.restoreMs.forEach((ms, i) => agree(`restore ${i + 1}, slowest count subtask, ms`, ms, scale.restoreMs[i]!));
  });

  it('on each restore’s catch-up time', () => {
    expect(scale.catchUpMs).toHaveLength(records.catchUpMs.length);
    records.catchUpMs.forEach((ms, i) => agree(`restore ${i + 1}, catch-up, ms`, ms, scale.catchUpMs[i]!));
  });
});

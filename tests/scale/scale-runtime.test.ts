/**
 * The scale runtime runs the JobMaster's job with flows: the same checkpoint statistics, REST
 * documents, restores and catch-up as the record-level runtime, for jobs far beyond it.
 */
import { describe, expect, it } from 'vitest';
import { ScaleRuntime } from '../../engine/scale/scale-runtime.ts';
import { runScenario } from '../../engine/run/run-report.ts';
import { checkpointConfigDocument } from '../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import { flinkResponseValidator } from '../flink-reference/flink-schema.ts';
import { trackerDocuments } from '../checkpoint-stats/flink-documents.ts';
import { scaleScenario } from './scale-scenarios.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { entrySizeBytes } from '../../engine/state/state-size.ts';

const GB = 1024 ** 3;

const withFaults = () =>
  scaleScenario({
    parallelism: 100,
    hosts: 10,
    ratePerSubtask: 1000,
    countCostUs: 500,
    scale: { state_size: '100 gb', state_churn_per_s: '50 mb' },
    faults: [
      { at: '5 min', type: 'kill-task-manager', task_manager: 'tm-3' },
      { at: '10 min', type: 'lose-host', host: 'host-7' },
    ],
    until: '15 min',
  });

/** One run with both faults, shared by the tests that read its report. */
let faultRun: ReturnType<typeof runScenario> | undefined;
const runWithFaults = () => (faultRun ??= runScenario(withFaults()));

describe('the scale runtime', () => {
  it('completes a checkpoint per interval with the whole state as its full size', () => {
    const runtime = new ScaleRuntime(withFaults());
    runtime.runUntil(4 * 60_000 + 30_000);
    const stats = runtime.coordinator.stats.checkpointingStatistics() as { counts: { completed: number }; latest: { completed: { state_size: number } } };
    expect(stats.counts.completed).toBe(4);
    // 100 GB over the 100 count subtasks, plus each subtask's small metadata
    expect(stats.latest.completed.state_size / GB).toBeCloseTo(100, 0);
  });

  it('restores a killed TaskManager’s subtasks from their local copies and a lost host’s from remote storage', () => {
    const { report } = runWithFaults();
    expect(report.restores).toHaveLength(2);
    const [kill, hostLoss] = report.restores;
    // only keyed subtasks keep local copies (as in the record-level runtime); the others read their offsets remotely
    const counts = (r: typeof kill) => r!.subtasks.filter((s) => s.vertexId === 'count');
    expect(counts(kill).every((s) => s.source === 'local')).toBe(true);
    const remote = counts(hostLoss).filter((s) => s.source === 'remote');
    // host-7 held 10 slots, each with one count subtask
    expect(remote).toHaveLength(10);
    expect(remote.every((s) => s.reason !== undefined)).toBe(true);
    const slowestRemote = Math.max(...remote.map((s) => s.durationMs));
    const slowestLocal = Math.max(...counts(hostLoss).filter((s) => s.source === 'local').map((s) => s.durationMs));
    expect(slowestRemote).toBeGreaterThan(slowestLocal);
  });

  it('catches up after each restore with its spare capacity, from the sources’ pendingRecords', () => {
    const { report } = runWithFaults();
    for (const restore of report.restores) {
      expect(restore.catchUpMs).not.toBeNull();
      expect(restore.catchUpMs!).toBeGreaterThan(0);
    }
  });

  it('writes Flink REST documents that match Flink’s schemas, with one row per vertex in its metrics', () => {
    const { report, simulation } = runWithFaults();
    const validators = new Map<string, (document: unknown) => string[]>();
    for (const { schema, label, document } of trackerDocuments(simulation.coordinator.stats, ['events', 'count', 'sink'])) {
      if (!validators.has(schema)) validators.set(schema, flinkResponseValidator(schema));
      expect(validators.get(schema)!(document), label).toEqual([]);
    }
    expect(flinkResponseValidator('checkpoint-config')(checkpointConfigDocument(simulation.config))).toEqual([]);
    expect(Object.keys(report.metrics.vertices)).toEqual(['events', 'count', 'sink']);
    expect(report.metrics.subtasks).toEqual([]);
  });

  it('runs the same scenario and seed to the same events', () => {
    const a = new ScaleRuntime(withFaults());
    const b = new ScaleRuntime(withFaults());
    a.runToEnd();
    b.runToEnd();
    expect(JSON.stringify(a.events)).toEqual(JSON.stringify(b.events));
  });

  it('delays the barrier behind full queues while the job runs at its limit', () => {
    const scenario = scaleScenario({ parallelism: 10, hosts: 2, ratePerSubtask: 3000, countCostUs: 500, scale: { state_size: '1 gb' }, until: '3 min' });
    const runtime = new ScaleRuntime(scenario);
    runtime.runToEnd();
    const history = (runtime.coordinator.stats.checkpointingStatistics() as { history: Array<{ end_to_end_duration: number }> }).history;
    // 3,000 records/s into subtasks that process 2,000: the queues are full and the sources fall behind
    expect(runtime.pendingRecords).toBeGreaterThan(0);
    const queued = 10 * 2 * 2 + 8; // 10 channels' exclusive buffers and senders' backlogs, the floating ones; 32 KiB each, 100-byte records
    const waitMs = ((queued * 32 * 1024) / 100 / 2000) * 1000;
    expect(Math.min(...history.map((h) => h.end_to_end_duration))).toBeGreaterThan(waitMs);
  });
});

describe('the scale runtime when remote storage fails', () => {
  it('declines checkpoints and fails a restore that needs remote state, leaving the restart strategy to decide', () => {
    const scenario = scaleScenario({
      parallelism: 10,
      hosts: 2,
      ratePerSubtask: 1000,
      countCostUs: 500,
      scale: { state_size: '10 gb' },
      config: { 'execution.checkpointing.tolerable-failed-checkpoints': 100 },
      faults: [
        { at: '90 s', type: 'fail-remote-storage' },
        { at: '3 min', type: 'lose-host', host: 'host-1' },
      ],
      until: '5 min',
    });
    const { report } = runScenario(scenario);
    const counts = (report.checkpoints as { counts: { failed: number } }).counts;
    expect(counts.failed).toBeGreaterThan(0);
    // every restore reads the lost host's subtasks from remote storage, which fails them: the restarts run out
    expect(report.job.status).toBe('FAILED');
    expect(report.job.failureCause).toContain('Restoring checkpoint');
  });
});

describe('the scale runtime on a records scenario', () => {
  it('runs a bounded job until its sources would have read their count, its state derived from its keys', () => {
    const scenario = validateScenario({
      version: 1,
      name: 'bounded',
      job: {
        vertices: [
          { id: 'events', type: 'source', source: { kind: 'sequence', keys: 1000, rate_per_s: 1000, count: 5000 } },
          { id: 'count', type: 'keyed-aggregate', aggregate: 'count' },
          { id: 'sink', type: 'sink' },
        ],
        edges: [
          { from: 'events', to: 'count', partitioning: 'hash' },
          { from: 'count', to: 'sink', partitioning: 'forward' },
        ],
      },
      config: { 'parallelism.default': 2, 'execution.checkpointing.interval': '1 s' },
      cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 },
    });
    if (!scenario.ok) throw new Error(JSON.stringify(scenario.errors));
    const { report } = runScenario({ ...scenario.scenario, runtime: 'scale' });
    expect(report.scenario.virtual_time_ms).toBe(5000);
    const history = (report.checkpoints as { history: Array<{ status: string; checkpointed_size: number }> }).history.filter((h) => h.status === 'COMPLETED');
    // the newest: after a second every one of the 1,000 keys is in state: one count each, plus each subtask's 64 bytes of metadata
    const keys = Array.from({ length: 1000 }, (_, i) => entrySizeBytes(`key-${i}`, 1)).reduce((a, b) => a + b, 0);
    expect(history[0]!.checkpointed_size).toBe(keys + 6 * 64);
  });
});

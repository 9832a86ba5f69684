/**
 * The capacity planner's sweep (the second article's 容量规划): for a job's input rate, state, its
 * growth and churn, checkpoint interval, storage bandwidth and a recovery objective, run the scale
 * runtime at each parallelism with one TaskManager failure and read off the checkpoint duration,
 * the restore time and the catch-up; the smallest parallelism whose recovery (failure → restored →
 * caught up) meets the objective is the answer. The spare capacity follows from the parallelism:
 * each subtask processes 1 / record cost, and the input is split over all of them. Rules of thumb
 * from the articles: normal operation must not run under constant backpressure (spare capacity
 * above 0), and recovery needs capacity beyond the normal rate (catch-up time is the backlog over
 * the spare capacity).
 */
import { formatDuration } from '../config/duration.ts';
import { runScenario } from '../run/run-report.ts';
import { validateScenario } from '../scenario/scenario-validator.ts';
import type { Scenario } from '../scenario/scenario-types.ts';

export interface CapacityQuestion {
  /** records per second into the job */
  ratePerS: number;
  /** the keyed operator's processing time per record, µs */
  recordCostUs: number;
  stateBytes: number;
  stateGrowthBytesPerS: number;
  stateChurnBytesPerS: number;
  checkpointIntervalMs: number;
  /** per upload or restore read */
  remoteBandwidthMbPerS: number;
  /** the remote store's total */
  remoteStoreBandwidthMbPerS: number;
  /** failure → restored → caught up, at most */
  recoveryObjectiveMs: number;
  parallelisms: readonly number[];
}

export interface CapacityPoint {
  parallelism: number;
  /** hosts of ten slots each (at least two, so a host loss leaves one) */
  hosts: number;
  /** capacity over input rate, minus 1 (0.5: half again the input rate to spare) */
  spareCapacity: number;
  /** median end-to-end duration of the checkpoints before the failure, ms */
  checkpointMs: number;
  /** the slowest keyed subtask's restore, ms */
  restoreMs: number;
  /** restored → caught up, ms; null when the job never caught up */
  catchUpMs: number | null;
  /** failure → caught up, ms; null when never */
  recoveryMs: number | null;
  meetsObjective: boolean;
}

const SLOTS_PER_HOST = 10;
const FAILURE_AT_MS = 5 * 60_000;
const RESTART_DELAY_MS = 10_000;

export function planCapacity(question: CapacityQuestion): { points: CapacityPoint[]; smallest: CapacityPoint | undefined } {
  const points = question.parallelisms.map((p) => capacityPoint(question, p));
  return { points, smallest: points.find((p) => p.meetsObjective) };
}

/** One parallelism of the sweep: the planner page's worker runs them one at a time to stream each. */
export function capacityPoint(q: CapacityQuestion, parallelism: number): CapacityPoint {
  const { report } = runScenario(plannedScenario(q, parallelism));
  const history = (report.checkpoints as { history: Array<{ status: string; trigger_timestamp: number; end_to_end_duration: number }> }).history;
  const before = history.filter((h) => h.status === 'COMPLETED' && h.trigger_timestamp < FAILURE_AT_MS).map((h) => h.end_to_end_duration).sort((a, b) => a - b);
  const restore = report.restores[0];
  const restoreMs = Math.max(0, ...(restore?.subtasks.filter((s) => s.vertexId === 'count').map((s) => s.durationMs) ?? []));
  const catchUpMs = restore?.catchUpMs ?? null;
  const recoveryMs = restore && catchUpMs !== null ? restore.time - FAILURE_AT_MS + catchUpMs : null;
  return {
    parallelism,
    hosts: hostsFor(parallelism),
    spareCapacity: (parallelism * 1e6) / q.recordCostUs / q.ratePerS - 1,
    checkpointMs: before[Math.floor(before.length / 2)] ?? NaN,
    restoreMs,
    catchUpMs,
    recoveryMs,
    meetsObjective: recoveryMs !== null && recoveryMs <= q.recoveryObjectiveMs,
  };
}

function hostsFor(parallelism: number): number {
  return Math.max(2, Math.ceil(parallelism / SLOTS_PER_HOST));
}

/** Events → count per key (RocksDB, incremental, task-local recovery) → sink, one TaskManager per host killed once. */
function plannedScenario(q: CapacityQuestion, parallelism: number): Scenario {
  const hosts = hostsFor(parallelism);
  const mb = (bytes: number) => Math.round(bytes);
  const result = validateScenario({
    version: 1,
    name: `capacity plan at parallelism ${parallelism}`,
    runtime: 'scale',
    job: {
      vertices: [
        { id: 'events', type: 'source', source: { kind: 'random', keys: 1_000_000, rate_per_s: q.ratePerS / parallelism }, record_cost_us: 1 },
        { id: 'count', type: 'keyed-aggregate', aggregate: 'count', record_cost_us: q.recordCostUs },
        { id: 'sink', type: 'sink', record_cost_us: 1 },
      ],
      edges: [
        { from: 'events', to: 'count', partitioning: 'hash' },
        { from: 'count', to: 'sink', partitioning: 'forward' },
      ],
    },
    config: {
      'parallelism.default': parallelism,
      'execution.checkpointing.interval': formatDuration(q.checkpointIntervalMs),
      'state.backend.type': 'rocksdb',
      'execution.checkpointing.incremental': true,
      'execution.checkpointing.local-backup.enabled': true,
      'execution.state-recovery.from-local': true,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 3,
      'restart-strategy.fixed-delay.delay': formatDuration(RESTART_DELAY_MS),
    },
    cluster: { hosts, task_managers_per_host: 1, slots_per_task_manager: SLOTS_PER_HOST },
    costs: { remote_bandwidth_mb_per_s: q.remoteBandwidthMbPerS },
    scale: {
      state_size: mb(q.stateBytes),
      state_growth_per_s: mb(q.stateGrowthBytesPerS),
      state_churn_per_s: mb(q.stateChurnBytesPerS),
      remote_store_bandwidth_mb_per_s: q.remoteStoreBandwidthMbPerS,
    },
    // A lost host: its subtasks read their state from remote storage, the others from local copies.
    faults: [{ at: formatDuration(FAILURE_AT_MS), type: 'lose-host', host: 'host-0' }],
    run: { until: formatDuration(FAILURE_AT_MS + 4 * q.recoveryObjectiveMs + 60_000) },
  });
  if (!result.ok) throw new Error(`capacity plan: ${result.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return result.scenario;
}

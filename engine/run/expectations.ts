import { formatDuration } from '../config/duration.ts';
import type { CheckpointStatistic, ExpectationSpec, StatisticAggregate } from '../scenario/scenario-types.ts';
import type { CheckpointObservations } from './checkpoint-observations.ts';
import type { RestoreRecord, SubtaskRestore } from './job-events.ts';
import { checkRestoreSource, sourceText } from './restore-source-expectation.ts';
import { checkMixedRestore } from './mixed-restore-expectation.ts';
import { checkRestoredParallelism, checkRetainedCheckpoints, describeRestoredParallelism } from './retention-and-rescale-expectations.ts';
import type { CatchUp } from './catch-up-time.ts';
import { checkRocksDbMetric, describeRocksDbMetric, type RocksDbSubtaskMetrics } from './rocksdb-metric-expectation.ts';

/** What the expectations are checked against. */
export interface ExpectationInputs {
  jobStatus: string;
  sinkRecords: number;
  duplicates: number;
  missing: number;
  completedCheckpoints: number;
  failedCheckpoints: number;
  restores: number;
  /** every subtask restore of every restore, in order */
  restoredSubtasks: readonly SubtaskRestore[];
  /** the restores one by one, for `restore-source`; inputs built without them see no restore */
  restoreRecords?: readonly RestoreRecord[];
  /** what the run showed of its checkpoints (pauses, durations, concurrency, failure reasons, alignment) */
  checkpoints: CheckpointObservations;
  /** each restore's catch-up: how long the sources' backlog took to get back to its level before the failure */
  catchUps: readonly CatchUp[];
  /** the completed checkpoints retention kept once the job ended (none while it runs); inputs built without it see none */
  retainedCheckpoints?: number;
  /** the rocksdb subtasks' native metrics now (since each one's backend opened); inputs built without them see none */
  rocksDbSubtasks?: readonly RocksDbSubtaskMetrics[];
}

export interface ExpectationResult {
  expectation: ExpectationSpec;
  held: boolean;
  /** what was seen, in words, e.g. "job status was FINISHED" */
  actual: string;
  /** what was seen, short, for `expected …, got …` lines: "FAILED", "2.4 s", "remote (corrupt)" */
  seen: string;
}

/** Checks each expectation of a scenario; the CLI exits 1 when one does not hold. */
export function checkExpectations(expectations: readonly ExpectationSpec[], seen: ExpectationInputs): ExpectationResult[] {
  return expectations.map((e) => {
    switch (e.type) {
      case 'job-status':
        return { expectation: e, held: seen.jobStatus === e.status, actual: `job status was ${seen.jobStatus}`, seen: seen.jobStatus };
      case 'exactly-once':
        return {
          expectation: e,
          held: seen.duplicates === 0 && seen.missing === 0,
          actual: `${seen.duplicates} duplicate and ${seen.missing} missing records against the failure-free run`,
          seen: `duplicates ${seen.duplicates}, missing ${seen.missing}`,
        };
      case 'min-sink-records':
        return { expectation: e, held: seen.sinkRecords >= e.value, actual: `${seen.sinkRecords} records reached the sink`, seen: String(seen.sinkRecords) };
      case 'min-completed-checkpoints':
        return { expectation: e, held: seen.completedCheckpoints >= e.value, actual: `${seen.completedCheckpoints} checkpoints completed`, seen: String(seen.completedCheckpoints) };
      case 'max-failed-checkpoints':
        return { expectation: e, held: seen.failedCheckpoints <= e.value, actual: `${seen.failedCheckpoints} checkpoints failed`, seen: String(seen.failedCheckpoints) };
      case 'min-duplicates':
        return { expectation: e, held: seen.duplicates >= e.value, actual: `${seen.duplicates} duplicates against the failure-free run`, seen: String(seen.duplicates) };
      case 'min-restores':
        return { expectation: e, held: seen.restores >= e.value, actual: `${seen.restores} restores`, seen: String(seen.restores) };
      case 'min-failed-checkpoints': {
        const failed = seen.checkpoints.failureReasons.filter((r) => e.reason === undefined || r === e.reason).length;
        return { expectation: e, held: failed >= e.value, actual: `${failed} checkpoints failed${e.reason === undefined ? '' : ` with ${e.reason}`}`, seen: String(failed) };
      }
      case 'min-restored-subtasks': {
        const n = seen.restoredSubtasks.filter((r) => r.source === e.source && (e.reason === undefined || r.reason === e.reason)).length;
        return { expectation: e, held: n >= e.value, actual: `${n} subtask restores from ${sourceText(e)}`, seen: String(n) };
      }
      case 'restore-source':
        return { expectation: e, ...checkRestoreSource(e, seen.restoreRecords ?? []) };
      case 'mixed-restore':
        return { expectation: e, ...checkMixedRestore(e, seen.restoreRecords ?? []) };
      case 'statistic':
        return checkStatistic(e, seen.checkpoints);
      case 'catch-up-time':
        return checkCatchUpTime(e, seen.catchUps);
      case 'min-retained-checkpoints':
      case 'max-retained-checkpoints':
        return checkRetainedCheckpoints(e, seen);
      case 'restored-parallelism':
        return checkRestoredParallelism(e, seen.restoreRecords ?? []);
      case 'rocksdb-metric':
        return { expectation: e, ...checkRocksDbMetric(e, seen.rocksDbSubtasks ?? []) };
    }
  });
}

/**
 * The slowest restore's catch-up within the range. One not caught up yet counts with the time
 * it has taken so far: enough for a `min`, never for a `max`.
 */
function checkCatchUpTime(e: Extract<ExpectationSpec, { type: 'catch-up-time' }>, catchUps: readonly CatchUp[]): ExpectationResult {
  if (catchUps.length === 0) return { expectation: e, held: false, actual: 'no restore yet', seen: 'no restore yet' };
  const pending = catchUps.filter((c) => c.catchUpMs === null);
  const slowest = Math.max(...catchUps.map((c) => c.catchUpMs ?? c.elapsedMs));
  const held = (e.min === undefined || slowest >= e.min) && (e.max === undefined || (pending.length === 0 && slowest <= e.max));
  const actual =
    pending.length === 0
      ? `the slowest of ${catchUps.length} restores caught up in ${formatDuration(Math.round(slowest))}`
      : `${pending.length} of ${catchUps.length} restores not caught up after ${formatDuration(Math.round(slowest))}`;
  const shown = readableStatistic('end-to-end-duration', slowest);
  return { expectation: e, held, actual, seen: pending.length === 0 ? shown : `not caught up after ${shown}` };
}

function checkStatistic(e: Extract<ExpectationSpec, { type: 'statistic' }>, seen: CheckpointObservations): ExpectationResult {
  const values = statisticValues(seen, e.statistic);
  const value = aggregate(values, e.aggregate);
  if (value === undefined) return { expectation: e, held: false, actual: `no ${e.statistic} measured yet`, seen: 'nothing measured yet' };
  const held = (e.min === undefined || value >= e.min) && (e.max === undefined || value <= e.max);
  return { expectation: e, held, actual: `${e.aggregate} ${e.statistic} was ${formatStatistic(e.statistic, value)} over ${values.length}`, seen: readableStatistic(e.statistic, value) };
}

function statisticValues(seen: CheckpointObservations, statistic: CheckpointStatistic): readonly number[] {
  switch (statistic) {
    case 'checkpoint-pause':
      return seen.pausesMs;
    case 'end-to-end-duration':
      return seen.endToEndMs;
    case 'alignment-duration':
      return seen.alignmentMs;
    case 'start-delay':
      return seen.startDelayMs;
    case 'persisted-data':
      return seen.persistedBytes;
    case 'checkpointed-fraction':
      return seen.checkpointedFractions;
    case 'checkpointed-size':
      return seen.checkpointedBytes;
    case 'sync-duration':
      return seen.syncMs;
    case 'concurrent-checkpoints':
      return seen.concurrent;
  }
}

/** min, max, mean, or a nearest-rank percentile; undefined for no values. */
export function aggregate(values: readonly number[], how: StatisticAggregate): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  switch (how) {
    case 'min':
      return sorted[0];
    case 'max':
      return sorted.at(-1);
    case 'avg':
      return sorted.reduce((a, b) => a + b, 0) / sorted.length;
    case 'p50':
      return sorted[Math.ceil(0.5 * sorted.length) - 1];
    case 'p90':
      return sorted[Math.ceil(0.9 * sorted.length) - 1];
  }
}

function formatStatistic(statistic: CheckpointStatistic, value: number): string {
  if (statistic === 'concurrent-checkpoints') return String(value);
  if (statistic === 'checkpointed-fraction') return value.toFixed(2);
  return statistic === 'persisted-data' || statistic === 'checkpointed-size' ? `${Math.round(value)} bytes` : formatDuration(Math.round(value));
}

/**
 * A figure as a reader says it: durations in s from a second on (`2.4 s`, not `2400 ms`), byte
 * counts in KiB/MiB; for `expected …, got …` lines, where Flink's exact duration syntax matters less.
 */
export function readableStatistic(statistic: CheckpointStatistic, value: number): string {
  if (statistic === 'concurrent-checkpoints' || statistic === 'checkpointed-fraction') return formatStatistic(statistic, value);
  if (statistic === 'persisted-data' || statistic === 'checkpointed-size') return readableBytes(value);
  return value < 1000 ? `${trimmed(value, 1)} ms` : `${trimmed(value / 1000, 3)} s`;
}

function readableBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} bytes`;
  return n < 1024 * 1024 ? `${trimmed(n / 1024)} KiB` : `${trimmed(n / 1024 / 1024)} MiB`;
}

/** At most `decimals` decimals (three unless told), none trailing: 2.4, 0.125, 12. */
function trimmed(n: number, decimals = 3): string {
  return String(Number(n.toFixed(decimals)));
}

function describeRange(statistic: CheckpointStatistic, min: number | undefined, max: number | undefined): string {
  const show = (v: number) => formatStatistic(statistic, v);
  if (min !== undefined && max !== undefined) return `between ${show(min)} and ${show(max)}`;
  return min !== undefined ? `at least ${show(min)}` : `at most ${show(max!)}`;
}

export function describeExpectation(e: ExpectationSpec): string {
  switch (e.type) {
    case 'job-status':
      return `job status is ${e.status}`;
    case 'exactly-once':
      return 'sink output equals the failure-free output';
    case 'min-sink-records':
      return `at least ${e.value} records reach the sink`;
    case 'min-completed-checkpoints':
      return `at least ${e.value} checkpoints complete`;
    case 'max-failed-checkpoints':
      return `at most ${e.value} checkpoints fail`;
    case 'min-duplicates':
      return `at least ${e.value} duplicates show (at-least-once)`;
    case 'min-restores':
      return `at least ${e.value} restores happen`;
    case 'min-failed-checkpoints':
      return `at least ${e.value} checkpoints fail${e.reason === undefined ? '' : ` with ${e.reason}`}`;
    case 'min-restored-subtasks':
      return `at least ${e.value} subtasks restore from ${sourceText(e)}`;
    case 'restore-source':
      return `${e.vertex}#${e.subtask} restores from ${sourceText(e)} ${e.restore === undefined ? 'in every restore of it' : `in restore ${e.restore}`}`;
    case 'mixed-restore':
      return `${e.vertex}#${e.subtask} restores some state handles locally and the others remotely ${e.restore === undefined ? 'in some restore of it' : `in restore ${e.restore}`}`;
    case 'statistic':
      return `${e.aggregate} ${e.statistic} is ${describeRange(e.statistic, e.min, e.max)}`;
    case 'catch-up-time':
      // a duration, formatted as the checkpoint durations are
      return `the slowest restore's catch-up time is ${describeRange('end-to-end-duration', e.min, e.max)}`;
    case 'min-retained-checkpoints':
      return `at least ${e.value} checkpoints stay in storage once the job ended`;
    case 'max-retained-checkpoints':
      return `at most ${e.value} checkpoints stay in storage once the job ended`;
    case 'restored-parallelism':
      return describeRestoredParallelism(e);
    case 'rocksdb-metric':
      return describeRocksDbMetric(e);
  }
}

import type { Scenario } from '../scenario/scenario-types.ts';
import type { JobMetrics } from '../metrics/metrics-sampler.ts';
import { checkpointConfigDocument } from '../checkpoint/stats/checkpoint-stats-tracker.ts';
import type { KeyOutput } from './sink-output-log.ts';
import type { JobEvent, RestoreRecord } from './job-events.ts';
import { observeCheckpoints } from './checkpoint-observations.ts';
import { Simulation, type SimulationOptions } from '../sim/simulation.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import { checkExpectations, type ExpectationInputs, type ExpectationResult } from './expectations.ts';
import { referenceLeadMs } from './reference-lead.ts';
import { catchUpTimes, type CatchUp } from './catch-up-time.ts';
import type { BacklogSample } from '../metrics/source-backlog.ts';
import type { CheckpointStatsTracker } from '../checkpoint/stats/checkpoint-stats-tracker.ts';
import type { FlinkConfig } from '../config/flink-config.ts';
import type { SinkOutputLog } from './sink-output-log.ts';
import type { ReplaySource } from '../replay/replay-pacer.ts';
import { runToEndReporting, type ProgressSink } from './run-progress.ts';
import type { ScheduledOperation } from '../job/scheduled-operation.ts';
import { ScaleRuntime } from '../scale/scale-runtime.ts';
import { rocksDbSubtaskMetrics } from './rocksdb-metric-expectation.ts';

/** The `ckpt-lab run --json` document (DESIGN.md, contract 2). */
export interface RunReport {
  scenario: { name: string; seed: number; until_ms: number | null; virtual_time_ms: number };
  /** Flink's GET /jobs/:id/checkpoints */
  checkpoints: unknown;
  /** Flink's GET /jobs/:id/checkpoints/config (interval Long.MAX_VALUE when periodic checkpoints are off, as Flink reports it) */
  checkpointConfig: unknown;
  /** Flink's GET /jobs/:id/checkpoints/details/:id, keyed by checkpoint id (those still in the history) */
  checkpointDetails: Record<string, unknown>;
  restores: ReportedRestore[];
  output: {
    totalRecords: number;
    perKey: Record<string, KeyOutput>;
    /** records written more often than in the failure-free run */
    duplicates: number;
    /** records of the failure-free run that were not written (or were written with another value) */
    missing: number;
  };
  job: { status: string; restarts: number; failureCause: string | null };
  /** every fault as it came due: carried out (what happened), or not, and why — never dropped without a word */
  faults: ReportedFault[];
  metrics: JobMetrics;
  expectations: ExpectationResult[];
}

export type ReportedFault = { time: number; applied: true; description: string } | { time: number; applied: false; faultType: string; reason: string };

/** The run's fault events, as the report lists them. */
function reportedFaults(events: readonly JobEvent[]): ReportedFault[] {
  return events.flatMap((e): ReportedFault[] => {
    if (e.type === 'fault') return [{ time: e.time, applied: true, description: e.description }];
    if (e.type === 'fault-not-applied') return [{ time: e.time, applied: false, faultType: e.faultType, reason: e.reason }];
    return [];
  });
}

/**
 * A restore as the report shows it: with `catchUpMs`, the job time from RUNNING again until the
 * sources' pendingRecords was back at its level before the failure (or about 0) and stayed there;
 * null while it is not (engine/run/catch-up-time.ts).
 */
export type ReportedRestore = RestoreRecord & { catchUpMs: number | null };

export interface RunOptions {
  seed?: number;
  /** wa-sqlite storage, for scenarios with state.backend.type: rocksdb */
  lsmStorage?: LsmStorageFactory;
  /** overrides the scenario's run length, ms */
  until?: number;
  /** replays a recorded session (the reference run stays a plain failure-free run) */
  replay?: ReplaySource;
  /** told how far the run (and then its failure-free reference run) has come, now and then */
  progress?: ProgressSink;
  /** operator requests at set times (a lesson's cancel or rescale); the reference run makes none */
  operations?: readonly ScheduledOperation[];
}

/**
 * Runs a scenario in sim and, as the independent oracle for its output, the same scenario
 * without faults; then compares the two sinks and checks the expectations.
 */
export function runScenario(scenario: Scenario, options: RunOptions = {}): { report: RunReport; simulation: Simulation | ScaleRuntime } {
  const withRun: Scenario = options.until === undefined ? scenario : { ...scenario, run: { until_ms: options.until } };
  if (withRun.runtime === 'scale') return runScaleScenario(withRun, options);
  const shared: SimulationOptions = options.lsmStorage ? { lsmStorage: options.lsmStorage } : {};
  const simulation = new Simulation(withRun, { ...shared, ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.replay ? { replay: options.replay } : {}), ...(options.operations ? { operations: options.operations } : {}) });
  runToEndReporting(simulation, 'run', options.progress);
  const reference = new Simulation({ ...withRun, faults: [] }, { ...shared, seed: simulation.seed });
  runToEndReporting(reference, 'reference', options.progress);
  const { missing } = simulation.sinkOutput.compareTo(reference.sinkOutput);
  // A run cut at its run length: duplicates against the failure-free run a little further on
  // (reference-lead.ts); a finished job's output is complete, and compared as it is.
  if (!reference.job.isTerminal) reference.runUntil(reference.now + referenceLeadMs(reference.config));
  const { duplicates } = simulation.sinkOutput.compareTo(reference.sinkOutput);
  const report = runReport(simulation, { duplicates, missing });
  return { report, simulation };
}

/**
 * A `runtime: scale` scenario in the scale runtime. It moves no records, so there is no sink
 * output to compare with a failure-free run: the report's output section stays empty.
 */
function runScaleScenario(scenario: Scenario, options: RunOptions): { report: RunReport; simulation: ScaleRuntime } {
  const runtime = new ScaleRuntime(scenario, { ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.operations ? { operations: options.operations } : {}) });
  runtime.runToEnd();
  return { report: runReport(runtime, { duplicates: 0, missing: 0 }), simulation: runtime };
}

/** What a report is read from: a Simulation, the scale runtime, or the live runtime's JobManager. */
export interface RunReportSource {
  readonly scenario: Scenario;
  readonly seed: number;
  /** job time, ms */
  readonly now: number;
  readonly config: FlinkConfig;
  readonly coordinator: { readonly stats: CheckpointStatsTracker };
  readonly restores: readonly RestoreRecord[];
  readonly events: readonly JobEvent[];
  readonly sinkOutput: SinkOutputLog;
  readonly jobStatus: string;
  readonly restarts: number;
  readonly failureCause: string | undefined;
  /** the checkpoints retention kept once the job ended (externalized-checkpoint-retention), by path */
  readonly retainedCheckpoints: readonly string[];
  /** the sources' summed pendingRecords as sampled over the run */
  readonly sourceBacklog: { readonly samples: readonly BacklogSample[] };
  metrics(): JobMetrics;
}

/**
 * The `ckpt-lab run --json` document of a run so far, with its sink compared to a failure-free
 * run's (`comparison`). The CLI, the page's sim and the page's live driver all report through here,
 * so the Playground API's stats() and the CLI cannot drift apart.
 */
export function runReport(source: RunReportSource, comparison: { duplicates: number; missing: number }): RunReport {
  const { duplicates, missing } = comparison;
  const stats = source.coordinator.stats;
  const checkpoints = stats.checkpointingStatistics();
  const untilMs = source.scenario.run.until_ms;
  const totalRecords = source.sinkOutput.totalRecords;
  const catchUps = catchUpsOf(source);
  return {
    scenario: { name: source.scenario.name, seed: source.seed, until_ms: untilMs === Infinity ? null : untilMs, virtual_time_ms: source.now },
    checkpoints,
    // Always the document: with periodic checkpoints off, Flink reports interval Long.MAX_VALUE.
    checkpointConfig: checkpointConfigDocument(source.config),
    checkpointDetails: stats.allCheckpointDetails(),
    restores: source.restores.map((r, i) => ({ ...r, catchUpMs: catchUps[i]!.catchUpMs })),
    output: { totalRecords, perKey: source.sinkOutput.perKey(), duplicates, missing },
    job: { status: source.jobStatus, restarts: source.restarts, failureCause: source.failureCause ?? null },
    faults: reportedFaults(source.events),
    metrics: source.metrics(),
    expectations: checkExpectations(source.scenario.expectations, expectationInputs(source, comparison)),
  };
}

/** What expectations (a scenario's, a lesson step's) are checked against, for a run so far. */
export function expectationInputs(source: RunReportSource, comparison: { duplicates: number; missing: number }): ExpectationInputs {
  const stats = source.coordinator.stats;
  const { counts } = stats.checkpointingStatistics();
  return {
    jobStatus: source.jobStatus,
    sinkRecords: source.sinkOutput.totalRecords,
    duplicates: comparison.duplicates,
    missing: comparison.missing,
    completedCheckpoints: counts.completed,
    failedCheckpoints: counts.failed,
    restores: source.restores.length,
    restoredSubtasks: source.restores.flatMap((r) => r.subtasks),
    restoreRecords: source.restores,
    checkpoints: observeCheckpoints(source.events, stats),
    catchUps: catchUpsOf(source),
    retainedCheckpoints: source.retainedCheckpoints.length,
    rocksDbSubtasks: rocksDbSubtaskMetrics(source.metrics().subtasks),
  };
}

/** Each restore's catch-up so far: the report's `catchUpMs`, the expectations' and the backlog chart's. */
export function catchUpsOf(source: RunReportSource): CatchUp[] {
  return catchUpTimes(source.restores, source.events, source.sourceBacklog.samples, source.now);
}

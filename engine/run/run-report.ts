import type { Scenario } from '../scenario/scenario-types.ts';
import type { JobMetrics } from '../metrics/metrics-sampler.ts';
import { checkpointConfigDocument } from '../checkpoint/stats/checkpoint-stats-tracker.ts';
import type { KeyOutput } from './sink-output-log.ts';
import type { RestoreRecord } from './job-events.ts';
import { Simulation, type SimulationOptions } from '../sim/simulation.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import { checkExpectations, type ExpectationResult } from './expectations.ts';

/** The `ckpt-lab run --json` document (DESIGN.md, contract 2). */
export interface RunReport {
  scenario: { name: string; seed: number; until_ms: number | null; virtual_time_ms: number };
  /** Flink's GET /jobs/:id/checkpoints */
  checkpoints: unknown;
  /** Flink's GET /jobs/:id/checkpoints/config (interval Long.MAX_VALUE when periodic checkpoints are off, as Flink reports it) */
  checkpointConfig: unknown;
  /** Flink's GET /jobs/:id/checkpoints/details/:id, keyed by checkpoint id (those still in the history) */
  checkpointDetails: Record<string, unknown>;
  restores: RestoreRecord[];
  output: {
    totalRecords: number;
    perKey: Record<string, KeyOutput>;
    /** records written more often than in the failure-free run */
    duplicates: number;
    /** records of the failure-free run that were not written (or were written with another value) */
    missing: number;
  };
  job: { status: string; restarts: number; failureCause: string | null };
  metrics: JobMetrics;
  expectations: ExpectationResult[];
}

export interface RunOptions {
  seed?: number;
  /** wa-sqlite storage, for scenarios with state.backend.type: rocksdb */
  lsmStorage?: LsmStorageFactory;
  /** overrides the scenario's run length, ms */
  until?: number;
}

/**
 * Runs a scenario in sim and, as the independent oracle for its output, the same scenario
 * without faults; then compares the two sinks and checks the expectations.
 */
export function runScenario(scenario: Scenario, options: RunOptions = {}): { report: RunReport; simulation: Simulation } {
  const withRun: Scenario = options.until === undefined ? scenario : { ...scenario, run: { until_ms: options.until } };
  const shared: SimulationOptions = options.lsmStorage ? { lsmStorage: options.lsmStorage } : {};
  const simulation = new Simulation(withRun, { ...shared, ...(options.seed === undefined ? {} : { seed: options.seed }) });
  simulation.runToEnd();
  const reference = new Simulation({ ...withRun, faults: [] }, { ...shared, seed: simulation.seed });
  reference.runToEnd();
  const { duplicates, missing } = simulation.sinkOutput.compareTo(reference.sinkOutput);
  const stats = simulation.coordinator.stats;
  const counts = (stats.checkpointingStatistics() as { counts: { completed: number; failed: number } }).counts;
  const report: RunReport = {
    scenario: {
      name: scenario.name,
      seed: simulation.seed,
      until_ms: withRun.run.until_ms === Infinity ? null : withRun.run.until_ms,
      virtual_time_ms: simulation.now,
    },
    checkpoints: stats.checkpointingStatistics(),
    checkpointConfig: checkpointConfigDocument(simulation.config),
    checkpointDetails: stats.allCheckpointDetails(),
    restores: simulation.restores,
    output: { totalRecords: simulation.sinkOutput.totalRecords, perKey: simulation.sinkOutput.perKey(), duplicates, missing },
    job: { status: simulation.jobStatus, restarts: simulation.restarts, failureCause: simulation.failureCause ?? null },
    metrics: simulation.metrics(),
    expectations: checkExpectations(scenario.expectations, {
      jobStatus: simulation.jobStatus,
      sinkRecords: simulation.sinkOutput.totalRecords,
      duplicates,
      missing,
      completedCheckpoints: counts.completed,
      failedCheckpoints: counts.failed,
      restores: simulation.restores.length,
    }),
  };
  return { report, simulation };
}

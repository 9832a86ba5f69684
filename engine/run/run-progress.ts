/**
 * How far a long run has come, for a terminal to show while it runs: the job time reached, the
 * checkpoints completed and failed, the restarts. The engine only reports; the one who owns a
 * terminal (the CLI's entry point) decides whether and how to show it. Reports are throttled by
 * job time and by steps, never by a wall clock (the engine has none).
 */
import type { Simulation } from '../sim/simulation.ts';

export interface RunProgress {
  /** the run with faults, or the failure-free run it is compared against (the oracle) */
  phase: 'run' | 'reference';
  /** job time reached, ms */
  jobTimeMs: number;
  /** the run's length, ms; null for a run that goes on until the job ends */
  untilMs: number | null;
  completedCheckpoints: number;
  failedCheckpoints: number;
  restarts: number;
  jobStatus: string;
}

/** Receives a run's progress; injected by whoever shows it (nothing is reported without one). */
export type ProgressSink = (progress: RunProgress) => void;

/** A report at least every this much job time… */
const MIN_JOB_TIME_BETWEEN_REPORTS_MS = 1_000;
/** …or every this many sim events, for a run whose job time hardly moves (a busy, saturated job). */
const STEPS_BETWEEN_REPORTS = 20_000;
/** A bounded run reports about this many times in all, whatever its length. */
const REPORTS_PER_RUN = 100;

/**
 * Simulation.runToEnd with reports: the same stopping rule (the run's length, or the job ended),
 * and a report each time the job time moved on by a step of the run's length, or after a number
 * of events, and once at the end.
 */
export function runToEndReporting(sim: Simulation, phase: RunProgress['phase'], sink: ProgressSink | undefined): void {
  if (!sink) return sim.runToEnd();
  const until = sim.scenario.run.until_ms;
  const jobTimeStep = until === Infinity ? MIN_JOB_TIME_BETWEEN_REPORTS_MS : Math.max(MIN_JOB_TIME_BETWEEN_REPORTS_MS, until / REPORTS_PER_RUN);
  let reportedAt = sim.now;
  let steps = 0;
  while (!sim.job.isTerminal && sim.kernel.nextEventTime <= until) {
    sim.step();
    if (++steps >= STEPS_BETWEEN_REPORTS || sim.now - reportedAt >= jobTimeStep) {
      sink(progressOf(sim, phase));
      reportedAt = sim.now;
      steps = 0;
    }
  }
  if (!sim.job.isTerminal && until !== Infinity) sim.runUntil(until);
  sink(progressOf(sim, phase));
}

export function progressOf(sim: Simulation, phase: RunProgress['phase']): RunProgress {
  const { counts } = sim.coordinator.stats.checkpointingStatistics();
  const until = sim.scenario.run.until_ms;
  return {
    phase,
    jobTimeMs: sim.now,
    untilMs: until === Infinity ? null : until,
    completedCheckpoints: counts.completed,
    failedCheckpoints: counts.failed,
    restarts: sim.restarts,
    jobStatus: sim.jobStatus,
  };
}

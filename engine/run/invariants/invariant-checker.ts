/**
 * An invariant checker: a small observer, apart from the code it checks (TigerBeetle's
 * `*_checker.zig`), that any run can carry — the sim, the live runtime, the page. It is fed the
 * run's job events as they happen (`onEvent`, what a runtime's `onEvent` delivers) and, at the end
 * or at any point a caller chooses, the run's `ckpt-lab run --json` report and the oracle's output
 * (`verdict`). A violation says which invariant broke, when, and what was seen.
 */
import type { JobEvent } from '../job-events.ts';
import type { KeyOutput } from '../sink-output-log.ts';
import type { RunReport } from '../run-report.ts';
import type { Scenario } from '../../scenario/scenario-types.ts';
import type { TaskMessage } from '../../job/task-message.ts';

export interface InvariantViolation {
  /** the checker's name, e.g. `exactly-once` */
  invariant: string;
  /** job time of the event that broke it; null when it shows only in the run's end state */
  time: number | null;
  message: string;
}

/**
 * The independent oracle: a failure-free run of the same scenario and seed. Its output is taken at
 * two points, so a run still going can be judged: `behind` (what the run must hold by now: the
 * whole output of a finished job, or what the failure-free run had written a while before) and
 * `ahead` (what it may hold at most: the whole output, or what the failure-free run had written a
 * while later).
 */
export interface OutputOracle {
  /** undefined when nothing can be asked of the run's output yet (a bounded job that did not finish) */
  behind?: { perKey: Record<string, KeyOutput>; missing: number };
  ahead: { duplicates: number };
  /**
   * What the failure-free run itself achieved over the same span, when known: a run cannot be
   * asked to be livelier than its configuration allows (a checkpoint timeout shorter than the
   * backlog ahead of every barrier fails over forever, in Flink too, with or without faults).
   */
  reference?: ReferenceProgress;
}

/** The failure-free run's progress: its final status, and whether a checkpoint completed in the liveness phase. */
export interface ReferenceProgress {
  status: string;
  checkpointedInLivenessPhase: boolean;
}

/** What a checker is given at the end: the run's report, its scenario (as it started) and the oracle. */
export interface RunOutcome {
  scenario: Scenario;
  report: RunReport;
  oracle: OutputOracle;
}

export interface InvariantChecker {
  readonly invariant: string;
  /** One job event, in the order the run emitted them. */
  onEvent(event: JobEvent): void;
  /** One task message the job let through, or an attempt's cancellation (a checker that watches them). */
  onTaskMessage?(message: TaskMessage): void;
  /** Every violation seen in the events so far, plus those the outcome shows. */
  verdict(outcome: RunOutcome): InvariantViolation[];
}

/** The checkers' habit for the output's delivery guarantee: exactly-once needs EXACTLY_ONCE and a two-phase-commit sink. */
export function promisesExactlyOnce(scenario: Scenario): boolean {
  const mode = scenario.config['execution.checkpointing.mode'] ?? 'EXACTLY_ONCE';
  const sinks = scenario.job.vertices.filter((v) => v.operator.type === 'sink');
  return mode === 'EXACTLY_ONCE' && sinks.length > 0 && sinks.every((v) => v.operator.type === 'sink' && v.operator.sink === 'two-phase-commit');
}

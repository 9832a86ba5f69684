/**
 * Runs one chaos case in the sim with every invariant checker attached: the safety phase with its
 * faults and operator requests, then the liveness phase without; then the failure-free run of the
 * same scenario and seed as the oracle, and the checkers' verdict.
 */
import { Simulation } from '../sim/simulation.ts';
import { runReport, type RunReport } from '../run/run-report.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import { InvariantCheckers } from '../run/invariants/invariant-checkers.ts';
import type { InvariantViolation, OutputOracle, ReferenceProgress } from '../run/invariants/invariant-checker.ts';
import type { ChaosCase } from './chaos-case.ts';

export interface ChaosResult {
  seed: number;
  violations: InvariantViolation[];
  report: RunReport;
  /** faults carried out, by kind (the fault events' kinds: scenario fault types, rescale, restart-from-savepoint) */
  injected: Record<string, number>;
  /** faults and requests refused when they came due (no local copy to damage, no savepoint yet, …), by kind */
  notApplied: Record<string, number>;
  /** the failure-free run itself finished (bounded) or checkpointed after the faults (unbounded): liveness was asked of this seed */
  livenessAsked: boolean;
}

/** `trace`: receives the run's trace, one line per event it handled (the failure-free oracle's not included). */
export function runChaosCase(c: ChaosCase, options: { lsmStorage?: LsmStorageFactory; trace?: (line: string) => void } = {}): ChaosResult {
  const shared = options.lsmStorage ? { lsmStorage: options.lsmStorage } : {};
  // The operator requests are scheduled as the page schedules them (a chaos link opens this very run there).
  const sim = new Simulation(c.scenario, { ...shared, operations: c.operations, ...(options.trace ? { trace: options.trace } : {}) });
  const checkers = new InvariantCheckers(sim, { liveness: { from: c.safetyEndMs, bounded: c.bounded } });
  checkers.attach(sim);
  const notApplied: Record<string, number> = {};
  sim.runToEnd();
  const oracle = failureFreeOracle(c, sim, shared);
  const report = runReport(sim, { duplicates: oracle.ahead.duplicates, missing: oracle.behind?.missing ?? 0 });
  const injected: Record<string, number> = {};
  for (const e of sim.events) {
    if (e.type === 'fault' && e.fault) count(injected, e.fault.kind);
    if (e.type === 'fault-not-applied') count(notApplied, e.faultType);
  }
  // a manual trigger shows only as a checkpoint-triggered event: count the due ones not refused
  for (const f of c.scenario.faults) if ((f.type === 'trigger-checkpoint' || f.type === 'trigger-savepoint') && f.at_ms <= sim.now) count(injected, f.type);
  for (const type of ['trigger-checkpoint', 'trigger-savepoint']) {
    if (injected[type] === undefined) continue;
    injected[type] -= notApplied[type] ?? 0;
    if (injected[type] <= 0) delete injected[type];
  }
  const livenessAsked = c.bounded ? oracle.reference?.status === 'FINISHED' : oracle.reference?.checkpointedInLivenessPhase === true;
  return { seed: c.seed, violations: checkers.verdict({ scenario: c.scenario, report, oracle }), report, injected, notApplied, livenessAsked };
}

/**
 * The failure-free run's output: a bounded job's whole output (nothing can be asked of the
 * output of one that did not finish but its duplicates); an unbounded job's at `oracleLagMs`
 * before the end (what the run must hold) and `oracleLeadMs` after (what it may hold at most).
 */
function failureFreeOracle(c: ChaosCase, sim: Simulation, shared: { lsmStorage?: LsmStorageFactory }): OutputOracle {
  const reference = new Simulation({ ...c.scenario, faults: [] }, { ...shared, seed: sim.seed });
  if (c.bounded) {
    reference.runToEnd();
    const { duplicates, missing } = sim.sinkOutput.compareTo(reference.sinkOutput);
    return { ahead: { duplicates }, reference: progressOf(reference, c.safetyEndMs, reference.now), ...(sim.jobStatus === 'FINISHED' ? { behind: { perKey: reference.sinkOutput.perKey(), missing } } : {}) };
  }
  reference.runUntil(Math.max(0, sim.now - c.oracleLagMs));
  const behind = { perKey: reference.sinkOutput.perKey(), missing: sim.sinkOutput.compareTo(reference.sinkOutput).missing };
  reference.runUntil(sim.now);
  const progress = progressOf(reference, c.safetyEndMs, sim.now);
  reference.runUntil(sim.now + c.oracleLeadMs);
  return { behind, reference: progress, ahead: { duplicates: sim.sinkOutput.compareTo(reference.sinkOutput).duplicates } };
}

/** The failure-free run's status now, and whether one of its checkpoints completed between `from` and `until`. */
function progressOf(reference: Simulation, from: number, until: number): ReferenceProgress {
  const checkpointed = reference.events.some((e) => e.type === 'checkpoint-completed' && e.time >= from && e.time <= until);
  return { status: reference.jobStatus, checkpointedInLivenessPhase: checkpointed };
}

function count(into: Record<string, number>, kind: string): void {
  into[kind] = (into[kind] ?? 0) + 1;
}

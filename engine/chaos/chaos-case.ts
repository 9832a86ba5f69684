/**
 * One seed of seeded chaos, drawn whole from the seed: a scenario shape (operators, windows and
 * the two-input join, parallelism, mode, sink, backend, incremental, local recovery, unaligned and
 * the aligned timeout, bounded or unbounded sources) and a fault profile (which fault kinds, how
 * often, and when: anywhere in the safety phase, near the end of bounded input, during a restart),
 * then a liveness phase from `safetyEndMs` on that heals what is still broken and injects nothing.
 *
 * The scenario is built as the file a user would write (`document`: durations in Flink syntax, the
 * format `npx ckpt-lab run` loads) and read back through the scenario validator, so a failing seed
 * is saved as exactly what ran. Rescales and restarts from a savepoint are operator requests,
 * not part of the scenario's fault schedule: they are `operations`, applied through the JobMaster's
 * one operation path at their times.
 */
import { RandomSource } from '../sim/random-source.ts';
import type { JobOperation } from '../job/job-operation.ts';
import type { FaultSpec, Scenario } from '../scenario/scenario-types.ts';
import { formatScenarioErrors, validateScenario } from '../scenario/scenario-validator.ts';
import { chaosFaults, type ChaosFaultPlan } from './chaos-faults.ts';
import { chaosJob, type ChaosJob } from './chaos-job.ts';

/** The operator requests chaos makes besides the fault schedule (the scenario format has no type for them). */
export interface TimedOperation {
  at_ms: number;
  operation: Extract<JobOperation, { type: 'rescale' | 'restart-from-savepoint' }>;
}

export interface ChaosCase {
  seed: number;
  /** the scenario file (JSON- and YAML-able), as `npx ckpt-lab run` loads it */
  document: Record<string, unknown>;
  /** the document, validated */
  scenario: Scenario;
  operations: TimedOperation[];
  /** job time the liveness phase starts: no fault from here on, remote storage and slowdowns healed */
  safetyEndMs: number;
  /** every source bounded: the job must finish */
  bounded: boolean;
  /** unbounded: how far behind the end the failure-free output must be held, and how far ahead it bounds duplicates */
  oracleLagMs: number;
  oracleLeadMs: number;
}

export function chaosCase(seed: number): ChaosCase {
  const random = new RandomSource(seed);
  const job = chaosJob(random.fork('job'));
  const plan = chaosFaults(random.fork('faults'), job);
  const document = scenarioDocument(seed, job, plan);
  const valid = validateScenario(document);
  if (!valid.ok) throw new Error(`chaos seed ${seed} built an invalid scenario:\n${formatScenarioErrors(valid.errors)}`);
  return {
    seed,
    document,
    scenario: valid.scenario,
    operations: plan.operations,
    safetyEndMs: plan.safetyEndMs,
    bounded: job.bounded,
    oracleLagMs: job.bounded ? 0 : plan.livenessMs / 2,
    oracleLeadMs: job.bounded ? 0 : 3 * job.intervalMs + 1000,
  };
}

function scenarioDocument(seed: number, job: ChaosJob, plan: ChaosFaultPlan): Record<string, unknown> {
  const untilMs = plan.safetyEndMs + plan.livenessMs;
  return {
    version: 1,
    name: `chaos seed ${seed}`,
    description: describeCase(seed, plan),
    seed,
    job: { name: job.name, vertices: job.vertices, edges: job.edges },
    config: job.config,
    cluster: job.cluster,
    faults: plan.faults.map(fileFault),
    run: { until: `${Math.ceil(untilMs)} ms` },
    // so that `npx ckpt-lab run` on the saved file exits 1 where the output checkers would fail
    expectations: [...(job.exactlyOnce ? [{ type: 'exactly-once' }] : []), ...(job.bounded ? [{ type: 'job-status', status: 'FINISHED' }] : [])],
  };
}

function describeCase(seed: number, plan: ChaosFaultPlan): string {
  const ops = plan.operations.map((o) => `${o.operation.type}${o.operation.type === 'rescale' ? ` ${o.operation.vertex} to ${o.operation.parallelism}` : ''} at ${o.at_ms} ms`);
  const extra = ops.length === 0 ? '' : ` The chaos runner also asks for: ${ops.join(', ')} (not expressible as scenario faults).`;
  return `Seeded chaos: faults until ${plan.safetyEndMs} ms, then none.${extra} Replay all of it with: npm run chaos -- --seeds 1 --from ${seed}`;
}

/** A fault as the file writes it: `at` in Flink duration syntax. */
function fileFault(fault: FaultSpec): Record<string, unknown> {
  const { at_ms, ...rest } = fault;
  return { at: `${at_ms} ms`, ...rest };
}

import type { OutputOracle, RunOutcome } from '../../engine/run/invariants/invariant-checker.ts';
import type { RunReport } from '../../engine/run/run-report.ts';
import type { KeyOutput } from '../../engine/run/sink-output-log.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from './scenario-builder.ts';

/** A hand-made run outcome for checker tests: a keyed count job, its report's output and job status, an oracle. */
export function runOutcome(o: {
  mode?: 'EXACTLY_ONCE' | 'AT_LEAST_ONCE';
  sink?: 'plain' | 'two-phase-commit';
  status?: string;
  perKey?: Record<string, number>;
  oracle?: OutputOracle;
  report?: Partial<RunReport>;
}): RunOutcome {
  const base = keyedCountJob();
  const scenario: Scenario = {
    ...base,
    config: { 'execution.checkpointing.mode': o.mode ?? 'EXACTLY_ONCE' },
    job: { ...base.job, vertices: base.job.vertices.map((v) => (v.operator.type === 'sink' ? { ...v, operator: { type: 'sink', sink: o.sink ?? 'two-phase-commit' } } : v)) },
  };
  const report = {
    output: { totalRecords: 0, perKey: perKey(o.perKey ?? {}), duplicates: 0, missing: 0 },
    job: { status: o.status ?? 'FINISHED', restarts: 0, failureCause: null },
    ...o.report,
  } as RunReport;
  return { scenario, report, oracle: o.oracle ?? { ahead: { duplicates: 0 }, behind: { perKey: {}, missing: 0 } } };
}

/** Per key record counts as the sink's perKey. */
export function perKey(records: Record<string, number>): Record<string, KeyOutput> {
  return Object.fromEntries(Object.entries(records).map(([k, n]) => [k, { records: n, sum: n, last: n }]));
}

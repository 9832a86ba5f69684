/**
 * Remote bytes of a half-local restore against a fully remote one (issue 13, aim ≤ 0.55), in the
 * sim: the same job with task-local recovery fails once; before the failure the local copies of
 * half the keyed subtasks are deleted, so those read their state from remote storage and the
 * others from their host's disk. Beside it the same failure without local recovery (every byte
 * remote) and with every local copy (no byte remote). Bytes are the sim's, so deterministic: one
 * run each.
 */
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import type { BenchFigure } from './sim-throughput.ts';

const PARALLELISM = 4;
const FAIL_AT_MS = 1900;

function job(localRecovery: boolean, faults: Scenario['faults']): Scenario {
  const base = keyedCountJob({ keys: 100_000, rate: 100_000, count: 200_000, parallelism: PARALLELISM, countCostUs: 1 });
  const local: Record<string, boolean> = localRecovery ? { 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': true } : {};
  return {
    ...base,
    config: { 'execution.checkpointing.interval': 500, 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.delay': 0, ...local },
    faults: [...faults, { at_ms: FAIL_AT_MS, type: 'fail-task', vertex: 'count', subtask: 0 }],
  };
}

/** The first restore's bytes read from remote storage, and where each keyed subtask's state came from. */
function remoteBytesOfRestore(scenario: Scenario): { remoteBytes: number; sources: string[] } {
  const sim = new Simulation(scenario);
  sim.runUntil(FAIL_AT_MS + 1000);
  const restore = sim.restores[0];
  if (!restore) throw new Error('the bench job did not restore');
  return {
    remoteBytes: restore.subtasks.reduce((n, s) => n + s.remoteBytes, 0),
    sources: restore.subtasks.filter((s) => s.vertexId === 'count').map((s) => `count#${s.subtaskIndex}: ${s.source}${s.reason ? ` (${s.reason})` : ''}`),
  };
}

/** delete-local-copy faults for the first half of the keyed subtasks, on the hosts they run on. */
function deleteHalfTheLocalCopies(): Scenario['faults'] {
  const placement = new Simulation(job(true, [])).topology().subtasks.filter((s) => s.vertexId === 'count' && s.subtaskIndex < PARALLELISM / 2);
  return placement.map((s) => ({ at_ms: FAIL_AT_MS - 50, type: 'delete-local-copy' as const, host: s.host, vertex: 'count', subtask: s.subtaskIndex }));
}

export function* benchHalfLocalRestore(): Generator<BenchFigure> {
  const remote = remoteBytesOfRestore(job(false, []));
  const half = remoteBytesOfRestore(job(true, deleteHalfTheLocalCopies()));
  const local = remoteBytesOfRestore(job(true, []));
  const deterministic = true;
  const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 100) / 100;
  yield { figure: 'restore_fully_remote.remote_mb', value: mb(remote.remoteBytes), unit: 'MiB', deterministic, sources: remote.sources };
  yield { figure: 'restore_half_local.remote_mb', value: mb(half.remoteBytes), unit: 'MiB', deterministic, sources: half.sources };
  yield { figure: 'restore_fully_local.remote_mb', value: mb(local.remoteBytes), unit: 'MiB', deterministic, sources: local.sources };
  yield { figure: 'restore_half_local_vs_remote.remote_bytes_ratio', value: Math.round((half.remoteBytes / remote.remoteBytes) * 1000) / 1000, unit: 'ratio', deterministic, note: 'half the keyed subtasks without a local copy; sim, one failure' };
}

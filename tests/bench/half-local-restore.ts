/**
 * Remote bytes of a half-local restore against a fully remote one (issue 13, aim ≤ 0.55), in the
 * sim: the same job with task-local recovery fails once; before the failure half the key-group
 * handles of every keyed subtask's local copy are deleted, so each subtask mixes within itself
 * (Flink's prioritized restore per handle): its intact handles from its host's disk, only the lost
 * ones from remote storage. Beside it the same failure without local recovery (every byte remote)
 * and with every local copy (no keyed byte remote). Bytes are the sim's, so deterministic: one run each.
 */
import { localKeyGroupsHandlesOfRange } from '../../engine/recovery/local-key-groups-handles.ts';
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
    sources: restore.subtasks.filter((s) => s.vertexId === 'count').map((s) => `count#${s.subtaskIndex}: ${s.source}${s.reason ? ` (${s.reason})` : ''}, handles ${handleSources(s.handles ?? [])}`),
  };
}

/** `2 local, 2 remote`: where one subtask's handles came from. */
function handleSources(handles: ReadonlyArray<{ source: string }>): string {
  const local = handles.filter((h) => h.source === 'local').length;
  return `${local} local, ${handles.length - local} remote`;
}

/** delete-local-copy faults for the first half of the key-group handles of every keyed subtask's copy, on the hosts they run on. */
function deleteHalfOfEachCopy(): Scenario['faults'] {
  const placement = new Simulation(job(true, [])).topology().subtasks.filter((s) => s.vertexId === 'count');
  return placement.flatMap((s) => {
    const handles = localKeyGroupsHandlesOfRange(s.keyGroupRange!, 0, true);
    return handles.slice(0, handles.length / 2).map((h) => ({ at_ms: FAIL_AT_MS - 50, type: 'delete-local-copy' as const, host: s.host, vertex: 'count', subtask: s.subtaskIndex, key_group: h.keyGroupRange.start }));
  });
}

export function* benchHalfLocalRestore(): Generator<BenchFigure> {
  const remote = remoteBytesOfRestore(job(false, []));
  const half = remoteBytesOfRestore(job(true, deleteHalfOfEachCopy()));
  const local = remoteBytesOfRestore(job(true, []));
  const deterministic = true;
  const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 100) / 100;
  yield { figure: 'restore_fully_remote.remote_mb', value: mb(remote.remoteBytes), unit: 'MiB', deterministic, sources: remote.sources };
  yield { figure: 'restore_half_local.remote_mb', value: mb(half.remoteBytes), unit: 'MiB', deterministic, sources: half.sources };
  yield { figure: 'restore_fully_local.remote_mb', value: mb(local.remoteBytes), unit: 'MiB', deterministic, sources: local.sources };
  yield { figure: 'restore_half_local_vs_remote.remote_bytes_ratio', value: Math.round((half.remoteBytes / remote.remoteBytes) * 1000) / 1000, unit: 'ratio', deterministic, note: 'every keyed subtask lost half the key-group handles of its local copy; sim, one failure' };
}

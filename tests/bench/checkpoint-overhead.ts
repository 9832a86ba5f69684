import { performance } from 'node:perf_hooks';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import type { BenchFigure } from './sim-throughput.ts';

const RECORDS_PER_SOURCE = 250_000;

/** The bench pipeline running at full speed: virtual time is what the operators' costs make it. */
function job(checkpointIntervalMs: number | undefined): Scenario {
  // 10 µs per record at the count: 250k records per subtask take 2.5 s of virtual time, ~25 checkpoints
  const base = keyedCountJob({ keys: 1000, rate: 1e9, count: RECORDS_PER_SOURCE, parallelism: 4, countCostUs: 10 });
  return checkpointIntervalMs === undefined ? base : { ...base, config: { 'execution.checkpointing.interval': checkpointIntervalMs } };
}

function recordsPerSecond(scenario: Scenario): { rate: number; checkpoints: number } {
  const sim = new Simulation(scenario);
  const start = performance.now();
  sim.runToEnd();
  const seconds = (performance.now() - start) / 1000;
  const completed = sim.events.filter((e) => e.type === 'checkpoint-completed').length;
  return { rate: (RECORDS_PER_SOURCE * 4) / seconds, checkpoints: completed };
}

/**
 * Sim throughput with a checkpoint every 100 ms of virtual time against the same run without
 * checkpoints (best of three each, interleaved); and the cost of restoring 100k keys.
 */
export function* benchCheckpointOverhead(): Generator<BenchFigure> {
  let off = 0;
  let on = 0;
  let checkpoints = 0;
  for (let round = 0; round < 3; round++) {
    off = Math.max(off, recordsPerSecond(job(undefined)).rate);
    const withCheckpoints = recordsPerSecond(job(100));
    on = Math.max(on, withCheckpoints.rate);
    checkpoints = withCheckpoints.checkpoints;
  }
  yield { figure: 'sim_with_checkpoints_100ms.records_per_s', value: Math.round(on), unit: 'records/s', checkpoints };
  yield { figure: 'sim_without_checkpoints.records_per_s', value: Math.round(off), unit: 'records/s' };
  yield { figure: 'sim_checkpoints_vs_none.ratio', value: Math.round((on / off) * 1000) / 1000, unit: 'ratio', aim: '>= 0.8' };
  yield* benchRestore100kKeys();
  yield* benchLocalVsRemoteRestore();
}

/**
 * The same state restored from the local disk and from remote storage, in one run each with the
 * default cost model (remote: 50 ms latency, 100 MB/s; local: 0.5 ms, 1000 MB/s).
 */
function* benchLocalVsRemoteRestore(): Generator<BenchFigure> {
  const restoreOf = (local: boolean) => {
    const base = keyedCountJob({ keys: 100_000, rate: 100_000, count: 200_000, parallelism: 4, countCostUs: 1 });
    const config = { 'execution.checkpointing.interval': 500, 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.delay': 0 };
    const sim = new Simulation({
      ...base,
      config: local ? { ...config, 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': true } : config,
      faults: [{ at_ms: 1900, type: 'fail-task', vertex: 'count', subtask: 0 }],
    });
    sim.runUntil(2500);
    const counts = sim.restores[0]!.subtasks.filter((s) => s.vertexId === 'count');
    return { ms: Math.max(...counts.map((s) => s.durationMs)), sources: [...new Set(counts.map((s) => s.source))] };
  };
  const local = restoreOf(true);
  const remote = restoreOf(false);
  yield { figure: 'restore_100k_keys.local_ms', value: Math.round(local.ms * 100) / 100, unit: 'ms', sources: local.sources };
  yield { figure: 'restore_100k_keys.remote_ms', value: Math.round(remote.ms * 100) / 100, unit: 'ms', sources: remote.sources };
  yield { figure: 'restore_local_vs_remote.ratio', value: Math.round((local.ms / remote.ms) * 1000) / 1000, unit: 'ratio', note: 'duration of the slowest keyed subtask' };
}

/** A job with 100k keys in state fails once; how long the restore takes, in wall time and in virtual time. */
function* benchRestore100kKeys(): Generator<BenchFigure> {
  const base = keyedCountJob({ keys: 100_000, rate: 100_000, count: 200_000, parallelism: 4, countCostUs: 1 });
  const scenario: Scenario = {
    ...base,
    config: { 'execution.checkpointing.interval': 500, 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.delay': 0 },
    faults: [{ at_ms: 1900, type: 'fail-task', vertex: 'count', subtask: 0 }],
  };
  const sim = new Simulation(scenario);
  sim.runUntil(1899);
  const start = performance.now();
  // the restart (backoff 0) and the restore of every subtask happen in the next events
  while (sim.restores.length === 0) sim.step();
  const wallMs = performance.now() - start;
  const restore = sim.restores[0]!;
  const keys = sim.tasks.reduce((n, t) => n + (t.keyedState?.entryCount() ?? 0), 0);
  yield { figure: 'sim_restore_100k_keys.wall_ms', value: Math.round(wallMs * 10) / 10, unit: 'ms', keys };
  yield {
    figure: 'sim_restore_100k_keys.virtual_ms',
    value: Math.round(Math.max(...restore.subtasks.map((s) => s.durationMs))),
    unit: 'ms',
    bytes: restore.subtasks.reduce((n, s) => n + s.bytes, 0),
    note: 'slowest subtask, with the default remote cost model (50 ms latency, 100 MB/s)',
  };
}

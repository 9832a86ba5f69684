import { performance } from 'node:perf_hooks';
import { runSideBySide } from './sliced-side-by-side.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { median, medianRatio } from './median.ts';
import type { RestoreRecord } from '../../engine/run/job-events.ts';

const RECORDS_PER_SOURCE = 250_000;
const RECORDS = RECORDS_PER_SOURCE * 4;

/** The bench pipeline running at full speed: virtual time is what the operators' costs make it. */
function job(checkpointIntervalMs: number | undefined): Scenario {
  // 10 µs per record at the count: 250k records per subtask take 2.5 s of virtual time, ~25 checkpoints
  const base = keyedCountJob({ keys: 1000, rate: 1e9, count: RECORDS_PER_SOURCE, parallelism: 4, countCostUs: 10 });
  return checkpointIntervalMs === undefined ? base : { ...base, config: { 'execution.checkpointing.interval': checkpointIntervalMs } };
}

/** Rounds of the two side by side; the figures are their medians. */
const ROUNDS = 15;

/** Records per CPU second of each side of one round, the two run side by side in slices. */
function round(): { off: number; on: number; checkpoints: number } {
  const off = new Simulation(job(undefined));
  const on = new Simulation(job(100));
  const { aCpuMs, bCpuMs } = runSideBySide(off, on);
  for (const sim of [off, on]) if (sim.sinkOutput.totalRecords !== RECORDS) throw new Error('bench pipeline lost records');
  const checkpoints = on.events.filter((e) => e.type === 'checkpoint-completed').length;
  return { off: RECORDS / (aCpuMs / 1000), on: RECORDS / (bCpuMs / 1000), checkpoints };
}

/**
 * Sim throughput with a checkpoint every 100 ms of virtual time against the same run without
 * checkpoints: a warm-up round, then ROUNDS rounds, each running both side by side in slices of a
 * few milliseconds of CPU time (sliced-side-by-side.ts says why); the ratio is the median of the
 * rounds' ratios. And the cost of restoring 100k keys. The aim is in bench-aims.ts.
 */
export function* benchCheckpointOverhead(): Generator<BenchFigure> {
  const off: number[] = [];
  const on: number[] = [];
  let checkpoints = 0;
  // not counted: the first runs pay for compiling the engine
  round();
  for (let r = 0; r < ROUNDS; r++) {
    const figures = round();
    off.push(figures.off);
    on.push(figures.on);
    checkpoints = figures.checkpoints;
  }
  const repetitions = ROUNDS;
  const note = 'records per CPU second, run side by side in slices';
  yield { figure: 'sim_with_checkpoints_100ms.records_per_s', value: Math.round(median(on)), unit: 'records/s', repetitions, checkpoints, note };
  yield { figure: 'sim_without_checkpoints.records_per_s', value: Math.round(median(off)), unit: 'records/s', repetitions, note };
  const ratios = on.map((n, i) => n / off[i]!);
  const spread = [Math.min(...ratios), Math.max(...ratios)].map((x) => Math.round(x * 1000) / 1000);
  const ratioNote = `median of the rounds' ratios, which ran from ${spread[0]} to ${spread[1]}`;
  yield { figure: 'sim_checkpoints_vs_none.ratio', value: Math.round(medianRatio(on, off) * 1000) / 1000, unit: 'ratio', repetitions, spread, note: ratioNote };
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
  // virtual time of a deterministic run: the same on every repetition, so one is enough
  const deterministic = true;
  yield { figure: 'restore_100k_keys.local_ms', value: Math.round(local.ms * 100) / 100, unit: 'ms', deterministic, sources: local.sources, note: 'virtual time' };
  yield { figure: 'restore_100k_keys.remote_ms', value: Math.round(remote.ms * 100) / 100, unit: 'ms', deterministic, sources: remote.sources, note: 'virtual time' };
  yield { figure: 'restore_local_vs_remote.ratio', value: Math.round((local.ms / remote.ms) * 1000) / 1000, unit: 'ratio', deterministic, note: 'duration of the slowest keyed subtask, virtual time' };
}

/** Restores timed for the wall-time figure; the figure is their median. */
const RESTORE_RUNS = 7;

/**
 * A job with 100k keys in state fails once; how long the restore takes, in wall time (the median
 * of RESTORE_RUNS runs) and in virtual time (deterministic: the same every run).
 */
function* benchRestore100kKeys(): Generator<BenchFigure> {
  const runs = Array.from({ length: RESTORE_RUNS }, restore100kKeysOnce);
  const { restore, keys } = runs[0]!;
  yield { figure: 'sim_restore_100k_keys.wall_ms', value: Math.round(median(runs.map((r) => r.wallMs)) * 10) / 10, unit: 'ms', repetitions: RESTORE_RUNS, keys };
  yield {
    figure: 'sim_restore_100k_keys.virtual_ms',
    value: Math.round(Math.max(...restore.subtasks.map((s) => s.durationMs))),
    unit: 'ms',
    deterministic: true,
    bytes: restore.subtasks.reduce((n, s) => n + s.bytes, 0),
    note: 'slowest subtask, with the default remote cost model (50 ms latency, 100 MB/s)',
  };
}

function restore100kKeysOnce(): { wallMs: number; restore: RestoreRecord; keys: number } {
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
  const keys = sim.tasks.reduce((n, t) => n + (t.keyedState?.entryCount() ?? 0), 0);
  return { wallMs, restore: sim.restores[0]!, keys };
}

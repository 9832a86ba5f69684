import { performance } from 'node:perf_hooks';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { StreamRecord } from '../../engine/protocol.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { median, medianRatio } from './median.ts';

const PARALLELISM = 4;
const RECORDS_PER_SOURCE = 500_000;
const KEYS = 1000;

export interface BenchFigure {
  figure: string;
  /** null: the figure could not be measured on this run (its `error` says why) */
  value: number | null;
  unit: string;
  [extra: string]: unknown;
}

/** Runs of each side, interleaved; the figures are their medians. */
const ROUNDS = 5;

/**
 * Sim kernel throughput on a 3-vertex keyed pipeline (source → keyBy count → sink, parallelism 4)
 * against a bare loop that moves the same records through arrays, stage by stage (the ceiling).
 * ROUNDS rounds, each running both back to back, so both see the same machine state; the ratio
 * is the median of the rounds' ratios. The aim is in bench-aims.ts.
 */
export function* benchSimThroughput(): Generator<BenchFigure> {
  const total = RECORDS_PER_SOURCE * PARALLELISM;
  const sim: number[] = [];
  const loop: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    sim.push(total / timeSim());
    loop.push(total / timeBareLoop());
  }
  const repetitions = ROUNDS;
  yield { figure: 'sim.records_per_s', value: Math.round(median(sim)), unit: 'records/s', repetitions, pipeline: 'source→keyBy count→sink, p=4' };
  yield { figure: 'bare_loop.records_per_s', value: Math.round(median(loop)), unit: 'records/s', repetitions, note: 'the same records moved through arrays, 3 stages' };
  yield { figure: 'sim_vs_bare_loop.ratio', value: round3(medianRatio(sim, loop)), unit: 'ratio', repetitions, note: 'median of the rounds\' ratios' };
}

function timeSim(): number {
  // A rate far above what the sim can do in virtual time keeps every source saturated.
  const sim = new Simulation(keyedCountJob({ keys: KEYS, rate: 1e9, count: RECORDS_PER_SOURCE, parallelism: PARALLELISM, countCostUs: 1 }));
  const start = performance.now();
  sim.runToEnd();
  const seconds = (performance.now() - start) / 1000;
  if (sim.sinkOutput.totalRecords !== RECORDS_PER_SOURCE * PARALLELISM) throw new Error('bench pipeline lost records');
  return seconds;
}

/** Source arrays → partitioned arrays → per-subtask output arrays → sink array: moves only. */
function timeBareLoop(): number {
  const keys = Array.from({ length: KEYS }, (_, i) => `key-${i}`);
  const start = performance.now();
  const sink: StreamRecord[] = [];
  const stage2: StreamRecord[][] = Array.from({ length: PARALLELISM }, () => []);
  for (let s = 0; s < PARALLELISM; s++) {
    for (let i = 0; i < RECORDS_PER_SOURCE; i++) {
      const record = { key: keys[i % KEYS]!, value: 1, timestamp: i };
      stage2[i % PARALLELISM]!.push(record);
    }
  }
  for (const part of stage2) {
    const stage3: StreamRecord[] = [];
    for (const r of part) stage3.push({ key: r.key, value: r.value, timestamp: r.timestamp });
    for (const r of stage3) sink.push(r);
  }
  const seconds = (performance.now() - start) / 1000;
  if (sink.length !== RECORDS_PER_SOURCE * PARALLELISM) throw new Error('bare loop lost records');
  return seconds;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

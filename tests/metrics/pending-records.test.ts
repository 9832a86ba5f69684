/**
 * Flink's pendingRecords source metric (FLIP-33): the records a source's split made available by
 * now that it has not emitted yet, per source subtask and summed per source vertex.
 */
import { describe, expect, it } from 'vitest';
import { jobMetricsOf, type SubtaskMetrics } from '../../engine/metrics/metrics-sampler.ts';
import { SourceBacklog } from '../../engine/metrics/source-backlog.ts';
import type { SourceSplit } from '../../engine/sources/source-split.ts';
import { SourceInput } from '../../engine/task/source-input.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';

/** One record per millisecond: record i is available at i ms. */
const split = (count = Infinity): SourceSplit => ({ count, ratePerSecond: 1000, recordAt: (offset) => ({ key: `k${offset}`, value: offset, timestamp: offset }) });

function sourceInput(count?: number) {
  const output = { available: true, collect: () => {}, emitWatermark: () => {} };
  return { input: new SourceInput(split(count), 0, { autoWatermarkInterval: 200, recordsPerBuffer: 4 }, output), output };
}

/** A subtask's figures, all 0 but its pendingRecords (sources only). */
const subtask = (vertexId: string, subtaskIndex: number, pendingRecords?: number): SubtaskMetrics => ({
  vertexId,
  subtaskIndex,
  status: 'RUNNING',
  numRecordsIn: 0,
  numRecordsOut: 0,
  numBytesIn: 0,
  numBytesOut: 0,
  busyTimeMsPerSecond: 0,
  backPressuredTimeMsPerSecond: 0,
  idleTimeMsPerSecond: 1000,
  inputQueueLength: 0,
  outputQueueLength: 0,
  stateSizeBytes: 0,
  ...(pendingRecords === undefined ? {} : { pendingRecords }),
});

describe('pendingRecords of a source subtask', () => {
  it.each<[string, { polls: number[]; restoreAt?: number; count?: number; backpressured?: boolean }, number, number]>([
    ['is what became available before the first poll', { polls: [] }, 10, 11],
    ['shrinks by the records emitted', { polls: [10] }, 10, 7],
    ['grows while the output has no room (backpressure)', { polls: [10], backpressured: true }, 50, 51],
    ['counts the records a restore rewinds to read again', { polls: [], restoreAt: 0 }, 100, 101],
    ['is 0 once a bounded split was read to its end', { polls: [100, 100, 100], count: 8 }, 100, 0],
  ])('%s', (_name, o, at, expected) => {
    const { input, output } = sourceInput(o.count);
    if (o.restoreAt !== undefined) input.restoreOffset(o.restoreAt);
    if (o.backpressured) output.available = false;
    for (const now of o.polls) input.poll(now, 0);
    expect(input.pendingRecords(at)).toBe(expected);
  });
});

describe('pendingRecords in the job metrics', () => {

  it('sums the source subtasks per vertex and leaves other vertices without it', () => {
    const metrics = jobMetricsOf([subtask('source', 0, 5), subtask('source', 1, 7), subtask('count', 0)], 1000);
    expect(metrics.vertices['source']!.pendingRecords).toBe(12);
    expect(metrics.vertices['count']!.pendingRecords).toBeUndefined();
  });

  it('reports a backlog in the sim only where a source runs short of capacity', () => {
    // 2 × 5000 records/s into a count of 2 × 2000 records/s (500 µs a record): the backlog grows.
    const short = new Simulation(keyedCountJob({ keys: 4, rate: 5000, count: 50_000, parallelism: 2, countCostUs: 500 }));
    const spare = new Simulation(keyedCountJob({ keys: 4, rate: 5000, count: 50_000, parallelism: 2, countCostUs: 2 }));
    for (const sim of [short, spare]) sim.runUntil(3000);
    expect(short.metrics().vertices['source']!.pendingRecords).toBeGreaterThan(5000);
    expect(spare.metrics().vertices['source']!.pendingRecords).toBeLessThan(100);
    for (const s of short.metrics().subtasks) expect(s.pendingRecords !== undefined).toBe(s.vertexId === 'source');
  });
});

describe('the sources’ backlog over the run', () => {
  const metrics = (time: number, ...pending: number[]) => jobMetricsOf(pending.map((p, i) => subtask('source', i, p)), time);

  it.each<[string, Array<[number, number[]]>, Array<{ time: number; pendingRecords: number }>]>([
    ['sums every source subtask at each sample', [[1000, [3, 4]], [2000, [0, 1]]], [{ time: 1000, pendingRecords: 7 }, { time: 2000, pendingRecords: 1 }]],
    ['skips a sample only some source subtasks reported (a new attempt still starting)', [[1000, [3, 4]], [2000, [0]]], [{ time: 1000, pendingRecords: 7 }]],
    ['keeps one sample per moment, the latest reading', [[1000, [3, 4]], [1000, [1, 1]]], [{ time: 1000, pendingRecords: 2 }]],
  ])('%s', (_name, readings, expected) => {
    const backlog = new SourceBacklog();
    for (const [time, pending] of readings) backlog.record(metrics(time, ...pending), 2);
    expect(backlog.samples).toEqual(expected);
  });
});

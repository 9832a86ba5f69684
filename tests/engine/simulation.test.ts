import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Simulation } from '../../engine/sim/simulation.ts';
import { keyedCountJob, pipeline, sequenceSource, vertex } from '../support/scenario-builder.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';

function traceHash(scenario: Scenario, seed?: number): { hash: string; lines: number } {
  const h = createHash('sha256');
  let lines = 0;
  const sim = new Simulation(scenario, { ...(seed === undefined ? {} : { seed }), trace: (l) => (h.update(l + '\n'), lines++) });
  sim.runToEnd();
  return { hash: h.digest('hex'), lines };
}

describe('the simulation', () => {
  it('runs a bounded keyed count to FINISHED and counts every record per key', () => {
    const sim = new Simulation(keyedCountJob({ keys: 10, count: 2000, parallelism: 2 }));
    sim.runToEnd();
    expect(sim.jobStatus).toBe('FINISHED');
    // two source subtasks × 2000 records, 10 keys: each key is counted 400 times
    const perKey = sim.sinkOutput.perKey();
    expect(Object.keys(perKey)).toHaveLength(10);
    for (const k of Object.values(perKey)) {
      expect(k.records).toBe(400);
      expect(k.last).toBe(400);
    }
    expect(sim.sinkOutput.totalRecords).toBe(4000);
  });

  it('produces the same trace byte for byte for the same scenario and seed', () => {
    const job = keyedCountJob({ count: 3000, parallelism: 3 });
    const a = traceHash(job);
    const b = traceHash(job);
    expect(a.lines).toBeGreaterThan(100);
    expect(a.hash).toBe(b.hash);
  });

  it('produces a different trace for a random source with a different seed', () => {
    const job = pipeline(
      [
        vertex('source', { type: 'source', source: { kind: 'random', keys: 50, rate_per_s: 5000, count: 2000, skew: 1, value_min: 1, value_max: 9 } }, 2),
        vertex('sum', { type: 'keyed-aggregate', aggregate: 'sum' }, 2),
        vertex('sink', { type: 'sink', sink: 'plain' }, 2),
      ],
      [
        ['source', 'sum', 'hash'],
        ['sum', 'sink', 'forward'],
      ],
    );
    expect(traceHash(job, 1).hash).not.toBe(traceHash(job, 2).hash);
    expect(traceHash(job, 1).hash).toBe(traceHash(job, 1).hash);
  });

  it('sends each key to the subtask Flink would choose', () => {
    const sim = new Simulation(keyedCountJob({ keys: 3, count: 30, parallelism: 4 }));
    sim.runToEnd();
    // maxParallelism for p=4 is 128: key-0 → 0, key-1 → 1, key-2 → 3 (Flink's own assignment)
    const byIndex = sim.tasks.filter((t) => t.id.vertexId === 'count').map((t) => t.metrics.numRecordsIn);
    expect(byIndex).toEqual([40, 40, 0, 40]);
  });

  it('backpressures the source when the keyed operator is slower than the source rate', () => {
    // count costs 2 ms per record, so one subtask handles at most 500 records/s; sources offer 2 × 5000/s
    const sim = new Simulation(keyedCountJob({ keys: 4, rate: 5000, count: 50_000, parallelism: 2, countCostUs: 2000 }));
    sim.runUntil(3000);
    const m = sim.metrics();
    const sources = m.subtasks.filter((s) => s.vertexId === 'source');
    const counts = m.subtasks.filter((s) => s.vertexId === 'count');
    for (const s of sources) expect(s.backPressuredTimeMsPerSecond).toBeGreaterThan(800);
    for (const c of counts) expect(c.busyTimeMsPerSecond).toBeGreaterThan(900);
    // the sources are held back: far fewer records than the 30,000 the rate offered, and only
    // as many as the count processed plus what the network buffers between them can hold
    const emitted = sources.reduce((n, s) => n + s.numRecordsOut, 0);
    const processed = counts.reduce((n, c) => n + c.numRecordsIn, 0);
    expect(processed).toBeGreaterThan(2 * 500 * 3 * 0.95);
    expect(processed).toBeLessThanOrEqual(2 * 500 * 3 + 2 * 327); // a buffer is counted when its processing starts
    expect(emitted).toBeLessThan(2 * 5000 * 3 * 0.3);
  });

  it('keeps per-second busy, backpressured and idle times adding up to about a second', () => {
    const sim = new Simulation(keyedCountJob({ keys: 4, rate: 100_000, count: 1_000_000, parallelism: 2, countCostUs: 15 }));
    sim.runUntil(2500);
    for (const s of sim.metrics().subtasks) {
      const total = s.busyTimeMsPerSecond + s.backPressuredTimeMsPerSecond + s.idleTimeMsPerSecond;
      expect(total).toBeGreaterThanOrEqual(998);
      expect(total).toBeLessThanOrEqual(1002);
    }
  });

  it('fires tumbling event-time windows with the count of each key per window', () => {
    const job = pipeline(
      [
        vertex('source', sequenceSource(2, 100, 1000), 1),
        vertex('window', { type: 'window', size_ms: 1000, aggregate: 'count' }, 2),
        vertex('sink', { type: 'sink', sink: 'plain' }, 2),
      ],
      [
        ['source', 'window', 'hash'],
        ['window', 'sink', 'forward'],
      ],
    );
    const sim = new Simulation(job);
    sim.runToEnd();
    expect(sim.jobStatus).toBe('FINISHED');
    // 100 records/s → event times 0,10,…,9990 ms; each 1 s window holds 100 records, 50 per key
    const out = sim.sinkOutput.perKey();
    expect(out['key-0']).toEqual({ records: 10, sum: 500, last: 50 });
    expect(out['key-1']).toEqual({ records: 10, sum: 500, last: 50 });
  });

  it('joins two inputs per key and window only once both watermarks passed', () => {
    const job = pipeline(
      [
        vertex('left', sequenceSource(2, 100, 400), 1),
        vertex('right', sequenceSource(2, 50, 200), 1),
        vertex('join', { type: 'window-join', size_ms: 1000 }, 2),
        vertex('sink', { type: 'sink', sink: 'plain' }, 2),
      ],
      [
        ['left', 'join', 'hash'],
        ['right', 'join', 'hash'],
        ['join', 'sink', 'forward'],
      ],
    );
    const sim = new Simulation(job);
    sim.runToEnd();
    // per key per 1 s window: left 50 records, right 25 → 1250 pairs; 4 windows per key
    const out = sim.sinkOutput.perKey();
    expect(out['key-0']).toEqual({ records: 4, sum: 5000, last: 1250 });
    expect(out['key-1']).toEqual({ records: 4, sum: 5000, last: 1250 });
  });

  it('splits lines into words and counts them as a word count does', () => {
    const job = pipeline(
      [
        vertex('lines', { type: 'source', source: { kind: 'lines', lines: ['a b a', 'b c'], rate_per_s: 100, count: 4 } }, 1),
        vertex('words', { type: 'map', fn: 'split-words' }, 1),
        vertex('count', { type: 'keyed-aggregate', aggregate: 'count' }, 2),
        vertex('sink', { type: 'sink', sink: 'plain' }, 2),
      ],
      [
        ['lines', 'words', 'forward'],
        ['words', 'count', 'hash'],
        ['count', 'sink', 'forward'],
      ],
    );
    const sim = new Simulation(job);
    sim.runToEnd();
    const out = sim.sinkOutput.perKey();
    expect(out['a']?.last).toBe(4);
    expect(out['b']?.last).toBe(4);
    expect(out['c']?.last).toBe(2);
  });

  it('delivers every record of a broadcast edge to every downstream subtask', () => {
    const job = pipeline(
      [
        vertex('source', sequenceSource(3, 100, 30), 1),
        vertex('map', { type: 'map', fn: 'identity' }, 3),
        vertex('sink', { type: 'sink', sink: 'plain' }, 3),
      ],
      [
        ['source', 'map', 'broadcast'],
        ['map', 'sink', 'forward'],
      ],
    );
    const sim = new Simulation(job);
    sim.runToEnd();
    expect(sim.sinkOutput.totalRecords).toBe(90);
  });

  it('spreads records evenly over the downstream subtasks of a rebalance edge', () => {
    const job = pipeline(
      [
        vertex('source', sequenceSource(1, 1000, 900), 1),
        vertex('map', { type: 'map', fn: 'double' }, 3),
        vertex('sink', { type: 'sink', sink: 'plain' }, 3),
      ],
      [
        ['source', 'map', 'rebalance'],
        ['map', 'sink', 'forward'],
      ],
    );
    const sim = new Simulation(job);
    sim.runToEnd();
    expect(sim.tasks.filter((t) => t.id.vertexId === 'map').map((t) => t.metrics.numRecordsIn)).toEqual([300, 300, 300]);
    expect(sim.sinkOutput.perKey()['key-0']).toEqual({ records: 900, sum: 1800, last: 2 });
  });
});

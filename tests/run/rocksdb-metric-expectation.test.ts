/**
 * The `rocksdb-metric` expectation on real sim runs of the example public/scenarios/rocksdb-memory.yaml
 * (rocksdb backend on wa-sqlite, 1 MB of managed memory): it sums a RocksDB counter over the
 * rocksdb subtasks, sees the write-buffer ratio move the flushes, refuses to hold where no state
 * lives in rocksdb, and is read from a scenario file with each wrong field named.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureLine } from '../../engine/run/expectation-failure.ts';
import { checkExpectations, describeExpectation, type ExpectationResult } from '../../engine/run/expectations.ts';
import { expectationInputs } from '../../engine/run/run-report.ts';
import type { ExpectationSpec } from '../../engine/scenario/scenario-types.ts';
import { parseScenarioText } from '../../engine/scenario/scenario-text.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

type ScenarioFile = Record<string, unknown> & { config: Record<string, unknown>; expectations: unknown[] };

function example(): ScenarioFile {
  const parsed = parseScenarioText(readFileSync('public/scenarios/rocksdb-memory.yaml', 'utf8'), 'yaml');
  if (!parsed.ok) throw new Error('rocksdb-memory.yaml does not parse');
  return parsed.value as ScenarioFile;
}

const runs = new Map<string, Simulation>();

/** The example, with `config` on top of its own, run for its run length (10 s of job time); each run once. */
function runWith(config: Record<string, unknown>): Simulation {
  const key = JSON.stringify(config);
  const cached = runs.get(key);
  if (cached) return cached;
  const file = example();
  const valid = validateScenario({ ...file, config: { ...file.config, ...config } });
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  const sim = new Simulation(valid.scenario, { lsmStorage });
  sim.runUntil(valid.scenario.run.until_ms);
  runs.set(key, sim);
  return sim;
}

function check(sim: Simulation, ...expectations: ExpectationSpec[]): ExpectationResult[] {
  return checkExpectations(expectations, expectationInputs(sim, { duplicates: 0, missing: 0 }));
}

/** The counter as the inspector reads it, per subtask of `vertex`. */
function perSubtask(sim: Simulation, vertex: string, metric: string): number[] {
  return sim.metrics().subtasks.filter((s) => s.vertexId === vertex).map((s) => s.rocksdb?.[metric] ?? 0);
}

const flushes = (e: Partial<Extract<ExpectationSpec, { type: 'rocksdb-metric' }>>): ExpectationSpec => ({ type: 'rocksdb-metric', metric: 'lsm.flush.count', ...e });

describe('the rocksdb-metric expectation', () => {
  it('sums a counter over the subtasks the inspector shows it for, and holds only within its range', () => {
    const sim = runWith({});
    const each = perSubtask(sim, 'count', 'lsm.flush.count');
    expect(each).toHaveLength(2);
    for (const n of each) expect(n).toBeGreaterThan(0);
    const total = each[0]! + each[1]!;
    const [exact, above, below, all] = check(sim, flushes({ vertex: 'count', min: total, max: total }), flushes({ vertex: 'count', min: total + 1 }), flushes({ vertex: 'count', max: total - 1 }), flushes({ min: total, max: total }));
    expect([exact!.held, above!.held, below!.held, all!.held]).toEqual([true, false, false, true]);
    expect(exact!.seen).toBe(String(total));
    expect(exact!.actual).toBe(`lsm.flush.count was ${total} over 2 rocksdb subtasks of count`);
  });

  it('sees a bigger write-buffer share of the same managed memory flush less often, and the smaller block cache miss more', () => {
    const half = runWith({});
    const most = runWith({ 'state.backend.rocksdb.memory.write-buffer-ratio': 0.9 });
    const sum = (sim: Simulation, metric: string) => perSubtask(sim, 'count', metric).reduce((a, b) => a + b, 0);
    expect(sum(most, 'lsm.flush.count')).toBeLessThan(sum(half, 'lsm.flush.count'));
    expect(sum(most, 'rocksdb.block.cache.miss')).toBeGreaterThan(sum(half, 'rocksdb.block.cache.miss'));
    const bound = flushes({ vertex: 'count', max: sum(most, 'lsm.flush.count') });
    expect([check(most, bound)[0]!.held, check(half, bound)[0]!.held]).toEqual([true, false]);
  });

  it('does not hold where no subtask keeps its state in rocksdb, and says so', () => {
    const heap = runWith({ 'state.backend.type': 'hashmap' });
    const sink = runWith({});
    const [onHeap] = check(heap, flushes({ max: 1000 }));
    const [ofSink] = check(sink, flushes({ vertex: 'sink', max: 1000 }));
    expect([onHeap!.held, onHeap!.seen]).toEqual([false, 'no rocksdb subtask']);
    expect([ofSink!.held, ofSink!.seen]).toEqual([false, 'no rocksdb subtask of sink']);
  });

  it('is described, and a failed one reads as expected against seen', () => {
    const sim = runWith({});
    const e = flushes({ vertex: 'count', max: 0 });
    expect(describeExpectation(e)).toBe('lsm.flush.count of count is at most 0');
    expect(describeExpectation(flushes({ min: 1, max: 5 }))).toBe('lsm.flush.count is between 1 and 5');
    const [result] = check(sim, e);
    expect(failureLine(result!)).toBe(`expected lsm.flush.count of count ≤ 0, got ${result!.seen}`);
  });
});

describe('the rocksdb-metric expectation in a scenario file', () => {
  type Problem = { path: string; message: string; suggestion?: string | undefined };
  function read(expectation: Record<string, unknown>): { ok: true; spec: ExpectationSpec } | { ok: false; errors: Problem[] } {
    const file = example();
    const result = validateScenario({ ...file, expectations: [expectation] });
    return result.ok ? { ok: true, spec: result.scenario.expectations[0]! } : { ok: false, errors: result.errors.map((e) => ({ path: e.path, message: e.message, suggestion: e.suggestion })) };
  }

  it('is read with its metric, vertex and bounds', () => {
    expect(read({ type: 'rocksdb-metric', metric: 'lsm.write-stall.count', vertex: 'count', min: 0, max: 3 })).toEqual({
      ok: true,
      spec: { type: 'rocksdb-metric', metric: 'lsm.write-stall.count', vertex: 'count', min: 0, max: 3 },
    });
    expect(read({ type: 'rocksdb-metric', metric: 'rocksdb.block.cache.miss', min: 10 })).toEqual({ ok: true, spec: { type: 'rocksdb-metric', metric: 'rocksdb.block.cache.miss', min: 10 } });
  });

  it.each([
    [{ type: 'rocksdb-metric', metric: 'lsm.flush.counts', min: 1 }, 'expectations[0].metric', 'unknown RocksDB metric', 'lsm.flush.count'],
    [{ type: 'rocksdb-metric', metric: 'lsm.flush.count' }, 'expectations[0].max', 'needs a min, a max or both', undefined],
    [{ type: 'rocksdb-metric', metric: 'lsm.flush.count', vertex: 'counts', min: 1 }, 'expectations[0].vertex', 'no vertex has the id', 'count'],
    [{ type: 'rocksdb-metric', metric: 'lsm.flush.count', min: -1 }, 'expectations[0].min', 'out of range', undefined],
    [{ type: 'rocksdb-metric', metric: 'lsm.flush.count', max: 'many' }, 'expectations[0].max', 'expected an integer', undefined],
  ])('refuses %j, naming %s', (expectation, path, problem, suggestion) => {
    const result = read(expectation);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const found = result.errors.find((e) => e.path === path);
    expect(found, JSON.stringify(result.errors)).toBeDefined();
    expect(found!.message).toContain(problem);
    expect(found!.suggestion).toBe(suggestion);
  });
});

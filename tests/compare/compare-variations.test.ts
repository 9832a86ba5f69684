/**
 * Compare mode's five variations on real sim runs: each scenario is run twice with the same seed,
 * once per side, and the differences compare mode calls out go the way Flink's documentation
 * says they go (incremental uploads less, unaligned checkpoints do not align but persist in-flight
 * data, task-local recovery restores from local and faster, min-pause leaves gaps, heap timers
 * lengthen the synchronous phase).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareDifferences, type CompareDifference } from '../../engine/compare/compare-differences.ts';
import type { CompareFigure } from '../../engine/compare/compare-figures.ts';
import { runComparison, type ComparisonRun } from '../../engine/compare/compare-runs.ts';
import { compareScenarios, COMPARE_VARIATIONS } from '../../engine/compare/compare-variation.ts';
import { findOption, readConfig } from '../../engine/config/flink-options.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

function scenarioOf(file: string): Scenario {
  const text = parseScenarioText(readFileSync(file, 'utf8'));
  if (!text.ok) throw new Error(`${file}: not YAML`);
  const valid = validateScenario(text.value);
  if (!valid.ok) throw new Error(`${file}: ${JSON.stringify(valid.errors)}`);
  return valid.scenario;
}

function differenceOf(run: ComparisonRun, code: CompareFigure): CompareDifference {
  const found = run.differences.find((d) => d.code === code);
  if (!found) throw new Error(`no ${code} difference called out; got ${JSON.stringify(run.differences)}`);
  return found;
}

/** Two sim runs take seconds of CPU each; the machine is shared. */
const RUN_TIMEOUT_MS = 180_000;

describe('compare mode variations on real sim runs', () => {
  it('incremental checkpoints upload less than full ones of the same RocksDB state', () => {
    const run = runComparison(scenarioOf('public/lessons/full-vs-incremental.yaml'), 'full-vs-incremental', { lsmStorage });
    const size = differenceOf(run, 'checkpointed-size-p50');
    expect(size.b).toBeLessThan(size.a);
    expect(run.statistics.a.checkpoints.counts.completed).toBeGreaterThan(3);
  }, RUN_TIMEOUT_MS);

  it('unaligned checkpoints under backpressure do not align, start sooner, end sooner and persist in-flight data', () => {
    const run = runComparison(scenarioOf('public/lessons/backpressure-and-unaligned.yaml'), 'aligned-vs-unaligned', { lsmStorage, until: 8000 });
    const persisted = differenceOf(run, 'persisted-data-p50');
    expect(persisted.a).toBe(0);
    expect(persisted.b).toBeGreaterThan(0);
    const endToEnd = differenceOf(run, 'end-to-end-p50');
    expect(endToEnd.b).toBeLessThan(endToEnd.a);
    const alignment = differenceOf(run, 'alignment-p50');
    expect([alignment.a > 0, alignment.b]).toEqual([true, 0]);
    const startDelay = differenceOf(run, 'start-delay-p50');
    expect(startDelay.b).toBeLessThan(startDelay.a);
  }, RUN_TIMEOUT_MS);

  it('task-local recovery restores subtasks from their local copy, reading less from remote storage and faster', () => {
    const run = runComparison(scenarioOf('public/scenarios/local-recovery.yaml'), 'local-recovery', { lsmStorage });
    const local = differenceOf(run, 'restored-from-local');
    expect(local.a).toBe(0);
    expect(local.b).toBeGreaterThan(0);
    const remote = differenceOf(run, 'restored-remote-bytes');
    expect(remote.b).toBeLessThan(remote.a);
    const duration = differenceOf(run, 'restore-duration-p50');
    expect(duration.b).toBeLessThan(duration.a);
  }, RUN_TIMEOUT_MS);

  it('min-pause leaves a gap between checkpoints that an always-checkpointing job does not have', () => {
    const run = runComparison(scenarioOf('public/scenarios/always-checkpointing.yaml'), 'min-pause', { lsmStorage, until: 12_000 });
    const pause = differenceOf(run, 'checkpoint-pause-p50');
    expect(pause.b).toBeGreaterThan(pause.a);
    expect(pause.b).toBeGreaterThanOrEqual(500);
  }, RUN_TIMEOUT_MS);

  it('heap timers make the synchronous phase longer than timers in RocksDB', () => {
    const run = runComparison(scenarioOf('public/scenarios/heap-timers.yaml'), 'heap-vs-rocksdb-timers', { lsmStorage });
    const sync = differenceOf(run, 'sync-duration-p50');
    expect(sync.a).toBeGreaterThan(sync.b);
  }, RUN_TIMEOUT_MS);

  it('calls out the largest relative difference first', () => {
    const run = runComparison(scenarioOf('public/lessons/full-vs-incremental.yaml'), 'full-vs-incremental', { lsmStorage });
    const relatives = run.differences.map((d) => d.relative);
    expect(relatives.length).toBeGreaterThan(0);
    expect(relatives).toEqual([...relatives].sort((x, y) => y - x));
  }, RUN_TIMEOUT_MS);

  it('calls out nothing when a run is compared with itself', () => {
    const run = runComparison(scenarioOf('public/lessons/full-vs-incremental.yaml'), 'full-vs-incremental', { lsmStorage, until: 6000 });
    expect(compareDifferences(run.statistics.a, run.statistics.a)).toEqual([]);
  }, RUN_TIMEOUT_MS);
});

describe('compare mode variations as configuration', () => {
  const base = scenarioOf('public/scenarios/always-checkpointing.yaml');

  it.each(COMPARE_VARIATIONS)('%s gives two scenarios that differ only in Flink options they both set', (variation) => {
    const result = compareScenarios(base, variation);
    if (!result.ok) throw new Error(result.message);
    const { a, b } = result.value;
    expect({ ...a, config: {} }).toEqual({ ...b, config: {} });
    expect(a.config).not.toEqual(b.config);
    const { overrides } = result.value;
    expect(Object.keys(overrides.a).sort()).toEqual(Object.keys(overrides.b).sort());
    for (const key of Object.keys(overrides.a)) expect(findOption(key), key).toBeDefined();
  });

  it('sets both sides of full vs incremental on the RocksDB backend, the only one that snapshots incrementally', () => {
    const result = compareScenarios(base, 'full-vs-incremental');
    if (!result.ok) throw new Error(result.message);
    expect(readConfig(result.value.a.config)).toMatchObject({ stateBackend: 'rocksdb', incremental: false });
    expect(readConfig(result.value.b.config)).toMatchObject({ stateBackend: 'rocksdb', incremental: true });
  });

  it('gives the min-pause side half the interval when the scenario sets no min-pause', () => {
    const result = compareScenarios(base, 'min-pause');
    if (!result.ok) throw new Error(result.message);
    expect(result.value.a.config['execution.checkpointing.min-pause']).toBe(0);
    expect(result.value.b.config['execution.checkpointing.min-pause']).toBe(500);
  });

  it('refuses an unknown variation, naming the field and the allowed variations', () => {
    const result = compareScenarios(base, 'fast-vs-slow');
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/^variation: "fast-vs-slow" is not a compare variation; allowed: full-vs-incremental, aligned-vs-unaligned/) });
  });

  it('refuses a scenario without periodic checkpoints, naming the interval option', () => {
    const { 'execution.checkpointing.interval': _, ...config } = base.config;
    const result = compareScenarios({ ...base, config }, 'min-pause');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain('config.execution.checkpointing.interval');
  });
});

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { SimDriver } from '../../web/playground/drivers/sim-driver.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

function load(file: string): Scenario {
  const parsed = parseScenarioText(readFileSync(`public/scenarios/${file}`, 'utf8'));
  if (!parsed.ok) throw new Error(`${file} does not parse`);
  const valid = validateScenario(parsed.value);
  if (!valid.ok) throw new Error(`${file} is invalid`);
  return valid.scenario;
}

/** The counter summed over every subtask of the run, as the subtasks report it now. */
function total(driver: SimDriver, property: string): number {
  return driver.metrics().subtasks.reduce((n, s) => n + (s.rocksdb?.[property] ?? 0), 0);
}

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

describe('the RocksDB charts’ history (flushes, compactions, write stalls and block cache misses per second)', () => {
  it('adds up, second by second, to the counters the subtasks report at the end', () => {
    const driver = new SimDriver(load('rocksdb-memory.yaml'), { lsmStorage });
    // Five simulated seconds: five samples, with the first compaction in the fifth (the scenario's
    // 1 MB of managed memory flushes every second from the second on); ten took 75 s in CI.
    driver.advanceTo(5_000);
    const h = driver.history;
    expect(h.hasRocksDb).toBe(true);
    expect(h.seconds.time.length).toBeGreaterThanOrEqual(5);
    expect(h.seconds.rocksdb.flushes).toHaveLength(h.seconds.time.length);
    expect(h.seconds.rocksdb.flushes.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    // Samples are one simulated second apart: the per-second figures sum to the totals.
    const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0));
    expect(sum(h.seconds.rocksdb.flushes)).toBe(total(driver, 'lsm.flush.count'));
    expect(sum(h.seconds.rocksdb.compactions)).toBe(total(driver, 'lsm.compaction.count'));
    expect(total(driver, 'lsm.flush.count')).toBeGreaterThan(0);
    expect(total(driver, 'lsm.compaction.count')).toBeGreaterThan(0);
    expect(h.seconds.rocksdb.blockCacheMisses).toHaveLength(h.seconds.time.length);
    expect(sum(h.seconds.rocksdb.blockCacheMisses)).toBe(total(driver, 'rocksdb.block.cache.miss'));
    expect(total(driver, 'rocksdb.block.cache.miss')).toBeGreaterThan(0);
  }, 180_000);

  it('keeps the flushes of backends a restore replaced, and counts the new backends from zero', () => {
    const driver = new SimDriver(load('incremental-checkpoints.yaml'), { lsmStorage });
    driver.advanceTo(10_000); // tm-0 is killed at 6.5 s: its subtasks restart with new backends
    expect(driver.restores.length).toBe(1);
    const h = driver.history;
    const flushed = h.seconds.rocksdb.flushes.reduce((a, b) => a + b, 0);
    expect(h.seconds.rocksdb.flushes.every((n) => n >= 0)).toBe(true);
    // The replaced backends' flushes stay in the history; the subtasks now report only their new backends'.
    expect(Math.round(flushed)).toBeGreaterThan(total(driver, 'lsm.flush.count'));
  });

  it('is not shown for the hashmap backend', () => {
    const driver = new SimDriver(load('local-recovery.yaml'));
    driver.advanceTo(3000);
    expect(driver.history.hasRocksDb).toBe(false);
  });
});

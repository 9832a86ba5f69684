/**
 * RocksDB write stalls in the sim: the background threads (state.backend.rocksdb.thread.num) flush
 * at the local disk's cost, a write that finds the write buffers used up waits for its column
 * family's flush, and the wait shows as rocksdb.stall.micros, a busy task and a slower job. The
 * runs use the example public/scenarios/rocksdb-memory.yaml on a slow local disk.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../engine/scenario/scenario-text.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { RocksDbBackgroundThreads } from '../../engine/state/lsm/rocksdb-background-threads.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { TINY_LSM, waSqliteForThisFile } from '../state/state-backend-factories.ts';

const db = waSqliteForThisFile();
let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

/** A deferred backend with 1 KB write buffers; writes of 24 bytes each (TINY_LSM's estimate). */
function deferredBackend(writeBufferCount: number): LsmKeyedStateBackend {
  return new LsmKeyedStateBackend({ start: 0, end: 127 }, db.store(), { ...TINY_LSM, writeBufferSizeBytes: 1024, writeBufferCount, level0CompactionTrigger: 1000, background: 'deferred' });
}

function write(b: LsmKeyedStateBackend, from: number, to: number, state = 'count'): void {
  for (let i = from; i < to; i++) b.put(state, i % 128, `key-${String(i).padStart(5, '0')}`, i);
}

/** Every flush takes 100 ms, whatever its size. */
const FLUSH_MS = () => 100;

describe('rocksdb background threads', () => {
  it('hand a full memtable to a thread, and turn it into a level-0 run when the flush job ends', () => {
    const b = deferredBackend(2);
    const threads = new RocksDbBackgroundThreads(1, b, FLUSH_MS);
    write(b, 0, 50);
    const { stallMs, started } = threads.afterPoll(0);
    expect(stallMs).toBe(0);
    expect(started).toEqual([{ columnFamily: 'count', job: 1, end: 100 }]);
    expect(b.metrics()).toMatchObject({ numImmutableMemTable: 1, flushCount: 0 });
    expect(threads.flushDone(started[0]!, 100)).toEqual([]);
    expect(b.metrics()).toMatchObject({ numImmutableMemTable: 0, flushCount: 1 });
  });

  it('make a write that finds the write buffers used up wait until its column family\'s flush ends', () => {
    const b = deferredBackend(2);
    const threads = new RocksDbBackgroundThreads(1, b, FLUSH_MS);
    write(b, 0, 50);
    const [job] = threads.afterPoll(0).started;
    write(b, 50, 100);
    expect(threads.afterPoll(30).stallMs).toBe(70);
    expect(b.metrics()).toMatchObject({ writeStallCount: 1, writeStallMicros: 70_000 });
    // the stalled write's flush is done: the job's end changes nothing more
    const flushes = b.metrics().flushCount;
    threads.flushDone(job!, 100);
    expect(b.metrics().flushCount).toBe(flushes);
  });

  it('run two column families\' flushes one after the other on one thread, side by side on two', () => {
    const ends = (threadNum: number) => {
      const b = deferredBackend(3);
      write(b, 0, 50, 'count');
      write(b, 0, 50, 'sum');
      return new RocksDbBackgroundThreads(threadNum, b, FLUSH_MS).afterPoll(0).started.map((j) => j.end);
    };
    expect(ends(1)).toEqual([100, 200]);
    expect(ends(2)).toEqual([100, 100]);
  });
});

type ScenarioFile = Record<string, unknown> & { config: Record<string, unknown> };

/** The example on a slow local disk (100 ms and 1 MB/s per write), with `config` on top of its own. */
function run(config: Record<string, unknown>, untilMs?: number): Simulation {
  const parsed = parseScenarioText(readFileSync('public/scenarios/rocksdb-memory.yaml', 'utf8'), 'yaml');
  if (!parsed.ok) throw new Error('rocksdb-memory.yaml does not parse');
  const file = parsed.value as ScenarioFile;
  const costs = { local_latency_ms: 100, local_bandwidth_mb_per_s: 1 };
  const valid = validateScenario({ ...file, config: { ...file.config, 'state.backend.rocksdb.writebuffer.size': '32 kb', ...config }, costs });
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  const sim = new Simulation(valid.scenario, { lsmStorage });
  sim.runUntil(untilMs ?? valid.scenario.run.until_ms);
  return sim;
}

function countSubtasks(sim: Simulation, metric: string): number {
  return sim.metrics().subtasks.filter((s) => s.vertexId === 'count').reduce((n, s) => n + (s.rocksdb?.[metric] ?? 0), 0);
}

describe('write stalls in the sim', () => {
  const runs = new Map<string, Simulation>();
  const cached = (name: string, config: Record<string, unknown>) => {
    if (!runs.has(name)) runs.set(name, run(config));
    return runs.get(name)!;
  };
  const inline = () => cached('inline', {});
  const stalled = () => cached('stalled', { 'state.backend.rocksdb.thread.num': 1 });
  const moreBuffers = () => cached('more buffers', { 'state.backend.rocksdb.thread.num': 1, 'state.backend.rocksdb.writebuffer.count': 4 });

  it('appear when flushes on one thread are slower than the memtables fill, and the task waits for them', () => {
    const sim = stalled();
    expect(countSubtasks(sim, 'lsm.write-stall.count')).toBeGreaterThan(20);
    expect(countSubtasks(sim, 'rocksdb.stall.micros')).toBeGreaterThan(1_000_000);
  });

  it('keep the count subtasks busy waiting: their busy time per second is many times that with inline flushes', () => {
    const busy = (sim: Simulation) => sim.metrics().vertices['count']!.busyTimeMsPerSecond;
    expect(busy(stalled())).toBeGreaterThan(5 * Math.max(1, busy(inline())));
  });

  it('vanish with more write buffers', () => {
    expect(countSubtasks(moreBuffers(), 'lsm.write-stall.count')).toBe(0);
    expect(countSubtasks(moreBuffers(), 'rocksdb.stall.micros')).toBe(0);
  });

  it('take no time when the scenario leaves state.backend.rocksdb.thread.num unset: flushes stay inline', () => {
    expect(countSubtasks(inline(), 'lsm.write-stall.count')).toBe(0);
    expect(countSubtasks(inline(), 'rocksdb.stall.micros')).toBe(0);
    expect(countSubtasks(inline(), 'lsm.flush.count')).toBeGreaterThan(20);
  });
});

describe('managed memory of a TaskManager with two slots (rocksdb-memory.yaml: 1 MB, slots_per_task_manager 2)', () => {
  it('is split evenly: each slot’s shared block cache holds (3 − 0.5) / 3 of half a megabyte, as taskmanager.numberOfTaskSlots 2 gives', () => {
    const capacities = (sim: Simulation) => sim.metrics().subtasks.filter((s) => s.vertexId === 'count').map((s) => s.rocksdb!['rocksdb.block-cache-capacity']);
    const halfMiB = 512 * 1024;
    const implied = capacities(run({}, 1000));
    expect(implied).toEqual([Math.floor((2.5 * halfMiB) / 3), Math.floor((2.5 * halfMiB) / 3)]);
    expect(capacities(run({ 'taskmanager.numberOfTaskSlots': 2 }, 1000))).toEqual(implied);
  });
});

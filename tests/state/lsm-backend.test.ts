import { describe, expect, it } from 'vitest';
import { readConfig } from '../../engine/config/flink-options.ts';
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import { rocksDbProperties } from '../../engine/state/lsm/lsm-metrics.ts';
import { lsmOptionsFromConfig, type LsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import { LsmSharedResources, rocksDbMemoryBudgetPerSlot } from '../../engine/state/lsm/lsm-shared-resources.ts';
import { TINY_LSM, waSqliteForThisFile } from './state-backend-factories.ts';

const RANGE = { start: 0, end: 127 };
const db = waSqliteForThisFile();

function backend(options: Partial<LsmOptions> = {}): LsmKeyedStateBackend {
  return new LsmKeyedStateBackend(RANGE, db.store(), { ...TINY_LSM, ...options });
}

/** Writes keys [from, to) with value `v`; 24 bytes per entry with the shared estimate. */
function write(b: LsmKeyedStateBackend, from: number, to: number, v: number, state = 'count'): void {
  for (let i = from; i < to; i++) b.put(state, i % 128, `key-${String(i).padStart(5, '0')}`, v);
}

function liveRunIds(b: LsmKeyedStateBackend): number[] {
  return b.runs().map((r) => r.id).sort((x, y) => x - y);
}

describe('memtable and flush', () => {
  it('keeps writes in the memtable until it reaches the write buffer size, then flushes a level-0 run', () => {
    const b = backend({ writeBufferSizeBytes: 4096, level0CompactionTrigger: 100 });
    write(b, 0, 100, 1); // 100 × 24 bytes = 2400 < 4096
    expect(b.metrics()).toMatchObject({ flushCount: 0, liveSstFiles: 0, numEntriesActiveMemTable: 100 });
    write(b, 100, 200, 1);
    const m = b.metrics();
    expect(m.flushCount).toBe(1);
    expect(m.levels[0]!.files).toBe(1);
    expect(m.levels[0]!.entries + m.numEntriesActiveMemTable).toBe(200);
    expect(m.flushBytesWritten).toBe(m.liveSstFilesSize);
  });

  it('counts every write against the memtable, so overwriting one hot key still flushes', () => {
    const b = backend({ writeBufferSizeBytes: 4096 });
    for (let i = 0; i < 1000; i++) b.put('count', 1, 'hot', i);
    const m = b.metrics();
    expect(m.flushCount).toBeGreaterThan(3);
    expect(b.entryCount()).toBe(1);
    expect(b.get('count', 1, 'hot')).toBe(999);
  });

  it('gives every declared state its own memtable and runs (a column family each)', () => {
    const b = backend({ writeBufferSizeBytes: 4096, level0CompactionTrigger: 100 });
    write(b, 0, 200, 1, 'count');
    write(b, 0, 50, 1, 'window');
    expect(b.columnFamilies()).toEqual(['count', 'window']);
    expect(b.runs().every((r) => r.columnFamily === 'count')).toBe(true);
    b.flush();
    expect(new Set(b.runs().map((r) => r.columnFamily))).toEqual(new Set(['count', 'window']));
  });
});

describe('level compaction', () => {
  it('merges level 0 into level 1 when level 0 holds 4 runs, counting bytes read and written', () => {
    const b = backend({ writeBufferSizeBytes: 1 << 20, targetFileSizeBytes: 1 << 20, maxBytesForLevelBase: 1 << 30 });
    const sizes: number[] = [];
    for (let round = 0; round < 3; round++) {
      write(b, round * 100, round * 100 + 100, round);
      b.flush();
      sizes.push(b.runs().at(-1)!.sizeBytes);
    }
    expect(b.metrics()).toMatchObject({ compactionCount: 0 });
    expect(b.metrics().levels[0]!.files).toBe(3);
    write(b, 300, 400, 3);
    b.flush();
    const m = b.metrics();
    expect(m.compactionCount).toBe(1);
    expect(m.levels[0]!.files).toBe(0);
    expect(m.levels[1]!.files).toBe(1);
    expect(m.levels[1]!.entries).toBe(400);
    expect(m.compactionBytesRead).toBe(m.flushBytesWritten);
    expect(m.compactionBytesWritten).toBe(m.levels[1]!.bytes);
    expect(b.storage.listRuns()).toEqual(liveRunIds(b));
  });

  it('drops older versions of a key and keeps the newest', () => {
    const b = backend({ writeBufferSizeBytes: 1 << 20, maxBytesForLevelBase: 1 << 30, targetFileSizeBytes: 1 << 20 });
    for (let round = 0; round < 4; round++) {
      write(b, 0, 100, round);
      b.flush();
    }
    const m = b.metrics();
    expect(m.compactionCount).toBe(1);
    expect(m.compactionKeysDroppedNewer).toBe(300);
    expect(m.levels[1]!.entries).toBe(100);
    expect(b.get('count', 5, 'key-00005')).toBe(3);
  });

  it('drops tombstones when compacting into the bottom level', () => {
    const b = backend({ writeBufferSizeBytes: 1 << 20, maxBytesForLevelBase: 1 << 30, targetFileSizeBytes: 1 << 20 });
    write(b, 0, 100, 1);
    b.flush();
    for (let i = 0; i < 50; i++) b.delete('count', i % 128, `key-${String(i).padStart(5, '0')}`);
    b.flush();
    write(b, 100, 110, 1);
    b.flush();
    write(b, 110, 120, 1);
    b.flush(); // 4th L0 run → L0 → L1, and nothing lies below L1
    const m = b.metrics();
    expect(m.compactionCount).toBe(1);
    expect(m.compactionTombstonesDropped).toBe(50);
    expect(m.compactionKeysDroppedNewer).toBe(50);
    expect(b.runs().reduce((n, r) => n + r.tombstoneCount, 0)).toBe(0);
    expect(m.levels[1]!.entries).toBe(70);
    expect(b.entryCount()).toBe(70);
  });

  it('keeps tombstones while a deeper level may still hold the key', () => {
    const b = backend({
      writeBufferSizeBytes: 1 << 20,
      targetFileSizeBytes: 1 << 20,
      maxBytesForLevelBase: 3000,
      levelSizeMultiplier: 100,
    });
    write(b, 0, 200, 1); // 4800 bytes: more than L1's 3000
    b.flush();
    // push L0 → L1 → L2 so the live data sits in level 2
    for (let r = 0; r < 4; r++) {
      write(b, 1000 + r, 1001 + r, 1);
      b.flush();
    }
    expect(b.metrics().levels[2]!.files).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) b.delete('count', i % 128, `key-${String(i).padStart(5, '0')}`);
    b.flush();
    for (let r = 0; r < 3; r++) {
      write(b, 2000 + r, 2001 + r, 1);
      b.flush();
    }
    const m = b.metrics();
    // the deletes reached level 1 but the deleted keys still live in level 2: tombstones stay
    expect(m.levels[1]!.files).toBeGreaterThan(0);
    expect(b.runs().filter((r) => r.level === 1).reduce((n, r) => n + r.tombstoneCount, 0)).toBe(20);
    expect(b.get('count', 3, 'key-00003')).toBeUndefined();
    expect(b.entryCount()).toBe(200 - 20 + 7);
  });

  it('pushes a level over its target size down, moving runs without rewriting when nothing overlaps', () => {
    const b = backend({ writeBufferSizeBytes: 1200, targetFileSizeBytes: 1200, maxBytesForLevelBase: 2400, levelSizeMultiplier: 4 });
    // ascending keys: flushed runs never overlap, so level-n runs move down trivially
    write(b, 0, 2000, 1);
    b.flush();
    const m = b.metrics();
    expect(m.trivialMoveCount).toBeGreaterThan(0);
    expect(m.levels[2]!.files + m.levels[3]!.files).toBeGreaterThan(0);
    for (let n = 1; n < 3; n++) expect(m.levels[n]!.bytes).toBeLessThanOrEqual(2400 * 4 ** (n - 1) + 1200);
    expect(b.entryCount()).toBe(2000);
    for (let i = 0; i < 2000; i += 97) expect(b.get('count', i % 128, `key-${String(i).padStart(5, '0')}`)).toBe(1);
    expect(b.storage.listRuns()).toEqual(liveRunIds(b));
    // within a level ≥ 1 key ranges never overlap
    for (let n = 1; n < 4; n++) {
      const runs = b.runs().filter((r) => r.level === n);
      for (let i = 1; i < runs.length; i++) {
        const prev = runs[i - 1]!;
        const cur = runs[i]!;
        expect(prev.maxKeyGroup < cur.minKeyGroup || (prev.maxKeyGroup === cur.minKeyGroup && prev.maxKey < cur.minKey)).toBe(true);
      }
    }
  });
});

describe('block cache', () => {
  it('misses on the first read of a block and hits on the next', () => {
    const b = backend({ writeBufferSizeBytes: 1 << 20, blockCacheSizeBytes: 1 << 20 });
    write(b, 0, 300, 7);
    b.flush();
    expect(b.get('count', 5, 'key-00005')).toBe(7);
    expect(b.metrics()).toMatchObject({ blockCacheHit: 0, blockCacheMiss: 1 });
    expect(b.get('count', 5, 'key-00005')).toBe(7);
    expect(b.metrics()).toMatchObject({ blockCacheHit: 1, blockCacheMiss: 1, blockCacheHitRate: 0.5 });
    expect(b.metrics().blockCacheUsage).toBeGreaterThan(0);
  });

  it('serves memtable reads without touching the cache', () => {
    const b = backend({ writeBufferSizeBytes: 1 << 20 });
    write(b, 0, 100, 1);
    b.get('count', 1, 'key-00001');
    expect(b.metrics()).toMatchObject({ blockCacheHit: 0, blockCacheMiss: 0 });
  });

  it('hits more often with a bigger cache', () => {
    const rate = (cacheBytes: number) => {
      const b = backend({ writeBufferSizeBytes: 1 << 20, blockSizeBytes: 512, blockCacheSizeBytes: cacheBytes });
      write(b, 0, 3000, 1);
      b.flush();
      for (let r = 0; r < 3; r++) for (let i = 0; i < 3000; i += 7) b.get('count', i % 128, `key-${String(i).padStart(5, '0')}`);
      return b.metrics();
    };
    const small = rate(2048);
    const big = rate(1 << 20);
    expect(big.blockCacheHitRate).toBeGreaterThan(0.6);
    expect(small.blockCacheHitRate).toBeLessThan(big.blockCacheHitRate);
    expect(small.blockCacheUsage).toBeLessThanOrEqual(2048);
  });
});

describe('write stalls', () => {
  const stalls = (options: Partial<LsmOptions>, background: boolean) => {
    const b = backend({ writeBufferSizeBytes: 1024, level0CompactionTrigger: 1000, ...options });
    for (let i = 0; i < 2000; i++) {
      b.put('count', i % 128, `key-${i}`, i);
      if (background) b.runBackgroundJobs();
    }
    return b.metrics();
  };

  it('stall writes when the background never flushes and the write buffers are used up', () => {
    const m = stalls({ background: 'deferred', writeBufferCount: 2 }, false);
    expect(m.writeStallCount).toBeGreaterThan(10);
    expect(m.writeStallFlushBytes).toBeGreaterThan(0);
    expect(m.numImmutableMemTable).toBeLessThanOrEqual(1);
  });

  it('do not happen when background flushes keep up', () => {
    expect(stalls({ background: 'deferred', writeBufferCount: 2 }, true).writeStallCount).toBe(0);
    expect(stalls({ background: 'inline', writeBufferCount: 2 }, false).writeStallCount).toBe(0);
  });

  it('happen less with more write buffers', () => {
    const two = stalls({ background: 'deferred', writeBufferCount: 2 }, false).writeStallCount;
    const four = stalls({ background: 'deferred', writeBufferCount: 4 }, false).writeStallCount;
    expect(four).toBeLessThan(two);
  });

  it('happen on every flush with a single write buffer', () => {
    const m = stalls({ background: 'inline', writeBufferCount: 1 }, false);
    expect(m.writeStallCount).toBe(m.flushCount);
  });

  it('leave immutables waiting for the background in deferred mode', () => {
    const b = backend({ writeBufferSizeBytes: 1024, background: 'deferred', writeBufferCount: 3 });
    write(b, 0, 60, 1);
    expect(b.metrics()).toMatchObject({ numImmutableMemTable: 1, memTableFlushPending: 1, flushCount: 0 });
    expect(b.get('count', 5, 'key-00005')).toBe(1);
    expect(b.runBackgroundJobs()).toBe(1);
    expect(b.metrics()).toMatchObject({ numImmutableMemTable: 0, flushCount: 1 });
  });

  it('name the column families whose immutables wait, with the bytes their flush job writes, and flush one of them', () => {
    const b = backend({ writeBufferSizeBytes: 1024, background: 'deferred', writeBufferCount: 3, level0CompactionTrigger: 100 });
    write(b, 0, 60, 1, 'count');
    write(b, 0, 60, 1, 'sum');
    const pending = b.pendingFlushes();
    expect(pending.map((p) => p.columnFamily)).toEqual(['count', 'sum']);
    for (const p of pending) expect(p.bytes).toBeGreaterThanOrEqual(1024);
    expect(b.flushColumnFamily('sum')).toBe(true);
    expect(b.pendingFlushes().map((p) => p.columnFamily)).toEqual(['count']);
    expect(b.flushColumnFamily('sum')).toBe(false);
    expect(b.metrics()).toMatchObject({ flushCount: 1, numImmutableMemTable: 1 });
  });

  it('hand each stall in deferred mode to the driver, with the bytes it waited for, once', () => {
    const b = backend({ writeBufferSizeBytes: 1024, background: 'deferred', writeBufferCount: 2, level0CompactionTrigger: 1000 });
    write(b, 0, 200, 1);
    const stalls = b.drainWriteStalls();
    expect(stalls.length).toBe(b.metrics().writeStallCount);
    expect(stalls.length).toBeGreaterThan(0);
    expect(stalls.every((s) => s.columnFamily === 'count' && s.bytes >= 1024)).toBe(true);
    expect(stalls.reduce((n, s) => n + s.bytes, 0)).toBe(b.metrics().writeStallFlushBytes);
    expect(b.drainWriteStalls()).toEqual([]);
  });

  it('leave nothing for a driver to charge in inline mode', () => {
    const b = backend({ writeBufferSizeBytes: 1024, background: 'inline', writeBufferCount: 1, level0CompactionTrigger: 1000 });
    write(b, 0, 200, 1);
    expect(b.metrics().writeStallCount).toBeGreaterThan(0);
    expect(b.drainWriteStalls()).toEqual([]);
  });

  it('count the time stalled writes waited as rocksdb.stall.micros', () => {
    const b = backend({ background: 'deferred' });
    expect(rocksDbProperties(b.metrics())['rocksdb.stall.micros']).toBe(0);
    b.recordWriteStallMicros(1500);
    b.recordWriteStallMicros(250);
    expect(rocksDbProperties(b.metrics())['rocksdb.stall.micros']).toBe(1750);
  });
});

describe('memory configuration', () => {
  it('sizes the shared cache and write buffer manager as Flink does', () => {
    const shared = new LsmSharedResources(300 * 1024 * 1024, 0.5);
    expect(shared.blockCache.capacityBytes).toBe(Math.floor((2.5 * 300 * 1024 * 1024) / 3));
    expect(shared.writeBufferManager.bufferSizeBytes).toBe(100 * 1024 * 1024);
  });

  it('splits managed memory per slot, and lets a fixed per-slot size win', () => {
    const managed = readConfig({ 'taskmanager.memory.managed.size': '512 mb', 'taskmanager.numberOfTaskSlots': 4 });
    expect(rocksDbMemoryBudgetPerSlot(managed)).toBe(128 * 1024 * 1024);
    const byFraction = readConfig({ 'taskmanager.numberOfTaskSlots': 2 });
    expect(rocksDbMemoryBudgetPerSlot(byFraction, 1000)).toBe(200);
    const fixed = readConfig({ 'state.backend.rocksdb.memory.fixed-per-slot': '64 mb', 'state.backend.rocksdb.memory.managed': false });
    expect(rocksDbMemoryBudgetPerSlot(fixed)).toBe(64 * 1024 * 1024);
    expect(rocksDbMemoryBudgetPerSlot(readConfig({ 'state.backend.rocksdb.memory.managed': false }))).toBeUndefined();
  });

  it('reads write buffer, cache and timer options from the Flink configuration', () => {
    const config = readConfig({
      'state.backend.rocksdb.writebuffer.size': '2 mb',
      'state.backend.rocksdb.writebuffer.count': 3,
      'state.backend.rocksdb.block.cache-size': '16 mb',
      'state.backend.rocksdb.timer-service.factory': 'HEAP',
    });
    expect(lsmOptionsFromConfig(config, { name: 'op-1' })).toMatchObject({
      name: 'op-1',
      writeBufferSizeBytes: 2 * 1024 * 1024,
      writeBufferCount: 3,
      blockCacheSizeBytes: 16 * 1024 * 1024,
      timerService: 'HEAP',
      maxBytesForLevelBase: 8 * 1024 * 1024,
      targetFileSizeBytes: 2 * 1024 * 1024,
    });
  });

  it('flushes before a memtable is full once the slot’s write buffer manager is over its limit', () => {
    // budget 6 KiB, ratio 0.5: write buffer manager 2 KiB, so 7/8 · 2 KiB of memtables triggers a flush
    const shared = new LsmSharedResources(6 * 1024, 0.5);
    const b = backend({ writeBufferSizeBytes: 1 << 20, sharedResources: shared, level0CompactionTrigger: 1000 });
    write(b, 0, 200, 1);
    const m = b.metrics();
    expect(m.flushCount).toBeGreaterThan(1);
    expect(m.managedMemory).toBe(true);
    expect(m.curSizeAllMemTables).toBeLessThanOrEqual(2048);
    expect(m.writeBufferManagerUsage).toBe(m.curSizeAllMemTables);
    // memtables are charged to the shared cache
    expect(shared.blockCache.reservedBytes).toBe(m.curSizeAllMemTables);
    expect(m.blockCacheCapacity).toBe(shared.blockCache.capacityBytes);
  });

  it('shares one budget between the backends of a slot', () => {
    const shared = new LsmSharedResources(12 * 1024, 0.5);
    const a = backend({ writeBufferSizeBytes: 1 << 20, sharedResources: shared, name: 'a' });
    const c = backend({ writeBufferSizeBytes: 1 << 20, sharedResources: shared, name: 'c' });
    write(a, 0, 100, 1);
    write(c, 0, 100, 1);
    expect(shared.writeBufferManager.memoryUsage).toBe(a.metrics().curSizeAllMemTables + c.metrics().curSizeAllMemTables);
    expect(shared.writeBufferManager.memoryUsage).toBeLessThanOrEqual(shared.writeBufferManager.bufferSizeBytes * 1.5);
  });

  it('gives each column family its own write buffers and cache without managed memory', () => {
    const b = backend({ writeBufferSizeBytes: 1 << 20, blockCacheSizeBytes: 4096 });
    write(b, 0, 10, 1, 'a');
    write(b, 0, 10, 1, 'b');
    write(b, 0, 10, 1, 'c');
    b.flush();
    expect(b.metrics()).toMatchObject({ managedMemory: false, blockCacheCapacity: 3 * 4096 });
  });
});

describe('timer service factory', () => {
  it('ROCKSDB keeps timers in the tree like any state', () => {
    const b = backend({ timerService: 'ROCKSDB' });
    write(b, 0, 300, 1, '_timer_service');
    b.flush();
    expect(b.columnFamilies()).toContain('_timer_service');
    expect(b.metrics()).toMatchObject({ timersInLsm: true, heapTimerEntries: 0 });
  });

  it('HEAP keeps timers out of the tree, beside it', () => {
    const b = backend({ timerService: 'HEAP' });
    write(b, 0, 300, 1, '_timer_service');
    write(b, 0, 10, 1, 'count');
    b.flush();
    expect(b.columnFamilies()).toEqual(['count']);
    expect(b.runs().every((r) => r.columnFamily === 'count')).toBe(true);
    expect(b.metrics()).toMatchObject({ timersInLsm: false, heapTimerEntries: 300 });
    expect(b.metrics().heapTimerBytes).toBeGreaterThan(0);
    expect(b.get('_timer_service', 5, 'key-00005')).toBe(1);
    expect(b.snapshot().keyGroups.some((g) => g.states._timer_service)).toBe(true);
  });
});

describe('synchronous operation', () => {
  it('does all its work before any queued microtask runs, and returns no promises', () => {
    const b = backend({ writeBufferSizeBytes: 1024 });
    let microtaskRan = false;
    queueMicrotask(() => {
      microtaskRan = true;
    });
    const results: unknown[] = [];
    for (let i = 0; i < 3000; i++) {
      results.push(b.put('count', i % 128, `key-${i}`, i));
      if (i % 3 === 0) results.push(b.delete('count', (i * 5) % 128, `key-${i - 1}`));
      results.push(b.get('count', (i * 7) % 128, `key-${(i * 13) % 3000}`));
    }
    const scanned: number[] = [];
    results.push(b.forEachEntry('count', (_kg, _k, v) => scanned.push(v as number)));
    results.push(b.flush(), b.compactAll(), b.runBackgroundJobs());
    const snapshot = b.snapshot();
    const incremental = b.snapshotIncremental(1);
    const restored = backend();
    results.push(restored.restore([snapshot]));
    const fromIncremental = backend();
    results.push(fromIncremental.restoreIncremental(incremental.privateState, incremental.newRuns.map((r) => r.contents)));
    expect(microtaskRan).toBe(false);
    expect(results.some((r) => r instanceof Promise || (typeof r === 'object' && r !== null && 'then' in r))).toBe(false);
    const m = b.metrics();
    expect(m.flushCount).toBeGreaterThan(10);
    expect(m.compactionCount).toBeGreaterThan(0);
    expect(m.blockCacheMiss).toBeGreaterThan(0);
    expect(restored.snapshot()).toEqual(snapshot);
    expect(fromIncremental.snapshot()).toEqual(snapshot);
    expect(scanned.length).toBe(b.entryCount());
  });
});

describe('metrics', () => {
  it('are published under RocksDB property names', () => {
    const b = backend();
    write(b, 0, 500, 1);
    b.flush();
    const props = rocksDbProperties(b.metrics());
    expect(props['rocksdb.estimate-num-keys']).toBe(500);
    expect(props['rocksdb.live-sst-files-size']).toBeGreaterThan(0);
    expect(props['rocksdb.num-files-at-level0']).toBeTypeOf('number');
    expect(props['lsm.flush.count']).toBeGreaterThan(0);
    expect(Object.keys(props).every((k) => /^(rocksdb|lsm)\.[a-z0-9.-]+$/.test(k))).toBe(true);
  });

  it('estimate counts and sizes without reading before writing in estimate mode', () => {
    const b = backend({ statistics: 'estimate', writeBufferSizeBytes: 1 << 20 });
    write(b, 0, 100, 1);
    for (let i = 0; i < 100; i += 2) b.delete('count', i % 128, `key-${String(i).padStart(5, '0')}`);
    expect(b.metrics().keysRead).toBe(0);
    // RocksDB's formula: 150 memtable writes − 2 · 50 deletes
    expect(b.entryCount()).toBe(50);
    for (let r = 0; r < 4; r++) {
      write(b, 1000 + r, 1001 + r, 1);
      b.flush();
    }
    // compacted into the bottom level: tombstones gone, the estimate is exact again
    expect(b.metrics().compactionTombstonesDropped).toBe(50);
    expect(b.entryCount()).toBe(54);
  });
});

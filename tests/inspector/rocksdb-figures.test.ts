import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import { lsmOptions, type LsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import { rocksDbFigures } from '../../web/inspector/rocksdb-figures.ts';
import { WaSqliteDatabase } from '../state/state-backend-factories.ts';

/** The inspector's RocksDB figures are read from the properties the backend reports, by name. */
describe('rocksDbFigures (the subtask inspector’s RocksDB section)', () => {
  let database: WaSqliteDatabase;
  beforeAll(async () => {
    database = await WaSqliteDatabase.open();
  });
  afterAll(async () => {
    await database.close();
  });

  function backend(options: Partial<LsmOptions>): LsmKeyedStateBackend {
    return new LsmKeyedStateBackend({ start: 0, end: 127 }, database.store(), lsmOptions(options));
  }

  it('shows the flushes, compactions, files per level and block cache of a backend that flushed and compacted', () => {
    const b = backend({ writeBufferSizeBytes: 2048, level0CompactionTrigger: 2, blockCacheSizeBytes: 1 << 20 });
    for (let round = 0; round < 4; round++) for (let i = 0; i < 600; i++) b.put('count', i % 128, `key-${i}`, round * 1000 + i);
    for (let i = 0; i < 600; i += 3) b.get('count', i % 128, `key-${i}`);
    const m = b.metrics();
    const f = rocksDbFigures(b.nativeMetrics());
    expect(m.flushCount).toBeGreaterThan(0);
    expect(m.compactionCount).toBeGreaterThan(0);
    expect(f).toMatchObject({
      flushes: m.flushCount,
      flushBytesWritten: m.flushBytesWritten,
      compactions: m.compactionCount,
      compactionBytesRead: m.compactionBytesRead,
      compactionBytesWritten: m.compactionBytesWritten,
      blockCacheHits: m.blockCacheHit,
      blockCacheMisses: m.blockCacheMiss,
      liveSstFilesBytes: m.liveSstFilesSize,
      allMemTablesBytes: m.curSizeAllMemTables,
      writeStalls: 0,
    });
    expect(f.blockCacheHitRate).toBeCloseTo(m.blockCacheHit / (m.blockCacheHit + m.blockCacheMiss), 10);
    expect(f.filesPerLevel).toEqual(m.levels.map((l) => l.files));
    expect(f.filesPerLevel.reduce((a, b) => a + b, 0)).toBe(m.liveSstFiles);
  });

  it('counts the write stalls of a backend whose write buffers ran out', () => {
    const b = backend({ writeBufferSizeBytes: 1024, writeBufferCount: 2, level0CompactionTrigger: 1000, background: 'deferred' });
    for (let i = 0; i < 2000; i++) b.put('count', i % 128, `key-${i}`, i);
    const f = rocksDbFigures(b.nativeMetrics());
    expect(f.writeStalls).toBe(b.metrics().writeStallCount);
    expect(f.writeStalls).toBeGreaterThan(10);
  });

  it('shows how long the stalled writes waited, from rocksdb.stall.micros, in ms', () => {
    const b = backend({ background: 'deferred' });
    expect(rocksDbFigures(b.nativeMetrics()).writeStallMs).toBe(0);
    b.recordWriteStallMicros(2_500_000);
    expect(rocksDbFigures(b.nativeMetrics()).writeStallMs).toBe(2500);
  });

  it('shows no hit rate before the first block cache lookup', () => {
    expect(rocksDbFigures(backend({}).nativeMetrics()).blockCacheHitRate).toBeNull();
  });
});

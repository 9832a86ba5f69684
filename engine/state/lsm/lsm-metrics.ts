import type { TimerServiceFactory } from '../../config/flink-config.ts';

export interface LsmLevelMetrics {
  level: number;
  /** rocksdb.num-files-at-level<N> */
  files: number;
  bytes: number;
  entries: number;
}

/**
 * A point-in-time view of one LSM backend, summed over its column families. Field comments name
 * the RocksDB property or ticker each stands for; `rocksDbProperties` renames them so.
 */
export interface LsmMetrics {
  /** rocksdb.num-immutable-mem-table */
  numImmutableMemTable: number;
  /** rocksdb.mem-table-flush-pending (immutables waiting) */
  memTableFlushPending: number;
  /** rocksdb.cur-size-active-mem-table */
  curSizeActiveMemTable: number;
  /** rocksdb.cur-size-all-mem-tables (active + unflushed immutables) */
  curSizeAllMemTables: number;
  /** rocksdb.num-entries-active-mem-table: writes, overwritten ones included */
  numEntriesActiveMemTable: number;
  /** rocksdb.num-entries-imm-mem-tables */
  numEntriesImmMemTables: number;
  /** rocksdb.num-deletes-active-mem-table */
  numDeletesActiveMemTable: number;
  /** rocksdb.estimate-num-keys (exact in `exact` statistics mode; RocksDB's rough formula otherwise) */
  estimateNumKeys: number;
  /** rocksdb.estimate-live-data-size */
  estimateLiveDataSize: number;
  /** number of live runs ("SST files") */
  liveSstFiles: number;
  /** rocksdb.live-sst-files-size */
  liveSstFilesSize: number;
  levels: LsmLevelMetrics[];
  /** rocksdb.block-cache-capacity (the shared cache's with managed memory) */
  blockCacheCapacity: number;
  /** rocksdb.block-cache-usage (blocks + memtable reservations) */
  blockCacheUsage: number;
  /** rocksdb.block.cache.hit (this backend's lookups) */
  blockCacheHit: number;
  /** rocksdb.block.cache.miss */
  blockCacheMiss: number;
  blockCacheHitRate: number;
  /** rocksdb.number.keys.written / read */
  keysWritten: number;
  keysRead: number;
  flushCount: number;
  /** rocksdb.flush.write.bytes */
  flushBytesWritten: number;
  compactionCount: number;
  trivialMoveCount: number;
  /** rocksdb.compact.read.bytes / write.bytes */
  compactionBytesRead: number;
  compactionBytesWritten: number;
  /** rocksdb.compaction.key.drop.new */
  compactionKeysDroppedNewer: number;
  /** rocksdb.compaction.key.drop.obsolete */
  compactionTombstonesDropped: number;
  /** writes that waited for a flush (RocksDB counts stall time: rocksdb.stall.micros) */
  writeStallCount: number;
  writeStallFlushBytes: number;
  /** rocksdb.stall.micros */
  writeStallMicros: number;
  /** (flush + compaction bytes written) / flush bytes written */
  writeAmplification: number;
  /** memory model in use */
  managedMemory: boolean;
  /** write buffer manager capacity and usage (managed memory only) */
  writeBufferManagerCapacity: number | undefined;
  writeBufferManagerUsage: number | undefined;
  /** `state.backend.rocksdb.timer-service.factory` and what it costs */
  timerService: TimerServiceFactory;
  /** false with HEAP: timer entries live outside the tree and every checkpoint writes them all */
  timersInLsm: boolean;
  heapTimerEntries: number;
  heapTimerBytes: number;
}

/** The metrics under RocksDB's property and ticker names (`rocksdb.…`), for the dashboard. */
export function rocksDbProperties(m: LsmMetrics): Record<string, number> {
  const props: Record<string, number> = {
    'rocksdb.num-immutable-mem-table': m.numImmutableMemTable,
    'rocksdb.mem-table-flush-pending': m.memTableFlushPending,
    'rocksdb.cur-size-active-mem-table': m.curSizeActiveMemTable,
    'rocksdb.cur-size-all-mem-tables': m.curSizeAllMemTables,
    'rocksdb.num-entries-active-mem-table': m.numEntriesActiveMemTable,
    'rocksdb.num-entries-imm-mem-tables': m.numEntriesImmMemTables,
    'rocksdb.num-deletes-active-mem-table': m.numDeletesActiveMemTable,
    'rocksdb.estimate-num-keys': m.estimateNumKeys,
    'rocksdb.estimate-live-data-size': m.estimateLiveDataSize,
    'rocksdb.live-sst-files-size': m.liveSstFilesSize,
    'rocksdb.total-sst-files-size': m.liveSstFilesSize,
    'rocksdb.block-cache-capacity': m.blockCacheCapacity,
    'rocksdb.block-cache-usage': m.blockCacheUsage,
    'rocksdb.block.cache.hit': m.blockCacheHit,
    'rocksdb.block.cache.miss': m.blockCacheMiss,
    'rocksdb.number.keys.written': m.keysWritten,
    'rocksdb.number.keys.read': m.keysRead,
    'rocksdb.flush.write.bytes': m.flushBytesWritten,
    'rocksdb.compact.read.bytes': m.compactionBytesRead,
    'rocksdb.compact.write.bytes': m.compactionBytesWritten,
    'rocksdb.compaction.key.drop.new': m.compactionKeysDroppedNewer,
    'rocksdb.compaction.key.drop.obsolete': m.compactionTombstonesDropped,
    'rocksdb.stall.micros': m.writeStallMicros,
    // no RocksDB property counts these directly (it has histograms of their durations)
    'lsm.flush.count': m.flushCount,
    'lsm.compaction.count': m.compactionCount,
    'lsm.trivial-move.count': m.trivialMoveCount,
    'lsm.write-stall.count': m.writeStallCount,
    'lsm.live-sst-files': m.liveSstFiles,
  };
  for (const l of m.levels) props[`rocksdb.num-files-at-level${l.level}`] = l.files;
  return props;
}

/**
 * The RocksDB native metrics of one subtask (SubtaskMetrics.rocksdb, by RocksDB property name)
 * grouped as the seed articles discuss them: memtables (write buffers), SST files per level,
 * flushes, compactions, the block cache and write stalls. The names stay RocksDB's, as Flink
 * reports them under `state.backend.rocksdb.metrics.*`.
 */
export interface RocksDbFigures {
  activeMemTableBytes: number;
  allMemTablesBytes: number;
  immutableMemTables: number;
  /** SST files at each level, level 0 first (levels that hold none included up to the deepest) */
  filesPerLevel: number[];
  liveSstFilesBytes: number;
  estimatedKeys: number;
  flushes: number;
  flushBytesWritten: number;
  compactions: number;
  compactionBytesRead: number;
  compactionBytesWritten: number;
  blockCacheHits: number;
  blockCacheMisses: number;
  /** hits ÷ lookups, or null before the first lookup */
  blockCacheHitRate: number | null;
  blockCacheUsageBytes: number;
  blockCacheCapacityBytes: number;
  writeStalls: number;
  /** rocksdb.stall.micros in ms: how long the stalled writes waited (0 where flushes are inline) */
  writeStallMs: number;
}

const LEVEL_PROPERTY = /^rocksdb\.num-files-at-level(\d+)$/;

export function rocksDbFigures(props: Readonly<Record<string, number>>): RocksDbFigures {
  const at = (name: string) => props[name] ?? 0;
  const hits = at('rocksdb.block.cache.hit');
  const misses = at('rocksdb.block.cache.miss');
  return {
    activeMemTableBytes: at('rocksdb.cur-size-active-mem-table'),
    allMemTablesBytes: at('rocksdb.cur-size-all-mem-tables'),
    immutableMemTables: at('rocksdb.num-immutable-mem-table'),
    filesPerLevel: filesPerLevel(props),
    liveSstFilesBytes: at('rocksdb.live-sst-files-size'),
    estimatedKeys: at('rocksdb.estimate-num-keys'),
    flushes: at('lsm.flush.count'),
    flushBytesWritten: at('rocksdb.flush.write.bytes'),
    compactions: at('lsm.compaction.count'),
    compactionBytesRead: at('rocksdb.compact.read.bytes'),
    compactionBytesWritten: at('rocksdb.compact.write.bytes'),
    blockCacheHits: hits,
    blockCacheMisses: misses,
    blockCacheHitRate: hits + misses === 0 ? null : hits / (hits + misses),
    blockCacheUsageBytes: at('rocksdb.block-cache-usage'),
    blockCacheCapacityBytes: at('rocksdb.block-cache-capacity'),
    writeStalls: at('lsm.write-stall.count'),
    writeStallMs: at('rocksdb.stall.micros') / 1000,
  };
}

function filesPerLevel(props: Readonly<Record<string, number>>): number[] {
  const levels: number[] = [];
  for (const [name, files] of Object.entries(props)) {
    const match = LEVEL_PROPERTY.exec(name);
    if (match) levels[Number(match[1])] = files;
  }
  return Array.from(levels, (files) => files ?? 0);
}

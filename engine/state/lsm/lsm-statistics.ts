/**
 * Cumulative counters of one LSM backend, RocksDB's "tickers" (Statistics). Gauges such as
 * memtable sizes are read from the tree when metrics are taken (lsm-metrics.ts).
 */
export class LsmStatistics {
  /** rocksdb.number.keys.written: puts and deletes */
  keysWritten = 0;
  /** rocksdb.number.keys.read: point reads, including the reads an exact put/delete does */
  keysRead = 0;
  /** flush jobs (one per column family flush; several immutables flush into one run) */
  flushCount = 0;
  /** rocksdb.flush.write.bytes */
  flushBytesWritten = 0;
  /** compactions that rewrote data (trivial moves not included) */
  compactionCount = 0;
  /** compactions that only moved a run one level down, without rewriting it */
  trivialMoveCount = 0;
  /** rocksdb.compact.read.bytes */
  compactionBytesRead = 0;
  /** rocksdb.compact.write.bytes */
  compactionBytesWritten = 0;
  /** rocksdb.compaction.key.drop.new: older versions dropped because a newer one exists */
  compactionKeysDroppedNewer = 0;
  /** rocksdb.compaction.key.drop.obsolete: tombstones dropped in the bottom level */
  compactionTombstonesDropped = 0;
  /** writes that found the write buffers used up and had to wait for a flush */
  writeStallCount = 0;
  /** bytes those stalled writes waited to be flushed */
  writeStallFlushBytes = 0;
  /** rocksdb.stall.micros: how long stalled writes waited (only a driver with a clock measures it) */
  writeStallMicros = 0;
  /** runs (SST files) written by flushes and compactions */
  runsCreated = 0;
  /** runs deleted after compaction replaced them */
  runsDeleted = 0;
  /** rocksdb.block.cache.hit: point reads served by a cached block */
  blockCacheHit = 0;
  /** rocksdb.block.cache.miss: point reads that read the block from storage */
  blockCacheMiss = 0;
}

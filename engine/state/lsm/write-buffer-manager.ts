import type { LruBlockCache } from './block-cache.ts';

/**
 * RocksDB's WriteBufferManager: caps the memtable memory of every column family of every backend
 * that shares it (Flink shares one per slot). A write asks `shouldFlush()`; true means the writer
 * switches its largest memtable and flushes it, before the per-memtable size limit is reached.
 * Memtable memory is also charged to the block cache when one is given.
 */
export class WriteBufferManager {
  #memoryUsage = 0;
  #mutableUsage = 0;

  constructor(
    readonly bufferSizeBytes: number,
    private readonly cache?: LruBlockCache,
  ) {}

  /** All memtables not yet flushed. */
  get memoryUsage(): number {
    return this.#memoryUsage;
  }

  /** Memtables still taking writes. */
  get mutableMemoryUsage(): number {
    return this.#mutableUsage;
  }

  /** RocksDB's mutable_limit_: 7/8 of the buffer size. */
  get mutableLimit(): number {
    return (this.bufferSizeBytes * 7) / 8;
  }

  /** A memtable grew by `bytes`. */
  reserveMem(bytes: number): void {
    this.#memoryUsage += bytes;
    this.#mutableUsage += bytes;
    this.cache?.reserve(this.#memoryUsage);
  }

  /** A memtable became immutable: it no longer counts as mutable, but is still in memory. */
  scheduleFreeMem(bytes: number): void {
    this.#mutableUsage -= bytes;
  }

  /** A memtable was flushed (or dropped) and its memory released. */
  freeMem(bytes: number): void {
    this.#memoryUsage -= bytes;
    this.cache?.reserve(this.#memoryUsage);
  }

  /** RocksDB's WriteBufferManager::ShouldFlush. */
  shouldFlush(): boolean {
    if (this.#mutableUsage > this.mutableLimit) return true;
    return this.#memoryUsage >= this.bufferSizeBytes && this.#mutableUsage >= this.bufferSizeBytes / 2;
  }
}

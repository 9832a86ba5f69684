import type { DecodedBlock } from './block-codec.ts';

/**
 * RocksDB's LRU block cache: decoded data blocks of sorted runs, charged by their encoded size,
 * least recently used evicted first. Point reads go through it (and count hits and misses);
 * compactions and full scans read past it, as RocksDB's do with `fill_cache = false`.
 *
 * With managed memory the write buffer manager charges memtable memory to the same cache
 * (`reserve`), so blocks and memtables share one budget, as in Flink's shared resources.
 * Capacity is not strict (Flink creates the cache with `strict_capacity_limit = false`).
 */
export class LruBlockCache {
  #entries = new Map<number, { block: DecodedBlock; charge: number }>();
  #usage = 0;
  #reserved = 0;
  #nextKey = 1;
  hits = 0;
  misses = 0;
  inserts = 0;
  evictions = 0;

  constructor(public capacityBytes: number) {}

  /** Bytes of cached blocks plus memtable reservations (RocksDB's block-cache-usage). */
  get usageBytes(): number {
    return this.#usage + this.#reserved;
  }

  get blockBytes(): number {
    return this.#usage;
  }

  get reservedBytes(): number {
    return this.#reserved;
  }

  get blockCount(): number {
    return this.#entries.size;
  }

  get hitRate(): number {
    const total = this.hits + this.misses;
    return total === 0 ? 0 : this.hits / total;
  }

  /** Cache keys for a new run's blocks: `base + blockNo`, never reused. */
  allocateKeys(blockCount: number): number {
    const base = this.#nextKey;
    this.#nextKey += blockCount + 1;
    return base;
  }

  lookup(key: number): DecodedBlock | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.block;
  }

  insert(key: number, block: DecodedBlock, charge: number): void {
    if (charge > this.capacityBytes) return;
    const old = this.#entries.get(key);
    if (old) {
      this.#usage -= old.charge;
      this.#entries.delete(key);
    }
    this.#entries.set(key, { block, charge });
    this.#usage += charge;
    this.inserts++;
    this.#evict();
  }

  erase(key: number): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#usage -= entry.charge;
  }

  /** Sets the memtable memory charged to this cache (the write buffer manager's dummy entries). */
  reserve(bytes: number): void {
    this.#reserved = bytes;
    this.#evict();
  }

  #evict(): void {
    for (const [key, entry] of this.#entries) {
      if (this.#usage + this.#reserved <= this.capacityBytes) break;
      this.#entries.delete(key);
      this.#usage -= entry.charge;
      this.evictions++;
    }
  }
}

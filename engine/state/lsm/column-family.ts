import type { LruBlockCache } from './block-cache.ts';
import { decodeBlock, type DecodedBlock } from './block-codec.ts';
import { flushMemtables } from './flush-job.ts';
import { ImmutableMemtables } from './immutable-memtables.ts';
import type { LsmValue } from './internal-key.ts';
import { pickCompaction, runCompaction } from './level-compaction.ts';
import type { LsmContext } from './lsm-context.ts';
import { LsmLevels } from './lsm-levels.ts';
import { Memtable } from './memtable.ts';
import { ConcatSource, SortedEntriesSource, type EntrySource } from './merging-iterator.ts';
import { findBlock, searchBlock, type SortedRun } from './sorted-run.ts';
import type { WriteBufferManager } from './write-buffer-manager.ts';

/**
 * One declared state = one RocksDB column family: its own active memtable, immutable memtables
 * and levels of runs. Reads look in the memtable, then the immutables, then the runs newest
 * first, through the block cache.
 */
export class ColumnFamily {
  memtable = new Memtable();
  readonly immutables = new ImmutableMemtables();
  readonly levels: LsmLevels;
  /** live entries and their bytes (kept by the backend in `exact` statistics mode) */
  liveEntries = 0;
  liveBytes = 0;

  constructor(
    readonly name: string,
    private readonly ctx: LsmContext,
    readonly cache: LruBlockCache,
    private readonly writeBufferManager: WriteBufferManager | undefined,
  ) {
    this.levels = new LsmLevels(ctx.options.numLevels);
  }

  /** The newest version: a value, TOMBSTONE, or undefined if the key was never written. */
  get(keyGroup: number, key: string): LsmValue | undefined {
    const v = this.memtable.get(keyGroup, key) ?? this.immutables.get(keyGroup, key);
    if (v !== undefined) return v;
    return this.levels.lookup(keyGroup, key, (run) => {
      const b = findBlock(run.index, keyGroup, key);
      return b < 0 ? undefined : searchBlock(this.readBlock(run, b), keyGroup, key);
    });
  }

  write(keyGroup: number, key: string, value: LsmValue): void {
    const before = this.memtable.bytes;
    this.memtable.put(keyGroup, key, value);
    this.writeBufferManager?.reserveMem(this.memtable.bytes - before);
  }

  /** Makes the active memtable immutable and starts a new one (no-op when it is empty). */
  switchMemtable(): boolean {
    if (this.memtable.entryCount === 0) return false;
    this.immutables.add(this.memtable);
    this.writeBufferManager?.scheduleFreeMem(this.memtable.bytes);
    this.memtable = new Memtable();
    return true;
  }

  /** Flushes every immutable memtable into one L0 run, then compacts until no level is over. */
  flushImmutables(): SortedRun | undefined {
    const memtables = this.immutables.newestFirst();
    if (memtables.length === 0) return undefined;
    const storage = this.ctx.storage;
    storage.beginBatch();
    try {
      const run = flushMemtables(this.ctx, this.name, memtables);
      if (run) this.levels.add(run);
      this.immutables.remove(memtables);
      for (const m of memtables) this.writeBufferManager?.freeMem(m.bytes);
      this.compact();
      return run;
    } finally {
      storage.commitBatch();
    }
  }

  compact(): void {
    for (let plan = pickCompaction(this.levels, this.ctx.options); plan; plan = pickCompaction(this.levels, this.ctx.options)) {
      runCompaction(this.ctx, this.levels, this.name, plan);
    }
  }

  /**
   * Sorted sources over everything this column family holds, newest first: active memtable,
   * immutables, each L0 run, then one source per deeper level. Callers pin the context first.
   */
  scanSources(): EntrySource[] {
    const sources: EntrySource[] = [new SortedEntriesSource(this.memtable.sorted())];
    for (const m of this.immutables.newestFirst()) sources.push(new SortedEntriesSource(m.sorted()));
    for (const run of this.levels.level(0)) sources.push(this.ctx.openRun(run));
    for (let n = 1; n < this.levels.numLevels; n++) {
      const runs = [...this.levels.level(n)];
      if (runs.length > 0) sources.push(new ConcatSource(runs.map((r) => () => this.ctx.openRun(r))));
    }
    return sources;
  }

  /** Drops a deleted run's blocks from the cache. */
  evict(run: SortedRun): void {
    if (run.cacheKeyBase === 0) return;
    for (let b = 0; b < run.blockCount; b++) this.cache.erase(run.cacheKeyBase + b);
  }

  readBlock(run: SortedRun, blockNo: number): DecodedBlock {
    if (run.cacheKeyBase === 0) run.cacheKeyBase = this.cache.allocateKeys(run.blockCount);
    const key = run.cacheKeyBase + blockNo;
    const cached = this.cache.lookup(key);
    if (cached) {
      this.ctx.stats.blockCacheHit++;
      return cached;
    }
    this.ctx.stats.blockCacheMiss++;
    const data = this.ctx.storage.readBlock(run.id, blockNo);
    const block = decodeBlock(data);
    this.cache.insert(key, block, data.length);
    return block;
  }
}

import type { LsmOptions } from './lsm-options.ts';
import type { LsmStatistics } from './lsm-statistics.ts';
import type { LsmStorage } from './lsm-storage.ts';
import { BlockSource, type EntrySource } from './merging-iterator.ts';
import type { SortedRun } from './sorted-run.ts';
import { SortedRunWriter } from './sorted-run-writer.ts';

/**
 * What flushes and compactions of every column family share: the storage, the options, the
 * counters, the run-id sequence, and the rule for deleting replaced runs (held back while an
 * iterator may still read them, as RocksDB keeps files alive for its iterators' Version).
 */
export class LsmContext {
  #nextRunId = 1;
  #pins = 0;
  #retired: SortedRun[] = [];

  constructor(
    readonly storage: LsmStorage,
    readonly options: LsmOptions,
    readonly stats: LsmStatistics,
    private readonly onRunDeleted: (run: SortedRun) => void,
  ) {}

  get nextRunId(): number {
    return this.#nextRunId;
  }

  /** After a restore: continue numbering after the restored runs. */
  advanceRunIds(atLeast: number): void {
    this.#nextRunId = Math.max(this.#nextRunId, atLeast);
  }

  newWriter(columnFamily: string, level: number): SortedRunWriter {
    return new SortedRunWriter(
      this.storage,
      this.#nextRunId++,
      this.options.name,
      columnFamily,
      level,
      this.options.blockSizeBytes,
    );
  }

  /** A sequential reader of a run's entries, past the block cache (compactions, scans). */
  openRun(run: SortedRun): EntrySource {
    const cursor = this.storage.openCursor(run.id);
    return new BlockSource(
      () => cursor.next(),
      () => cursor.close(),
    );
  }

  /** Deletes a run that compaction replaced, now or when the last pin is released. */
  retire(run: SortedRun): void {
    if (this.#pins > 0) this.#retired.push(run);
    else this.#delete(run);
  }

  /** Keeps retired runs readable until `unpin` (iterators over a consistent set of runs). */
  pin(): void {
    this.#pins++;
  }

  unpin(): void {
    if (--this.#pins > 0) return;
    const retired = this.#retired;
    this.#retired = [];
    for (const run of retired) this.#delete(run);
  }

  #delete(run: SortedRun): void {
    this.storage.deleteRun(run.id);
    this.stats.runsDeleted++;
    this.onRunDeleted(run);
  }
}

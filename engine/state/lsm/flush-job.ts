import type { LsmContext } from './lsm-context.ts';
import type { Memtable } from './memtable.ts';
import { MergingIterator, SortedEntriesSource } from './merging-iterator.ts';
import type { SortedRun } from './sorted-run.ts';

/**
 * RocksDB's FlushJob: writes the immutable memtables of one column family (newest first) into
 * one new level-0 run. Older versions of a key are dropped; tombstones are kept, because older
 * runs may still hold the key.
 */
export function flushMemtables(
  ctx: LsmContext,
  columnFamily: string,
  newestFirst: readonly Memtable[],
): SortedRun | undefined {
  const merged = new MergingIterator(newestFirst.map((m) => new SortedEntriesSource(m.sorted())));
  const writer = ctx.newWriter(columnFamily, 0);
  for (; merged.valid; merged.next()) writer.add(merged.keyGroup, merged.key, merged.value);
  const run = writer.finish();
  if (run) {
    ctx.stats.flushCount++;
    ctx.stats.flushBytesWritten += run.sizeBytes;
    ctx.stats.runsCreated++;
  }
  return run;
}

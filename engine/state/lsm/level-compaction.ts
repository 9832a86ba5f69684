import { compareInternalKeys, TOMBSTONE } from './internal-key.ts';
import type { LsmContext } from './lsm-context.ts';
import { rangeOf, type LsmLevels } from './lsm-levels.ts';
import type { LsmOptions } from './lsm-options.ts';
import { ConcatSource, MergingIterator, type EntrySource } from './merging-iterator.ts';
import type { SortedRun } from './sorted-run.ts';

/** One compaction: runs of `inputLevel` merged with the runs of `outputLevel` they overlap. */
export interface CompactionPlan {
  inputLevel: number;
  outputLevel: number;
  inputs: SortedRun[];
  overlapping: SortedRun[];
  /** the level's score that chose it: ≥ 1 means over its target */
  score: number;
}

/** Target bytes of level n ≥ 1: max_bytes_for_level_base · multiplier^(n−1). */
export function levelTargetBytes(options: LsmOptions, level: number): number {
  return options.maxBytesForLevelBase * options.levelSizeMultiplier ** (level - 1);
}

/**
 * RocksDB's leveled compaction picker. Scores: L0 = runs / level0_file_num_compaction_trigger
 * (4: L0 → L1 when L0 has ≥ 4 runs); Ln = bytes / target bytes. The level with the highest
 * score ≥ 1 is compacted: all of L0 at once, or from Ln the run that overlaps the fewest bytes
 * of Ln+1 (RocksDB's kMinOverlappingRatio). The last level is never a source.
 */
export function pickCompaction(levels: LsmLevels, options: LsmOptions): CompactionPlan | undefined {
  let bestLevel = -1;
  let bestScore = 0;
  const l0Score = levels.level(0).length / options.level0CompactionTrigger;
  if (l0Score >= 1) {
    bestLevel = 0;
    bestScore = l0Score;
  }
  for (let n = 1; n < levels.numLevels - 1; n++) {
    const score = levels.levelBytes(n) / levelTargetBytes(options, n);
    if (score >= 1 && score > bestScore) {
      bestLevel = n;
      bestScore = score;
    }
  }
  if (bestLevel < 0) return undefined;
  if (bestLevel === 0) {
    const inputs = [...levels.level(0)];
    return { inputLevel: 0, outputLevel: 1, inputs, overlapping: levels.overlapping(1, rangeOf(inputs)), score: bestScore };
  }
  let best: { run: SortedRun; overlapping: SortedRun[]; ratio: number } | undefined;
  for (const run of levels.level(bestLevel)) {
    const overlapping = levels.overlapping(bestLevel + 1, run);
    const ratio = overlapping.reduce((n, r) => n + r.sizeBytes, 0) / run.sizeBytes;
    if (!best || ratio < best.ratio) best = { run, overlapping, ratio };
  }
  return { inputLevel: bestLevel, outputLevel: bestLevel + 1, inputs: [best!.run], overlapping: best!.overlapping, score: bestScore };
}

/**
 * Runs one compaction. A single input with nothing to merge below is moved down a level
 * without rewriting it (a trivial move: same file, so incremental checkpoints reuse it).
 * Otherwise the inputs are merged newest first, older versions dropped, tombstones dropped when
 * no deeper level holds the key range, and the output cut into runs of the target file size.
 */
export function runCompaction(ctx: LsmContext, levels: LsmLevels, columnFamily: string, plan: CompactionPlan): void {
  const { stats, options } = ctx;
  if (plan.inputs.length === 1 && plan.overlapping.length === 0) {
    const run = plan.inputs[0]!;
    levels.remove(run);
    run.level = plan.outputLevel;
    levels.add(run);
    stats.trivialMoveCount++;
    return;
  }
  const all = [...plan.inputs, ...plan.overlapping];
  const dropTombstones = !levels.hasDataBelow(plan.outputLevel, rangeOf(all));
  const sources: EntrySource[] =
    plan.inputLevel === 0
      ? plan.inputs.map((r) => ctx.openRun(r)) // L0 is newest first already
      : [ctx.openRun(plan.inputs[0]!)];
  sources.push(new ConcatSource(plan.overlapping.map((r) => () => ctx.openRun(r))));

  const outputs: SortedRun[] = [];
  const merged = new MergingIterator(sources);
  let writer = ctx.newWriter(columnFamily, plan.outputLevel);
  const cut = () => {
    const run = writer.finish();
    if (run) outputs.push(run);
    writer = ctx.newWriter(columnFamily, plan.outputLevel);
  };
  // RocksDB ≥ 7.8 (level_compaction_dynamic_file_size, on by default; Flink's FRocksDB 8.10 has
  // it): an output file is cut early where a file of the next level ends, once it holds half the
  // target size, so the next compaction of it rewrites no partial files below.
  const grandparents = options.levelCompactionDynamicFileSize && plan.outputLevel + 1 < levels.numLevels ? levels.level(plan.outputLevel + 1) : [];
  let below = 0;
  try {
    for (; merged.valid; merged.next()) {
      if (merged.value === TOMBSTONE && dropTombstones) {
        stats.compactionTombstonesDropped++;
        continue;
      }
      let crossed = false;
      while (below < grandparents.length && compareInternalKeys(grandparents[below]!.maxKeyGroup, grandparents[below]!.maxKey, merged.keyGroup, merged.key) < 0) {
        below++;
        crossed = true;
      }
      if (crossed && writer.estimatedBytes >= options.targetFileSizeBytes / 2) cut();
      writer.add(merged.keyGroup, merged.key, merged.value);
      if (writer.estimatedBytes >= options.targetFileSizeBytes) cut();
    }
    const last = writer.finish();
    if (last) outputs.push(last);
  } finally {
    merged.close();
  }

  for (const run of all) {
    levels.remove(run);
    stats.compactionBytesRead += run.sizeBytes;
  }
  for (const run of outputs) {
    levels.add(run);
    stats.compactionBytesWritten += run.sizeBytes;
  }
  for (const run of all) ctx.retire(run);
  stats.compactionKeysDroppedNewer += merged.shadowed;
  stats.compactionCount++;
  stats.runsCreated += outputs.length;
}

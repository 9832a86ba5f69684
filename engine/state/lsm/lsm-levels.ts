import { compareInternalKeys, type LsmValue } from './internal-key.ts';
import { runContainsKey, runOverlaps, type SortedRun } from './sorted-run.ts';

/** An inclusive key range [min, max] in (key group, key) order. */
export interface KeyRange {
  minKeyGroup: number;
  minKey: string;
  maxKeyGroup: number;
  maxKey: string;
}

/**
 * The live runs of one column family by level (RocksDB's Version). Level 0 holds flushed runs,
 * which may overlap, newest first. Each deeper level holds runs with disjoint key ranges, sorted
 * by key; data in a shallower level is always newer than data below it.
 */
export class LsmLevels {
  readonly levels: SortedRun[][];

  constructor(readonly numLevels: number) {
    this.levels = Array.from({ length: numLevels }, () => []);
  }

  get runCount(): number {
    return this.levels.reduce((n, l) => n + l.length, 0);
  }

  get isEmpty(): boolean {
    return this.levels.every((l) => l.length === 0);
  }

  all(): SortedRun[] {
    return this.levels.flat();
  }

  level(n: number): readonly SortedRun[] {
    return this.levels[n]!;
  }

  levelBytes(n: number): number {
    return this.levels[n]!.reduce((sum, r) => sum + r.sizeBytes, 0);
  }

  add(run: SortedRun): void {
    const level = this.levels[run.level];
    if (!level) throw new Error(`no level ${run.level}`);
    if (run.level === 0) {
      // newest first: higher ids are newer flushes
      const at = level.findIndex((r) => r.id < run.id);
      level.splice(at < 0 ? level.length : at, 0, run);
      return;
    }
    const at = level.findIndex(
      (r) => compareInternalKeys(r.minKeyGroup, r.minKey, run.minKeyGroup, run.minKey) > 0,
    );
    const before = level[at < 0 ? level.length - 1 : at - 1];
    const after = at < 0 ? undefined : level[at];
    if ((before && runOverlaps(before, run.minKeyGroup, run.minKey, run.maxKeyGroup, run.maxKey)) ||
        (after && runOverlaps(after, run.minKeyGroup, run.minKey, run.maxKeyGroup, run.maxKey))) {
      throw new Error(`run ${run.name} overlaps a run in level ${run.level}`);
    }
    level.splice(at < 0 ? level.length : at, 0, run);
  }

  remove(run: SortedRun): void {
    const level = this.levels[run.level]!;
    const i = level.indexOf(run);
    if (i < 0) throw new Error(`run ${run.name} is not in level ${run.level}`);
    level.splice(i, 1);
  }

  overlapping(levelNo: number, range: KeyRange): SortedRun[] {
    return this.levels[levelNo]!.filter((r) =>
      runOverlaps(r, range.minKeyGroup, range.minKey, range.maxKeyGroup, range.maxKey),
    );
  }

  /** Whether any level deeper than `levelNo` holds keys in `range` (else tombstones can go). */
  hasDataBelow(levelNo: number, range: KeyRange): boolean {
    for (let n = levelNo + 1; n < this.numLevels; n++) if (this.overlapping(n, range).length > 0) return true;
    return false;
  }

  /**
   * Looks the key up run by run, newest data first, and returns the first answer `probe` gives
   * (a value or a tombstone). L0: every run whose range holds the key; deeper levels: at most one.
   */
  lookup(keyGroup: number, key: string, probe: (run: SortedRun) => LsmValue | undefined): LsmValue | undefined {
    for (const run of this.levels[0]!) {
      if (!runContainsKey(run, keyGroup, key)) continue;
      const v = probe(run);
      if (v !== undefined) return v;
    }
    for (let n = 1; n < this.numLevels; n++) {
      const level = this.levels[n]!;
      let lo = 0;
      let hi = level.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compareInternalKeys(level[mid]!.maxKeyGroup, level[mid]!.maxKey, keyGroup, key) < 0) lo = mid + 1;
        else hi = mid;
      }
      const run = level[lo];
      if (!run || !runContainsKey(run, keyGroup, key)) continue;
      const v = probe(run);
      if (v !== undefined) return v;
    }
    return undefined;
  }
}

export function rangeOf(runs: readonly KeyRange[]): KeyRange {
  let r = runs[0]!;
  let min = { kg: r.minKeyGroup, key: r.minKey };
  let max = { kg: r.maxKeyGroup, key: r.maxKey };
  for (r of runs) {
    if (compareInternalKeys(r.minKeyGroup, r.minKey, min.kg, min.key) < 0) min = { kg: r.minKeyGroup, key: r.minKey };
    if (compareInternalKeys(r.maxKeyGroup, r.maxKey, max.kg, max.key) > 0) max = { kg: r.maxKeyGroup, key: r.maxKey };
  }
  return { minKeyGroup: min.kg, minKey: min.key, maxKeyGroup: max.kg, maxKey: max.key };
}

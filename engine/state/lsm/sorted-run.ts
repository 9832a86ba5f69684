import {
  blockEntryCount,
  blockKey,
  blockKeyGroup,
  blockValue,
  type DecodedBlock,
} from './block-codec.ts';
import { compareInternalKeys, type LsmValue } from './internal-key.ts';

/**
 * What a checkpoint manifest records about a sorted run ("SST file"): immutable once written.
 * Entries are sorted by (key group, key); `level` is where the tree keeps it.
 */
export interface RunDescriptor {
  id: number;
  /** unique file name; contains a hash of the contents, so equal names mean equal files */
  name: string;
  columnFamily: string;
  level: number;
  minKeyGroup: number;
  minKey: string;
  maxKeyGroup: number;
  maxKey: string;
  entryCount: number;
  tombstoneCount: number;
  /** data blocks plus index, in stored bytes */
  sizeBytes: number;
  blockCount: number;
}

/** The first key of every block: the run's index block, kept in memory while the run is live. */
export interface BlockIndex {
  keyGroups: number[];
  keys: string[];
}

/** A live run inside the tree. `level` changes on a trivial move; nothing else does. */
export interface SortedRun extends RunDescriptor {
  index: BlockIndex;
  /** first block-cache key of this run's blocks */
  cacheKeyBase: number;
}

/** A run as uploaded with a checkpoint and downloaded on restore: the file itself. */
export interface RunContents {
  name: string;
  index: BlockIndex;
  blocks: string[];
}

export function describeRun(run: SortedRun): RunDescriptor {
  const { index: _index, cacheKeyBase: _cacheKeyBase, ...descriptor } = run;
  return descriptor;
}

export function runContainsKey(run: RunDescriptor, keyGroup: number, key: string): boolean {
  return (
    compareInternalKeys(keyGroup, key, run.minKeyGroup, run.minKey) >= 0 &&
    compareInternalKeys(keyGroup, key, run.maxKeyGroup, run.maxKey) <= 0
  );
}

/** Whether the run's key range intersects [min, max]. */
export function runOverlaps(
  run: RunDescriptor,
  minKeyGroup: number,
  minKey: string,
  maxKeyGroup: number,
  maxKey: string,
): boolean {
  return (
    compareInternalKeys(run.maxKeyGroup, run.maxKey, minKeyGroup, minKey) >= 0 &&
    compareInternalKeys(run.minKeyGroup, run.minKey, maxKeyGroup, maxKey) <= 0
  );
}

/** The block that may hold the key (the last whose first key is ≤ it), or -1. */
export function findBlock(index: BlockIndex, keyGroup: number, key: string): number {
  let lo = 0;
  let hi = index.keys.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (compareInternalKeys(index.keyGroups[mid]!, index.keys[mid]!, keyGroup, key) <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Binary search inside one decoded block. */
export function searchBlock(block: DecodedBlock, keyGroup: number, key: string): LsmValue | undefined {
  let lo = 0;
  let hi = blockEntryCount(block) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareInternalKeys(blockKeyGroup(block, mid), blockKey(block, mid), keyGroup, key);
    if (c === 0) return blockValue(block, mid);
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

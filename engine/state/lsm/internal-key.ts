import type { StateValue } from '../keyed-state-backend.ts';

/**
 * Inside one column family (one declared state) entries are ordered by (key group, key), as
 * Flink's RocksDB backend orders them by its key-group prefix: a rescale reads whole key groups
 * as contiguous ranges. Keys compare by UTF-16 code units, as the heap backend sorts them.
 */
export function compareInternalKeys(kgA: number, keyA: string, kgB: number, keyB: string): number {
  if (kgA !== kgB) return kgA - kgB;
  return keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
}

/** A delete, kept until compaction into the bottom level proves nothing older remains. */
export const TOMBSTONE: unique symbol = Symbol('tombstone');

/** What a memtable or run holds for a key: a value or a tombstone. */
export type LsmValue = StateValue | typeof TOMBSTONE;

/** A sorted sequence of entries in flat parallel arrays (cheaper than an object per entry). */
export interface SortedEntries {
  keyGroups: number[];
  keys: string[];
  values: LsmValue[];
}

import type { KeyedStateSnapshot } from '../keyed-state-backend.ts';
import { intersectKeyGroups, keyGroupCount, type KeyGroupRange } from '../key-group-range.ts';
import { isCompressedSnapshot, type CompressedKeyedStateSnapshot } from '../snapshot-compression.ts';

/** A full snapshot's keyed state as written: plain, or with each key group snappy-compressed. */
export type KeyGroupsState = KeyedStateSnapshot | CompressedKeyedStateSnapshot;

/**
 * Flink's KeyGroupsStateHandle: the keyed state of a key-group range written as one stream, with
 * the offset of each key group in it (KeyGroupRangeOffsets), so a restore after a rescale seeks to
 * the key groups it owns and reads nothing else. The playground keeps the key groups themselves
 * beside the offsets; the offsets model the bytes.
 */
export interface KeyGroupsStateHandle {
  kind: 'key-groups';
  keyGroupRange: KeyGroupRange;
  /** byte offset of each key group of the range in the stream, in key-group order */
  offsets: number[];
  /** bytes of the stream (state size) */
  stateSize: number;
  /** the key groups of the range that hold state */
  state: KeyGroupsState;
}

/**
 * The handle of a whole keyed snapshot. Offsets split its size evenly over its key groups, as the
 * playground measures key-group shares everywhere (a rescale reads `size × groups ÷ range`).
 */
export function keyGroupsStateHandleOf(state: KeyGroupsState, stateSize: number): KeyGroupsStateHandle {
  const groups = keyGroupCount(state.keyGroupRange);
  const offsets = Array.from({ length: groups }, (_, i) => Math.round((stateSize * i) / groups));
  return { kind: 'key-groups', keyGroupRange: state.keyGroupRange, offsets, stateSize, state };
}

/**
 * The part of a handle inside `range` (Flink's KeyGroupsStateHandle.getIntersection), or undefined
 * when they share no key group: its offsets, its bytes (the range's share of the handle's, as a
 * rescale has always weighed it), and only the key groups inside.
 */
export function intersectHandle(handle: KeyGroupsStateHandle, range: KeyGroupRange): KeyGroupsStateHandle | undefined {
  const overlap = intersectKeyGroups(handle.keyGroupRange, range);
  if (!overlap) return undefined;
  const first = overlap.start - handle.keyGroupRange.start;
  const from = handle.offsets[first]!;
  const offsets = handle.offsets.slice(first, first + keyGroupCount(overlap)).map((o) => o - from);
  const stateSize = Math.round((handle.stateSize * keyGroupCount(overlap)) / keyGroupCount(handle.keyGroupRange));
  const state = keyGroupsWhere(handle.state, (g) => g >= overlap.start && g <= overlap.end);
  return { kind: 'key-groups', keyGroupRange: overlap, offsets, stateSize, state };
}

/**
 * The key groups of a full snapshot for which `keep` holds, in the form they were written (a
 * compressed one stays compressed: each key group is a stream of its own). Its range and sizes
 * stay the snapshot's, as a backend restoring it clips to its own range anyway.
 */
export function keyGroupsWhere<S extends KeyGroupsState>(state: S, keep: (keyGroup: number) => boolean): S {
  if (isCompressedSnapshot(state)) return { ...state, compressedKeyGroups: state.compressedKeyGroups.filter((g) => keep(g.keyGroup)) };
  return { ...state, keyGroups: (state as KeyedStateSnapshot).keyGroups.filter((g) => keep(g.keyGroup)) };
}

/**
 * Splits a handle into at most `parts` handles of contiguous key-group ranges, as evenly as the
 * range allows: how the playground writes a task-local copy, one file per part, so that a write
 * that fails part way leaves some parts on the disk and not others.
 */
export function splitHandle(handle: KeyGroupsStateHandle, parts: number): KeyGroupsStateHandle[] {
  const groups = keyGroupCount(handle.keyGroupRange);
  const n = Math.max(1, Math.min(parts, groups));
  const split: KeyGroupsStateHandle[] = [];
  for (let p = 0; p < n; p++) {
    const start = handle.keyGroupRange.start + Math.floor((groups * p) / n);
    const end = handle.keyGroupRange.start + Math.floor((groups * (p + 1)) / n) - 1;
    split.push(intersectHandle(handle, { start, end })!);
  }
  return split;
}

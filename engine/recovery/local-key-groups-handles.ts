import type { TaskStateSnapshot } from '../protocol.ts';
import { keyGroupsStateHandleOf, keyGroupsWhere, splitHandle, type KeyGroupsState } from '../state/handles/key-groups-state-handle.ts';
import { operatorSubtaskStateOf } from '../state/handles/operator-subtask-state.ts';
import { containsKeyGroup, type KeyGroupRange } from '../state/key-group-range.ts';
import { checksum } from './checksum.ts';

/**
 * How many key-group handles a task-local copy of full keyed state is written as. Flink writes one
 * KeyGroupsStateHandle per subtask; the playground writes the local copy in a few key-group
 * ranges, one file each, so a local write that fails part way leaves some of them on the disk and
 * not others, and a restore can take what is there locally and only the rest from remote storage.
 */
export const LOCAL_COPY_KEY_GROUP_HANDLES = 4;

/** One key-group handle of a task-local copy: a file `<copy path>/kg_<start>-<end>`. */
export interface LocalKeyGroupsHandle {
  readonly keyGroupRange: KeyGroupRange;
  readonly bytes: number;
  /** false: the file is not on the disk (its write failed, or it was deleted) */
  readonly present: boolean;
  /** checksum recorded when written; absent: as written and undamaged since (nothing to recompute) */
  readonly checksum?: string;
}

export function localHandlePath(copyPath: string, handle: { keyGroupRange: KeyGroupRange }): string {
  return `${copyPath}/kg_${handle.keyGroupRange.start}-${handle.keyGroupRange.end}`;
}

/**
 * The key-group handles a local copy of `snapshot` is written as, all present when the write
 * completed and none while it is still in flight; none at all for a copy without full keyed
 * state (an incremental copy is one handle with its runs, restored whole).
 */
export function localKeyGroupsHandlesOf(snapshot: TaskStateSnapshot, complete: boolean): LocalKeyGroupsHandle[] {
  const [keyed] = operatorSubtaskStateOf(snapshot).managedKeyedState;
  if (keyed?.kind !== 'key-groups') return [];
  return localKeyGroupsHandlesOfRange(keyed.keyGroupRange, keyed.stateSize, complete);
}

/**
 * The same from the key-group range and size alone, for a writer that holds the copy as bytes
 * (the live JobManager, given a TaskManager's encoded copy): the split is the range's, so both agree.
 */
export function localKeyGroupsHandlesOfRange(keyGroupRange: KeyGroupRange, stateSize: number, complete: boolean): LocalKeyGroupsHandle[] {
  const whole = keyGroupsStateHandleOf({ keyGroupRange, keyGroups: [], sizeBytes: stateSize }, stateSize);
  return splitHandle(whole, LOCAL_COPY_KEY_GROUP_HANDLES).map((h) => ({ keyGroupRange: h.keyGroupRange, bytes: h.stateSize, present: complete }));
}

/** The key groups of `range` in a copy's keyed state, as the handle's file holds them. */
function contentOf(snapshot: TaskStateSnapshot, range: KeyGroupRange): unknown {
  const keyed = snapshot.keyedState as KeyGroupsState | undefined;
  return keyed ? keyGroupsWhere(keyed, (g) => g >= range.start && g <= range.end) : [];
}

/** Whether a present handle still matches the checksum it was written with. */
export function verifyLocalHandle(snapshot: TaskStateSnapshot, handle: LocalKeyGroupsHandle): boolean {
  return handle.checksum === undefined || checksum(contentOf(snapshot, handle.keyGroupRange)) === handle.checksum;
}

/** The handle with its recorded checksum damaged, so verification fails. */
export function corruptedHandle(snapshot: TaskStateSnapshot, handle: LocalKeyGroupsHandle): LocalKeyGroupsHandle {
  const recorded = handle.checksum ?? checksum(contentOf(snapshot, handle.keyGroupRange));
  const last = parseInt(recorded.slice(-1), 16) ^ 1;
  return { ...handle, checksum: recorded.slice(0, -1) + last.toString(16) };
}

export function handleHoldsKeyGroup(handle: LocalKeyGroupsHandle, keyGroup: number): boolean {
  return containsKeyGroup(handle.keyGroupRange, keyGroup);
}

import type { KeyedStateSnapshot, KeyGroupSnapshot, StateValue } from './keyed-state-backend.ts';
import type { KeyGroupRange } from './key-group-range.ts';
import { defineEncodedState, type EncodedKeyGroupState } from './encoded-key-group-state.ts';

/**
 * One key group of one state as the snapshot saw it: a map its backend never writes again, or the
 * encoded form it was restored in and never touched since (written out as it is).
 */
export interface FrozenKeyGroup {
  readonly state: string;
  readonly keyGroup: number;
  readonly entries: ReadonlyMap<string, StateValue> | EncodedKeyGroupState;
}

/**
 * The heap backend's snapshot, split as Flink's HeapSnapshotStrategy splits it. The synchronous
 * part is the list of key-group maps the backend handed over (CopyOnWriteStateMap's shallow
 * snapshot: the backend copies a map before its next write instead of copying them all now).
 * The asynchronous part, writing the key groups out sorted, runs the first time anyone reads
 * `keyGroups` (an upload, an encoding, a restore), and never for a checkpoint no one reads.
 * `keyGroups` is an own enumerable property, so copies, JSON and structured clones see it.
 */
export function copyOnWriteSnapshot(keyGroupRange: KeyGroupRange, frozen: readonly FrozenKeyGroup[], sizeBytes: number): KeyedStateSnapshot {
  // An accessor in the literal keeps the object's shape fast; the properties are in the order a
  // plain snapshot has them (keyGroupRange, keyGroups, sizeBytes), so its JSON is the same.
  const snapshot: KeyedStateSnapshot = {
    keyGroupRange: { ...keyGroupRange },
    get keyGroups(): KeyGroupSnapshot[] {
      // written once: later reads see the same array, and the frozen maps can be collected
      return settle(snapshot, writeKeyGroups(frozen));
    },
    set keyGroups(value: KeyGroupSnapshot[]) {
      settle(snapshot, value);
    },
    sizeBytes,
  };
  return snapshot;
}

/** Turns `keyGroups` into a plain data property holding `keyGroups`, in its place. */
function settle(snapshot: KeyedStateSnapshot, keyGroups: KeyGroupSnapshot[]): KeyGroupSnapshot[] {
  Object.defineProperty(snapshot, 'keyGroups', { value: keyGroups, enumerable: true, writable: true, configurable: true });
  return keyGroups;
}

/** Non-empty key groups in key-group order, each state's entries sorted by key (deterministic, and a rescale reads single groups). */
function writeKeyGroups(frozen: readonly FrozenKeyGroup[]): KeyGroupSnapshot[] {
  const byGroup = new Map<number, KeyGroupSnapshot>();
  for (const { state, keyGroup, entries } of frozen) {
    const encoded = entries instanceof Map ? undefined : (entries as EncodedKeyGroupState);
    if ((encoded ? encoded.count : (entries as ReadonlyMap<string, StateValue>).size) === 0) continue;
    let group = byGroup.get(keyGroup);
    if (!group) byGroup.set(keyGroup, (group = { keyGroup, states: {} }));
    // an encoded one is sorted already (it was a snapshot's)
    if (encoded) defineEncodedState(group.states, state, encoded);
    else group.states[state] = sortedEntries(entries as ReadonlyMap<string, StateValue>);
  }
  return [...byGroup.values()].sort((a, b) => a.keyGroup - b.keyGroup);
}

/**
 * [key, value] pairs by key in UTF-16 code unit order. The keys are sorted alone, with the
 * built-in string order (the same order as `<` on strings, and keys are unique), which is faster
 * than sorting the pairs with a comparator. Values are immutable (operators replace them), so
 * copying references is a true copy.
 */
function sortedEntries(entries: ReadonlyMap<string, StateValue>): Array<[string, StateValue]> {
  const keys = [...entries.keys()].sort();
  const sorted = new Array<[string, StateValue]>(keys.length);
  for (let i = 0; i < keys.length; i++) sorted[i] = [keys[i]!, entries.get(keys[i]!)!];
  return sorted;
}

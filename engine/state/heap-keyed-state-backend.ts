import type { KeyedStateBackend, KeyedStateSnapshot, KeyGroupSnapshot, StateValue } from './keyed-state-backend.ts';
import { containsKeyGroup, type KeyGroupRange } from './key-group-range.ts';
import { entrySizeBytes } from './state-size.ts';

/**
 * The heap (`hashmap`) state backend: a map per state per key group, in memory. Short on purpose:
 * it is the reference implementation and the oracle for the wa-sqlite backend's tests.
 */
export class HeapKeyedStateBackend implements KeyedStateBackend {
  readonly kind = 'hashmap' as const;
  /** state name → key group → key → value */
  #tables = new Map<string, Map<number, Map<string, StateValue>>>();
  #sizeBytes = 0;
  #entries = 0;

  constructor(readonly keyGroupRange: KeyGroupRange) {}

  get(state: string, keyGroup: number, key: string): StateValue | undefined {
    return this.#tables.get(state)?.get(keyGroup)?.get(key);
  }

  put(state: string, keyGroup: number, key: string, value: StateValue): void {
    const group = this.#group(state, keyGroup);
    const old = group.get(key);
    if (old === undefined) this.#entries++;
    else this.#sizeBytes -= entrySizeBytes(key, old);
    group.set(key, value);
    this.#sizeBytes += entrySizeBytes(key, value);
  }

  delete(state: string, keyGroup: number, key: string): void {
    const group = this.#tables.get(state)?.get(keyGroup);
    const old = group?.get(key);
    if (old === undefined) return;
    group!.delete(key);
    this.#entries--;
    this.#sizeBytes -= entrySizeBytes(key, old);
  }

  forEachEntry(state: string, visit: (keyGroup: number, key: string, value: StateValue) => void): void {
    const groups = this.#tables.get(state);
    if (!groups) return;
    for (const [keyGroup, entries] of groups) for (const [key, value] of entries) visit(keyGroup, key, value);
  }

  entryCount(): number {
    return this.#entries;
  }

  stateSizeBytes(): number {
    return this.#sizeBytes;
  }

  snapshot(): KeyedStateSnapshot {
    const byGroup = new Map<number, KeyGroupSnapshot>();
    for (const [state, groups] of this.#tables) {
      for (const [keyGroup, entries] of groups) {
        if (entries.size === 0) continue;
        let snap = byGroup.get(keyGroup);
        if (!snap) byGroup.set(keyGroup, (snap = { keyGroup, states: {} }));
        // Values are immutable (operators replace them), so copying references is a true copy.
        snap.states[state] = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      }
    }
    const keyGroups = [...byGroup.values()].sort((a, b) => a.keyGroup - b.keyGroup);
    return { keyGroupRange: { ...this.keyGroupRange }, keyGroups, sizeBytes: this.#sizeBytes };
  }

  restore(snapshots: readonly KeyedStateSnapshot[]): void {
    for (const snapshot of snapshots) {
      for (const group of snapshot.keyGroups) {
        if (!containsKeyGroup(this.keyGroupRange, group.keyGroup)) continue;
        for (const [state, entries] of Object.entries(group.states)) {
          for (const [key, value] of entries) this.put(state, group.keyGroup, key, value);
        }
      }
    }
  }

  #group(state: string, keyGroup: number): Map<string, StateValue> {
    let groups = this.#tables.get(state);
    if (!groups) this.#tables.set(state, (groups = new Map()));
    let group = groups.get(keyGroup);
    if (!group) groups.set(keyGroup, (group = new Map()));
    return group;
  }
}

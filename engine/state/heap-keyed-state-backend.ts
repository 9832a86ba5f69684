import type { KeyedStateBackend, KeyedStateSnapshot, KeyGroupSnapshot, StateValue } from './keyed-state-backend.ts';
import { containsKeyGroup, keyGroupCount, type KeyGroupRange } from './key-group-range.ts';
import { entrySizeBytes } from './state-size.ts';

/**
 * One declared state: its key groups' maps in the order they were first written (what iteration
 * and snapshots follow), and the same maps indexed by `keyGroup - keyGroupRange.start`, because
 * every record's read and write looks one up and an array index is much cheaper than a hash.
 */
interface StateTable {
  readonly groups: Map<number, Map<string, StateValue>>;
  readonly inRange: Array<Map<string, StateValue> | undefined>;
}

/**
 * The heap (`hashmap`) state backend: a map per state per key group, in memory. Short on purpose:
 * it is the reference implementation and the oracle for the wa-sqlite backend's tests.
 */
export class HeapKeyedStateBackend implements KeyedStateBackend {
  readonly kind = 'hashmap' as const;
  /** state name → its key groups → key → value */
  #tables = new Map<string, StateTable>();
  /** the state named last: operators use one state per record, so this spares the name lookup */
  #lastState: string | undefined;
  #lastTable: StateTable | undefined;
  #sizeBytes = 0;
  #entries = 0;

  constructor(readonly keyGroupRange: KeyGroupRange) {}

  get(state: string, keyGroup: number, key: string): StateValue | undefined {
    const table = this.#table(state);
    return table && this.#lookup(table, keyGroup)?.get(key);
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
    const table = this.#table(state);
    const group = table && this.#lookup(table, keyGroup);
    const old = group?.get(key);
    if (old === undefined) return;
    group!.delete(key);
    this.#entries--;
    this.#sizeBytes -= entrySizeBytes(key, old);
  }

  forEachEntry(state: string, visit: (keyGroup: number, key: string, value: StateValue) => void): void {
    const table = this.#tables.get(state);
    if (!table) return;
    for (const [keyGroup, entries] of table.groups) for (const [key, value] of entries) visit(keyGroup, key, value);
  }

  entryCount(): number {
    return this.#entries;
  }

  stateSizeBytes(): number {
    return this.#sizeBytes;
  }

  snapshot(): KeyedStateSnapshot {
    const byGroup = new Map<number, KeyGroupSnapshot>();
    for (const [state, { groups }] of this.#tables) {
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
        for (const [state, entries] of Object.entries(group.states)) this.#putAll(state, group.keyGroup, entries);
      }
    }
  }

  /** put() for a key group's entries: the group's map is looked up once, not once per key (a restore puts millions). */
  #putAll(state: string, keyGroup: number, entries: ReadonlyArray<readonly [string, StateValue]>): void {
    const group = this.#group(state, keyGroup);
    let entriesAdded = 0;
    let bytes = 0;
    for (const [key, value] of entries) {
      const old = group.get(key);
      if (old === undefined) entriesAdded++;
      else bytes -= entrySizeBytes(key, old);
      group.set(key, value);
      bytes += entrySizeBytes(key, value);
    }
    this.#entries += entriesAdded;
    this.#sizeBytes += bytes;
  }

  #table(state: string): StateTable | undefined {
    if (state === this.#lastState) return this.#lastTable;
    const table = this.#tables.get(state);
    if (table) {
      this.#lastState = state;
      this.#lastTable = table;
    }
    return table;
  }

  #lookup(table: StateTable, keyGroup: number): Map<string, StateValue> | undefined {
    const index = keyGroup - this.keyGroupRange.start;
    return index >= 0 && index < table.inRange.length ? table.inRange[index] : table.groups.get(keyGroup);
  }

  /** The map of one key group of one state, made on its first write. */
  #group(state: string, keyGroup: number): Map<string, StateValue> {
    let table = this.#table(state);
    if (!table) {
      table = { groups: new Map(), inRange: new Array(Math.max(0, keyGroupCount(this.keyGroupRange))).fill(undefined) };
      this.#tables.set(state, table);
    }
    let group = this.#lookup(table, keyGroup);
    if (!group) {
      table.groups.set(keyGroup, (group = new Map()));
      const index = keyGroup - this.keyGroupRange.start;
      if (index >= 0 && index < table.inRange.length) table.inRange[index] = group;
    }
    return group;
  }
}

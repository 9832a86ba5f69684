import type { KeyedStateBackend, KeyedStateSnapshot, StateValue } from './keyed-state-backend.ts';
import { containsKeyGroup, keyGroupCount, type KeyGroupRange } from './key-group-range.ts';
import { entrySizeBytes } from './state-size.ts';
import { copyOnWriteSnapshot, type FrozenKeyGroup } from './copy-on-write-state-snapshot.ts';
import { encodedStateOf, forEachEncodedEntry, type EncodedKeyGroupState } from './encoded-key-group-state.ts';

/**
 * One declared state: its key groups' maps in the order they were first written (what iteration
 * and snapshots follow), and the same maps indexed by `keyGroup - keyGroupRange.start`, because
 * every record's read and write looks one up and an array index is much cheaper than a hash.
 * `versions` holds, per map, the state map version it was made at (by index; outside the range
 * by key group): a map older than the last snapshot is shared with that snapshot.
 *
 * A key group restored from columns stays encoded in `groups` (not in `inRange`) until its first
 * access decodes it into a map in the same place; `encodedGroups` counts those left, so a lookup
 * that misses checks for one only while there are any.
 */
interface StateTable {
  readonly groups: Map<number, Map<string, StateValue> | EncodedKeyGroupState>;
  readonly inRange: Array<Map<string, StateValue> | undefined>;
  readonly versions: number[];
  readonly outOfRangeVersions: Map<number, number>;
  encodedGroups: number;
}

/**
 * The heap (`hashmap`) state backend: a map per state per key group, in memory. Short on purpose:
 * it is the reference implementation and the oracle for the wa-sqlite backend's tests.
 *
 * Snapshots are copy-on-write, as Flink's CopyOnWriteStateMap: a snapshot takes the current maps
 * and bumps the state map version; a write to a map older than that version copies the map
 * first, so a checkpoint costs what changed after it, not a copy of all state.
 *
 * A restore keeps each key group read from columns encoded (encoded-key-group-state.ts) and
 * decodes it on its first get, put, delete or iteration; a snapshot of one never touched hands
 * on its encoded form, which the snapshot codec writes back as it came. Flink's HashMap backend
 * deserializes every entry on restore (HeapRestoreOperation); deferring that per key group is
 * the playground's, so a restore of 100 MB costs reading it rather than rebuilding a million
 * keys, as a RocksDB restore that links its local SST files reads them on demand.
 */
export class HeapKeyedStateBackend implements KeyedStateBackend {
  readonly kind = 'hashmap' as const;
  /** state name → its key groups → key → value */
  #tables = new Map<string, StateTable>();
  /** Flink's stateMapVersion: bumped by every snapshot; maps made since carry it */
  #stateMapVersion = 0;
  /** the state named last: operators use one state per record, so this spares the name lookup */
  #lastState: string | undefined;
  #lastTable: StateTable | undefined;
  #sizeBytes = 0;
  #entries = 0;
  /**
   * The entry the last get() read: operators read a key's value and then write the new one
   * (count, sum, window, join), so put() takes the old value from here instead of looking it up
   * again. Every write forgets it, so it never outlives the value it holds.
   */
  #readState: string | undefined;
  #readKeyGroup = -1;
  #readKey: string | undefined;
  #readValue: StateValue | undefined;

  constructor(readonly keyGroupRange: KeyGroupRange) {}

  get(state: string, keyGroup: number, key: string): StateValue | undefined {
    const table = this.#table(state);
    const value = table && this.#lookup(table, keyGroup)?.get(key);
    this.#readState = state;
    this.#readKeyGroup = keyGroup;
    this.#readKey = key;
    this.#readValue = value;
    return value;
  }

  put(state: string, keyGroup: number, key: string, value: StateValue): void {
    const group = this.#group(state, keyGroup);
    const old = this.#wasJustRead(state, keyGroup, key) ? this.#readValue : group.get(key);
    this.#forgetRead();
    group.set(key, value);
    if (old === undefined) {
      this.#entries++;
      this.#sizeBytes += entrySizeBytes(key, value);
    } else if (typeof old !== 'number' || typeof value !== 'number') {
      // a number replacing a number leaves the size as it was (entrySizeBytes: 8 bytes either way)
      this.#sizeBytes += entrySizeBytes(key, value) - entrySizeBytes(key, old);
    }
  }

  #wasJustRead(state: string, keyGroup: number, key: string): boolean {
    return key === this.#readKey && keyGroup === this.#readKeyGroup && state === this.#readState;
  }

  #forgetRead(): void {
    this.#readKey = undefined;
    this.#readValue = undefined;
  }

  delete(state: string, keyGroup: number, key: string): void {
    this.#forgetRead();
    const table = this.#table(state);
    const old = table && this.#lookup(table, keyGroup)?.get(key);
    if (old === undefined) return;
    this.#group(state, keyGroup).delete(key);
    this.#entries--;
    this.#sizeBytes -= entrySizeBytes(key, old);
  }

  forEachEntry(state: string, visit: (keyGroup: number, key: string, value: StateValue) => void): void {
    const table = this.#tables.get(state);
    if (!table) return;
    for (const [keyGroup, group] of table.groups) {
      for (const [key, value] of this.#mapOf(table, keyGroup, group)!) visit(keyGroup, key, value);
    }
  }

  entryCount(): number {
    return this.#entries;
  }

  stateSizeBytes(): number {
    return this.#sizeBytes;
  }

  /** The synchronous part: hands over the current maps, which the next write to each copies first. */
  snapshot(): KeyedStateSnapshot {
    const frozen: FrozenKeyGroup[] = [];
    for (const [state, { groups }] of this.#tables) {
      for (const [keyGroup, entries] of groups) frozen.push({ state, keyGroup, entries });
    }
    this.#stateMapVersion++;
    return copyOnWriteSnapshot(this.keyGroupRange, frozen, this.#sizeBytes);
  }

  restore(snapshots: readonly KeyedStateSnapshot[]): void {
    this.#forgetRead();
    for (const snapshot of snapshots) {
      for (const group of snapshot.keyGroups) {
        if (!containsKeyGroup(this.keyGroupRange, group.keyGroup)) continue;
        // names only: reading a state that is still encoded would decode it
        for (const state of Object.keys(group.states)) {
          const encoded = encodedStateOf(group.states, state);
          if (encoded && !this.#table(state)?.groups.has(group.keyGroup)) this.#adoptEncoded(state, group.keyGroup, encoded);
          else this.#putAll(state, group.keyGroup, group.states[state]!);
        }
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

  /** A key group restored as it was read: its entries and bytes counted from the columns' headers. */
  #adoptEncoded(state: string, keyGroup: number, encoded: EncodedKeyGroupState): void {
    const table = this.#table(state) ?? this.#newTable(state);
    table.groups.set(keyGroup, encoded);
    table.encodedGroups++;
    this.#entries += encoded.count;
    this.#sizeBytes += encoded.sizeBytes;
  }

  /**
   * An encoded key group decoded into a map in its place (and in its place in the order). The map
   * is new, not shared with any snapshot (one taken meanwhile holds the encoded form), so it is
   * writable at the current version.
   */
  #decoded(table: StateTable, keyGroup: number, encoded: EncodedKeyGroupState): Map<string, StateValue> {
    const group = new Map<string, StateValue>();
    forEachEncodedEntry(encoded, (key, value) => group.set(key, value));
    table.groups.set(keyGroup, group);
    table.encodedGroups--;
    const index = keyGroup - this.keyGroupRange.start;
    if (index >= 0 && index < table.inRange.length) {
      table.inRange[index] = group;
      table.versions[index] = this.#stateMapVersion;
    } else table.outOfRangeVersions.set(keyGroup, this.#stateMapVersion);
    return group;
  }

  /** The map of an in-range key group, decoding it if it is still encoded. */
  #inRangeGroup(table: StateTable, keyGroup: number, index: number): Map<string, StateValue> | undefined {
    const group = table.inRange[index];
    if (group !== undefined || table.encodedGroups === 0) return group;
    return this.#mapOf(table, keyGroup, table.groups.get(keyGroup));
  }

  /** A key group as `groups` holds it, as a map: decoded (in its place) if it is still encoded. */
  #mapOf(table: StateTable, keyGroup: number, group: Map<string, StateValue> | EncodedKeyGroupState | undefined): Map<string, StateValue> | undefined {
    return group === undefined || group instanceof Map ? group : this.#decoded(table, keyGroup, group);
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
    if (index >= 0 && index < table.inRange.length) return this.#inRangeGroup(table, keyGroup, index);
    return this.#mapOf(table, keyGroup, table.groups.get(keyGroup));
  }

  /** The map of one key group of one state to write to: made on its first write, copied on the first write after a snapshot. */
  #group(state: string, keyGroup: number): Map<string, StateValue> {
    const table = this.#table(state) ?? this.#newTable(state);
    const index = keyGroup - this.keyGroupRange.start;
    if (index >= 0 && index < table.inRange.length) {
      const group = this.#inRangeGroup(table, keyGroup, index);
      if (group !== undefined && table.versions[index] === this.#stateMapVersion) return group;
      const writable = this.#writableCopy(table, keyGroup, group);
      table.inRange[index] = writable;
      table.versions[index] = this.#stateMapVersion;
      return writable;
    }
    const group = this.#mapOf(table, keyGroup, table.groups.get(keyGroup));
    if (group !== undefined && table.outOfRangeVersions.get(keyGroup) === this.#stateMapVersion) return group;
    table.outOfRangeVersions.set(keyGroup, this.#stateMapVersion);
    return this.#writableCopy(table, keyGroup, group);
  }

  /** A new map, or a copy of one a snapshot holds; it takes the old one's place (and its place in the order). */
  #writableCopy(table: StateTable, keyGroup: number, shared: Map<string, StateValue> | undefined): Map<string, StateValue> {
    const group = new Map(shared);
    table.groups.set(keyGroup, group);
    return group;
  }

  #newTable(state: string): StateTable {
    const count = Math.max(0, keyGroupCount(this.keyGroupRange));
    const table: StateTable = { groups: new Map(), inRange: new Array(count).fill(undefined), versions: new Array(count).fill(-1), outOfRangeVersions: new Map(), encodedGroups: 0 };
    this.#tables.set(state, table);
    return table;
  }
}

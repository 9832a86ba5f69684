import { entrySizeBytes } from '../state-size.ts';
import { TOMBSTONE, type LsmValue, type SortedEntries } from './internal-key.ts';

/**
 * The write buffer of one column family: the newest version of each written key, deletes kept
 * as tombstones. RocksDB's memtable is a skip list in an arena; here a map per key group holds the
 * latest version and the sorted order is built when it is needed (flush, scans), which is when
 * RocksDB walks its skip list in order too.
 *
 * `bytes` counts like RocksDB's arena: every write adds its size, an overwrite does not free the
 * old version. So a hot counter updated a million times fills the memtable and gets flushed,
 * although the flushed run holds one entry.
 */
export class Memtable {
  #groups = new Map<number, Map<string, LsmValue>>();
  #entries = 0;
  #deletes = 0;
  #writes = 0;
  #deleteWrites = 0;
  #bytes = 0;
  #sorted: SortedEntries | undefined;

  get bytes(): number {
    return this.#bytes;
  }

  /** Distinct keys, tombstones included. */
  get entryCount(): number {
    return this.#entries;
  }

  get deleteCount(): number {
    return this.#deletes;
  }

  /** Every put and delete written, overwritten ones included (RocksDB's num-entries). */
  get writeCount(): number {
    return this.#writes;
  }

  /** Every delete written (RocksDB's num-deletes). */
  get deleteWriteCount(): number {
    return this.#deleteWrites;
  }

  /** The value, TOMBSTONE if deleted here, undefined if this memtable does not know the key. */
  get(keyGroup: number, key: string): LsmValue | undefined {
    return this.#groups.get(keyGroup)?.get(key);
  }

  put(keyGroup: number, key: string, value: LsmValue): void {
    let group = this.#groups.get(keyGroup);
    if (!group) this.#groups.set(keyGroup, (group = new Map()));
    const old = group.get(key);
    if (old === undefined) this.#entries++;
    if (old === TOMBSTONE) this.#deletes--;
    if (value === TOMBSTONE) this.#deletes++;
    this.#writes++;
    if (value === TOMBSTONE) this.#deleteWrites++;
    group.set(key, value);
    this.#bytes += value === TOMBSTONE ? 8 + key.length : entrySizeBytes(key, value);
    this.#sorted = undefined;
  }

  /** All entries in (key group, key) order; cached until the next write. */
  sorted(): SortedEntries {
    if (this.#sorted) return this.#sorted;
    const keyGroups: number[] = [];
    const keys: string[] = [];
    const values: LsmValue[] = [];
    const groups = [...this.#groups.keys()].sort((a, b) => a - b);
    for (const kg of groups) {
      const group = this.#groups.get(kg)!;
      const groupKeys = [...group.keys()].sort();
      for (const key of groupKeys) {
        keyGroups.push(kg);
        keys.push(key);
        values.push(group.get(key)!);
      }
    }
    return (this.#sorted = { keyGroups, keys, values });
  }
}

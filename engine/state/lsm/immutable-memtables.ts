import type { LsmValue } from './internal-key.ts';
import type { Memtable } from './memtable.ts';

/**
 * Full memtables that no longer take writes and wait for a flush (RocksDB's MemTableList).
 * Reads look through them newest first. When their number reaches the write-buffer count minus
 * one and the active memtable is full too, writes stall until a flush frees one.
 */
export class ImmutableMemtables {
  /** oldest first */
  #memtables: Memtable[] = [];

  get count(): number {
    return this.#memtables.length;
  }

  get bytes(): number {
    let n = 0;
    for (const m of this.#memtables) n += m.bytes;
    return n;
  }

  get entryCount(): number {
    let n = 0;
    for (const m of this.#memtables) n += m.entryCount;
    return n;
  }

  get writeCount(): number {
    let n = 0;
    for (const m of this.#memtables) n += m.writeCount;
    return n;
  }

  get deleteWriteCount(): number {
    let n = 0;
    for (const m of this.#memtables) n += m.deleteWriteCount;
    return n;
  }

  add(memtable: Memtable): void {
    this.#memtables.push(memtable);
  }

  get(keyGroup: number, key: string): LsmValue | undefined {
    for (let i = this.#memtables.length - 1; i >= 0; i--) {
      const v = this.#memtables[i]!.get(keyGroup, key);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** Newest first, the order in which they shadow each other. */
  newestFirst(): Memtable[] {
    return [...this.#memtables].reverse();
  }

  /** Removes the memtables a flush has written out. */
  remove(flushed: readonly Memtable[]): void {
    this.#memtables = this.#memtables.filter((m) => !flushed.includes(m));
  }
}

import { blockEntryCount, blockKey, blockKeyGroup, blockValue, decodeBlock, type DecodedBlock } from './block-codec.ts';
import { compareInternalKeys, type LsmValue, type SortedEntries } from './internal-key.ts';

/** A sorted stream of entries: memtable, run, or a level's runs one after another. */
export interface EntrySource {
  /** false once exhausted */
  valid: boolean;
  keyGroup: number;
  key: string;
  value: LsmValue;
  next(): void;
  close(): void;
}

/** Entries of a memtable's sorted view. */
export class SortedEntriesSource implements EntrySource {
  valid = false;
  keyGroup = 0;
  key = '';
  value: LsmValue = 0;
  #i = -1;

  constructor(private readonly entries: SortedEntries) {
    this.next();
  }

  next(): void {
    const i = ++this.#i;
    this.valid = i < this.entries.keys.length;
    if (!this.valid) return;
    this.keyGroup = this.entries.keyGroups[i]!;
    this.key = this.entries.keys[i]!;
    this.value = this.entries.values[i]!;
  }

  close(): void {}
}

/** Entries of a run, block by block (from a storage cursor or downloaded contents). */
export class BlockSource implements EntrySource {
  valid = false;
  keyGroup = 0;
  key = '';
  value: LsmValue = 0;
  #block: DecodedBlock = [];
  #i = 0;
  #closed = false;

  constructor(
    private readonly nextBlock: () => string | undefined,
    private readonly onClose: () => void = () => {},
  ) {
    this.next();
  }

  next(): void {
    while (this.#i >= blockEntryCount(this.#block)) {
      const data = this.#closed ? undefined : this.nextBlock();
      if (data === undefined) {
        this.valid = false;
        this.close();
        return;
      }
      this.#block = decodeBlock(data);
      this.#i = 0;
    }
    const i = this.#i++;
    this.valid = true;
    this.keyGroup = blockKeyGroup(this.#block, i);
    this.key = blockKey(this.#block, i);
    this.value = blockValue(this.#block, i);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onClose();
  }
}

/** Non-overlapping sources in key order, read one after another (one level of the tree). */
export class ConcatSource implements EntrySource {
  valid = false;
  keyGroup = 0;
  key = '';
  value: LsmValue = 0;
  #current: EntrySource | undefined;
  #next = 0;

  constructor(private readonly open: ReadonlyArray<() => EntrySource>) {
    this.#advanceSource();
  }

  next(): void {
    this.#current!.next();
    if (this.#current!.valid) this.#copy(this.#current!);
    else this.#advanceSource();
  }

  close(): void {
    this.#current?.close();
    this.#next = this.open.length;
    this.valid = false;
  }

  #advanceSource(): void {
    this.#current?.close();
    while (this.#next < this.open.length) {
      this.#current = this.open[this.#next++]!();
      if (this.#current.valid) {
        this.#copy(this.#current);
        return;
      }
      this.#current.close();
    }
    this.#current = undefined;
    this.valid = false;
  }

  #copy(s: EntrySource): void {
    this.valid = true;
    this.keyGroup = s.keyGroup;
    this.key = s.key;
    this.value = s.value;
  }
}

/**
 * Merges sorted sources, given newest first: for a key present in several, the newest version
 * wins and the older ones are skipped (`shadowed` counts them). Tombstones are passed through;
 * the caller decides whether to keep them.
 */
export class MergingIterator implements EntrySource {
  valid = false;
  keyGroup = 0;
  key = '';
  value: LsmValue = 0;
  shadowed = 0;

  constructor(private readonly sources: readonly EntrySource[]) {
    this.next();
  }

  next(): void {
    const sources = this.sources;
    let best: EntrySource | undefined;
    for (const s of sources) {
      if (s.valid && (!best || compareInternalKeys(s.keyGroup, s.key, best.keyGroup, best.key) < 0)) best = s;
    }
    if (!best) {
      this.valid = false;
      return;
    }
    this.valid = true;
    this.keyGroup = best.keyGroup;
    this.key = best.key;
    this.value = best.value;
    for (const s of sources) {
      if (s.valid && s.keyGroup === this.keyGroup && s.key === this.key) {
        if (s !== best) this.shadowed++;
        s.next();
      }
    }
  }

  close(): void {
    for (const s of this.sources) s.close();
    this.valid = false;
  }
}

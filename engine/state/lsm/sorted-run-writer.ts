import { entrySizeBytes } from '../state-size.ts';
import { encodeBlock } from './block-codec.ts';
import { TOMBSTONE, type LsmValue } from './internal-key.ts';
import type { LsmStorage } from './lsm-storage.ts';
import type { SortedRun } from './sorted-run.ts';

/**
 * Writes one sorted run (RocksDB's table builder): entries arrive in (key group, key) order, are
 * cut into blocks of about `blockSizeBytes` (estimated with the shared entry-size estimate), and
 * each full block is stored at once, so a run never sits in memory whole.
 */
export class SortedRunWriter {
  #keyGroups: number[] = [];
  #keys: string[] = [];
  #values: LsmValue[] = [];
  #blockBytes = 0;
  #index = { keyGroups: [] as number[], keys: [] as string[] };
  #sizeBytes = 0;
  #entries = 0;
  #tombstones = 0;
  #created = false;
  #hash = new ContentHash();
  #first: { keyGroup: number; key: string } | undefined;
  #last: { keyGroup: number; key: string } | undefined;

  constructor(
    private readonly storage: LsmStorage,
    readonly id: number,
    private readonly dbName: string,
    private readonly columnFamily: string,
    private readonly level: number,
    private readonly blockSizeBytes: number,
  ) {}

  get entryCount(): number {
    return this.#entries;
  }

  /** Bytes written so far plus the open block's estimate (splitting outputs by size uses it). */
  get estimatedBytes(): number {
    return this.#sizeBytes + this.#blockBytes;
  }

  add(keyGroup: number, key: string, value: LsmValue): void {
    if (this.#keys.length === 0) {
      this.#index.keyGroups.push(keyGroup);
      this.#index.keys.push(key);
    }
    this.#first ??= { keyGroup, key };
    this.#last = { keyGroup, key };
    this.#keyGroups.push(keyGroup);
    this.#keys.push(key);
    this.#values.push(value);
    this.#entries++;
    if (value === TOMBSTONE) this.#tombstones++;
    this.#blockBytes += value === TOMBSTONE ? 8 + key.length : entrySizeBytes(key, value);
    if (this.#blockBytes >= this.blockSizeBytes) this.#flushBlock();
  }

  /** The finished run (not yet in the tree), or undefined if nothing was added. */
  finish(): SortedRun | undefined {
    if (this.#keys.length > 0) this.#flushBlock();
    if (this.#entries === 0) return undefined;
    const indexBytes = this.#index.keys.reduce((n, k) => n + 8 + k.length, 0);
    return {
      id: this.id,
      name: `${this.dbName}-${String(this.id).padStart(6, '0')}-${this.#hash.hex()}.sst`,
      columnFamily: this.columnFamily,
      level: this.level,
      minKeyGroup: this.#first!.keyGroup,
      minKey: this.#first!.key,
      maxKeyGroup: this.#last!.keyGroup,
      maxKey: this.#last!.key,
      entryCount: this.#entries,
      tombstoneCount: this.#tombstones,
      sizeBytes: this.#sizeBytes + indexBytes,
      blockCount: this.#index.keys.length,
      index: this.#index,
      cacheKeyBase: 0,
    };
  }

  #flushBlock(): void {
    if (!this.#created) {
      this.storage.createRun(this.id);
      this.#created = true;
    }
    const data = encodeBlock(this.#keyGroups, this.#keys, this.#values);
    this.#hash.update(data);
    this.#sizeBytes += this.storage.writeBlock(this.id, this.#index.keys.length - 1, data);
    this.#keyGroups = [];
    this.#keys = [];
    this.#values = [];
    this.#blockBytes = 0;
  }
}

/** A 64-bit content hash (two multiply-xor lanes) for file names; not cryptographic. */
class ContentHash {
  #h1 = 0xdeadbeef;
  #h2 = 0x41c6ce57;

  update(text: string): void {
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    this.#h1 = h1;
    this.#h2 = h2;
  }

  hex(): string {
    let h1 = this.#h1;
    let h2 = this.#h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
  }
}

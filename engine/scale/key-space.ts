/**
 * The keys a source's records carry, as a keyed vertex fed by it over a hash edge sees them: for
 * every key `key-<i>`, the subtask whose key groups hold it (Flink's key-group assignment), how
 * often a record carries it, and the bytes its entry takes in keyed state. From these follow what
 * the record-level runtime would build without moving a record:
 *
 * - each subtask's share of the records (key skew: a Zipf-skewed source makes one subtask busier);
 * - each subtask's keyed state after the sources read `n` records each: one entry per key seen.
 *   A `sequence` source gives record i the key i mod keys, in every source subtask alike, so a key
 *   is seen once `n` passes its index; a `random` one draws each record's key independently, so a
 *   key of probability p is seen with probability 1 − (1 − p)^(n × source subtasks) (the expected
 *   number of distinct keys, the coupon collector's).
 */
import { assignToKeyGroup } from '../keys/key-group-assignment.ts';
import type { SourceSpec } from '../scenario/scenario-types.ts';
import { ZipfDistribution } from '../sources/zipf-distribution.ts';
import { compressSnapshot } from '../state/snapshot-compression.ts';
import { entrySizeBytes } from '../state/state-size.ts';

/** The source kinds whose keys are known without reading the data (`lines` makes its keys from the text). */
export type KeyedSource = Extract<SourceSpec, { kind: 'sequence' | 'random' }>;

export function hasKnownKeys(source: SourceSpec): source is KeyedSource {
  return source.kind === 'sequence' || source.kind === 'random';
}

/**
 * An entry in a sorted run's data block: `keyGroup,"key",count,` in the block's JSON array
 * (block-codec.ts), a count taken as one digit; each 4 kB block adds its mode, brackets and an
 * index entry (about 20 bytes).
 */
function sstEntryBytes(keyGroup: number, key: string): number {
  const BLOCK_OVERHEAD = 1 + 20 / 4096;
  return (String(keyGroup).length + JSON.stringify(key).length + 1 + 3) * BLOCK_OVERHEAD;
}

export class KeySpace {
  /** per subtask: the fraction of the records that go to it */
  readonly recordShare: number[];
  readonly #source: KeyedSource;
  readonly #sourceParallelism: number;
  /** per key (by index): its subtask, its probability and its entry's bytes */
  readonly #subtask: Int32Array;
  readonly #keyGroup: Int32Array;
  readonly #probability: Float64Array;
  readonly #bytes: Float64Array;
  /** per key: the bytes its entry takes in a flushed SST file (a JSON triple of key group, key and a one-digit count) */
  readonly #sstBytes: Float64Array;
  readonly #parallelism: number;

  /**
   * `subtaskOfKeyGroup` maps a key group to the keyed vertex's subtask owning it (its
   * KeyGroupRanges); `entryBytes` is what one key's state takes (by default one count or sum).
   */
  constructor(source: KeyedSource, sourceParallelism: number, maxParallelism: number, parallelism: number, subtaskOfKeyGroup: (keyGroup: number) => number, entryBytes: (key: string) => number = (key) => entrySizeBytes(key, 0)) {
    this.#source = source;
    this.#sourceParallelism = sourceParallelism;
    this.#parallelism = parallelism;
    const keys = source.keys;
    const zipf = source.kind === 'random' ? new ZipfDistribution(keys, source.skew) : undefined;
    this.#subtask = new Int32Array(keys);
    this.#keyGroup = new Int32Array(keys);
    this.#probability = new Float64Array(keys);
    this.#bytes = new Float64Array(keys);
    this.#sstBytes = new Float64Array(keys);
    this.recordShare = new Array<number>(parallelism).fill(0);
    for (let i = 0; i < keys; i++) {
      const key = `key-${i}`;
      const keyGroup = assignToKeyGroup(key, maxParallelism);
      const subtask = subtaskOfKeyGroup(keyGroup);
      this.#keyGroup[i] = keyGroup;
      const p = zipf ? zipf.probability(i) : 1 / keys;
      this.#subtask[i] = subtask;
      this.#probability[i] = p;
      this.#bytes[i] = entryBytes(key);
      this.#sstBytes[i] = sstEntryBytes(keyGroup, key);
      this.recordShare[subtask]! += p;
    }
  }

  /** Bytes of each subtask's keyed state once every source subtask has read `recordsPerSourceSubtask` records. */
  stateBytes(recordsPerSourceSubtask: number): number[] {
    return this.touchedBytes(0, recordsPerSourceSubtask);
  }

  /**
   * Bytes of each subtask's entries written by the records each source subtask read from offset
   * `from` to `to`: what a RocksDB memtable collects between two checkpoints (a key written twice
   * is one entry), so what an incremental checkpoint's new files hold.
   */
  touchedBytes(from: number, to: number): number[] {
    return this.#touched(from, to, this.#bytes);
  }

  /** Per key (by index): whether (sequence) or how likely (random) the records between the two offsets wrote it. */
  seenPerKey(from: number, to: number): Float64Array {
    const draws = Math.max(0, to - from) * this.#sourceParallelism;
    return Float64Array.from({ length: this.#subtask.length }, (_, i) => this.#seen(i, from, to, draws));
  }

  /** The subtask holding key `key-<index>`. */
  subtaskOfKey(index: number): number {
    return this.#subtask[index]!;
  }

  /**
   * What the memtable flushes between the two offsets write as SST files, per subtask: the memtable
   * (per subtask) fills with the distinct keys written until it holds `writeBufferBytes` of entries,
   * is flushed into a sorted run, and starts again, so a key written before and after a flush is
   * in two runs; the last run is the checkpoint's own flush.
   */
  flushedSstBytes(from: number, to: number, writeBufferBytes: number): number[] {
    return this.recordShare.map((_, subtask) => {
      let bytes = 0;
      for (let start = from; start < to; ) {
        const end = this.#memtableFullAt(subtask, start, to, writeBufferBytes);
        bytes += this.#touched(start, end, this.#sstBytes)[subtask]!;
        start = end;
      }
      return bytes;
    });
  }

  /** The offset at which the subtask's memtable, filled from `start`, reaches `writeBufferBytes` (or `to`). */
  #memtableFullAt(subtask: number, start: number, to: number, writeBufferBytes: number): number {
    if (this.#touched(start, to, this.#bytes)[subtask]! < writeBufferBytes) return to;
    let low = start;
    let high = to;
    // to a record: the flush happens on the write that fills the buffer
    while (high - low > 1) {
      const mid = (low + high) / 2;
      if (this.#touched(start, mid, this.#bytes)[subtask]! < writeBufferBytes) low = mid;
      else high = mid;
    }
    return high;
  }

  /** How many distinct keys each subtask saw written between the two offsets. */
  touchedKeys(from: number, to: number): number[] {
    return this.#touched(from, to, undefined);
  }

  /**
   * Per subtask: what `execution.checkpointing.snapshot-compression` makes of a count's full
   * snapshot, as compressed bytes over raw. Its key groups are serialized and snappy-compressed one
   * by one, as the heap snapshot writes them, holding as many keys as are expected to be seen after
   * the sources read `recordsPerSourceSubtask` records each (picked by systematic sampling of their
   * probabilities, so sparse key groups compress as sparsely), each with its expected count.
   */
  compressionRatio(stateName: string, recordsPerSourceSubtask: number): number[] {
    const n = Math.max(0, recordsPerSourceSubtask);
    const draws = n * this.#sourceParallelism;
    const groups = new Map<number, Array<[string, number]>>();
    const subtaskOfGroup = new Map<number, number>();
    const raw = new Array<number>(this.#parallelism).fill(0);
    let expected = 0;
    for (let i = 0; i < this.#subtask.length; i++) {
      const seen = this.#seen(i, 0, n, draws);
      const before = Math.floor(expected);
      expected += seen;
      if (Math.floor(expected) === before) continue;
      const keyGroup = this.#keyGroup[i]!;
      const entries = groups.get(keyGroup) ?? [];
      groups.set(keyGroup, entries);
      subtaskOfGroup.set(keyGroup, this.#subtask[i]!);
      // a sequence key's count, or a random key's expected count once it is seen
      const count = this.#source.kind === 'sequence' ? Math.ceil((n - i) / this.#subtask.length) * this.#sourceParallelism : (draws * this.#probability[i]!) / seen;
      entries.push([`key-${i}`, Math.max(1, Math.round(count))]);
      raw[this.#subtask[i]!]! += this.#bytes[i]!;
    }
    const compressed = new Array<number>(this.#parallelism).fill(0);
    for (const [keyGroup, entries] of groups) {
      entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const snapshot = compressSnapshot({ keyGroupRange: { start: keyGroup, end: keyGroup }, keyGroups: [{ keyGroup, states: { [stateName]: entries } }], sizeBytes: 0 });
      compressed[subtaskOfGroup.get(keyGroup)!]! += snapshot.sizeBytes;
    }
    return compressed.map((bytes, s) => (raw[s] === 0 ? 1 : bytes / raw[s]!));
  }

  /** Whether (sequence) or how likely (random) key `i` was written by the records from offset `from` to `to`. */
  #seen(i: number, from: number, to: number, draws: number): number {
    const length = Math.max(0, to - from);
    const keys = this.#subtask.length;
    if (this.#source.kind !== 'sequence') return draws === 0 ? 0 : -Math.expm1(draws * Math.log1p(-this.#probability[i]!));
    const start = ((Math.floor(from) % keys) + keys) % keys;
    return length >= keys || (i - start + keys) % keys < length ? 1 : 0;
  }

  #touched(from: number, to: number, weight: Float64Array | undefined): number[] {
    const bytes = new Array<number>(this.#parallelism).fill(0);
    const draws = Math.max(0, to - from) * this.#sourceParallelism;
    for (let i = 0; i < this.#subtask.length; i++) bytes[this.#subtask[i]!]! += this.#seen(i, from, to, draws) * (weight ? weight[i]! : 1);
    return bytes;
  }
}

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
 *   number of distinct keys, the coupon collector's); the words a `split-words` map makes of a
 *   `lines` source (record i is line i mod lines, in every source subtask alike) are seen once `n`
 *   passes the first line holding them.
 */
import { assignToKeyGroup } from '../keys/key-group-assignment.ts';
import type { SourceSpec } from '../scenario/scenario-types.ts';
import { ZipfDistribution } from '../sources/zipf-distribution.ts';
import { compressSnapshot } from '../state/snapshot-compression.ts';
import { entrySizeBytes } from '../state/state-size.ts';

/** The words a `split-words` map makes of a `lines` source's lines (its keys are the lowercased words). */
export interface WordsOfLines {
  kind: 'words';
  lines: string[];
  /** lines per second per source subtask */
  rate_per_s: number;
}

/** Sources whose keys are known without reading the data: a sequence, random keys, or the words of lines. */
export type KeyedSource = Extract<SourceSpec, { kind: 'sequence' | 'random' }> | WordsOfLines;

export function hasKnownKeys(source: SourceSpec): source is Extract<SourceSpec, { kind: 'sequence' | 'random' }> {
  return source.kind === 'sequence' || source.kind === 'random';
}

/** The map operator's split: maximal runs of letters, digits and apostrophes, lowercased (map-operator.ts). */
const WORD = /[\p{L}\p{N}']+/gu;

/** The keys of a source in index order, each key's probability, and for words, the lines holding each. */
function keyUniverse(source: KeyedSource): { names: string[]; probability: (i: number) => number; linesOf?: number[][] } {
  if (source.kind === 'words') {
    const linesOf = new Map<string, number[]>();
    const occurrences = new Map<string, number>();
    source.lines.forEach((line, j) => {
      for (const match of line.matchAll(WORD)) {
        const word = match[0].toLowerCase();
        occurrences.set(word, (occurrences.get(word) ?? 0) + 1);
        const lines = linesOf.get(word) ?? [];
        if (lines.at(-1) !== j) lines.push(j);
        linesOf.set(word, lines);
      }
    });
    const names = [...linesOf.keys()];
    const total = [...occurrences.values()].reduce((a, b) => a + b, 0);
    return { names, probability: (i) => occurrences.get(names[i]!)! / total, linesOf: names.map((w) => linesOf.get(w)!) };
  }
  const names = Array.from({ length: source.keys }, (_, i) => `key-${i}`);
  const zipf = source.kind === 'random' ? new ZipfDistribution(source.keys, source.skew) : undefined;
  return { names, probability: (i) => (zipf ? zipf.probability(i) : 1 / source.keys) };
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
  readonly #names: string[];
  /** words of lines: per key, the lines (by index) that hold it */
  readonly #linesOf: number[][] | undefined;

  /**
   * `subtaskOfKeyGroup` maps a key group to the keyed vertex's subtask owning it (its
   * KeyGroupRanges); `entryBytes` is what one key's state takes (by default one count or sum).
   */
  constructor(source: KeyedSource, sourceParallelism: number, maxParallelism: number, parallelism: number, subtaskOfKeyGroup: (keyGroup: number) => number, entryBytes: (key: string) => number = (key) => entrySizeBytes(key, 0)) {
    this.#source = source;
    this.#sourceParallelism = sourceParallelism;
    this.#parallelism = parallelism;
    const universe = keyUniverse(source);
    this.#names = universe.names;
    this.#linesOf = universe.linesOf;
    const keys = universe.names.length;
    this.#subtask = new Int32Array(keys);
    this.#keyGroup = new Int32Array(keys);
    this.#probability = new Float64Array(keys);
    this.#bytes = new Float64Array(keys);
    this.#sstBytes = new Float64Array(keys);
    this.recordShare = new Array<number>(parallelism).fill(0);
    for (let i = 0; i < keys; i++) {
      const key = universe.names[i]!;
      const keyGroup = assignToKeyGroup(key, maxParallelism);
      const subtask = subtaskOfKeyGroup(keyGroup);
      this.#keyGroup[i] = keyGroup;
      const p = universe.probability(i);
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

  /** The subtask holding the key of that index. */
  subtaskOfKey(index: number): number {
    return this.#subtask[index]!;
  }

  /** The key of that index (`key-<index>`, or a word). */
  keyName(index: number): string {
    return this.#names[index]!;
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
      const count = this.#expectedWrites(i, n, draws) / seen;
      entries.push([this.#names[i]!, Math.max(1, Math.round(count))]);
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

  /** How often key `i` was written once every source subtask read `n` records (`draws` all together). */
  #expectedWrites(i: number, n: number, draws: number): number {
    if (this.#source.kind === 'sequence') return Math.ceil((n - i) / this.#subtask.length) * this.#sourceParallelism;
    if (this.#source.kind === 'random') return draws * this.#probability[i]!;
    const lines = this.#source.lines.length;
    return this.#linesOf![i]!.reduce((k, j) => k + Math.max(0, Math.ceil((n - j) / lines)), 0) * this.#sourceParallelism;
  }

  /** Whether (sequence) or how likely (random) key `i` was written by the records from offset `from` to `to`. */
  #seen(i: number, from: number, to: number, draws: number): number {
    if (this.#source.kind === 'random') return draws === 0 ? 0 : -Math.expm1(draws * Math.log1p(-this.#probability[i]!));
    // a cycle: the key of index i (a sequence), or the lines holding word i, read between the offsets
    const cycle = this.#source.kind === 'words' ? this.#source.lines.length : this.#subtask.length;
    const positions = this.#linesOf?.[i] ?? [i];
    const length = Math.max(0, to - from);
    const start = ((Math.floor(from) % cycle) + cycle) % cycle;
    return length >= cycle || positions.some((j) => (j - start + cycle) % cycle < length) ? 1 : 0;
  }

  #touched(from: number, to: number, weight: Float64Array | undefined): number[] {
    const bytes = new Array<number>(this.#parallelism).fill(0);
    const draws = Math.max(0, to - from) * this.#sourceParallelism;
    for (let i = 0; i < this.#subtask.length; i++) bytes[this.#subtask[i]!]! += this.#seen(i, from, to, draws) * (weight ? weight[i]! : 1);
    return bytes;
  }
}

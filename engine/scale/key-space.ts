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
import { entrySizeBytes } from '../state/state-size.ts';

/** The source kinds whose keys are known without reading the data (`lines` makes its keys from the text). */
export type KeyedSource = Extract<SourceSpec, { kind: 'sequence' | 'random' }>;

export function hasKnownKeys(source: SourceSpec): source is KeyedSource {
  return source.kind === 'sequence' || source.kind === 'random';
}

export class KeySpace {
  /** per subtask: the fraction of the records that go to it */
  readonly recordShare: number[];
  readonly #source: KeyedSource;
  readonly #sourceParallelism: number;
  /** per key (by index): its subtask, its probability and its entry's bytes */
  readonly #subtask: Int32Array;
  readonly #probability: Float64Array;
  readonly #bytes: Float64Array;
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
    this.#probability = new Float64Array(keys);
    this.#bytes = new Float64Array(keys);
    this.recordShare = new Array<number>(parallelism).fill(0);
    for (let i = 0; i < keys; i++) {
      const key = `key-${i}`;
      const subtask = subtaskOfKeyGroup(assignToKeyGroup(key, maxParallelism));
      const p = zipf ? zipf.probability(i) : 1 / keys;
      this.#subtask[i] = subtask;
      this.#probability[i] = p;
      this.#bytes[i] = entryBytes(key);
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

  /** How many distinct keys each subtask saw written between the two offsets. */
  touchedKeys(from: number, to: number): number[] {
    return this.#touched(from, to, undefined);
  }

  #touched(from: number, to: number, weight: Float64Array | undefined): number[] {
    const bytes = new Array<number>(this.#parallelism).fill(0);
    const length = Math.max(0, to - from);
    const keys = this.#subtask.length;
    const start = ((Math.floor(from) % keys) + keys) % keys;
    const draws = length * this.#sourceParallelism;
    for (let i = 0; i < keys; i++) {
      const touched = this.#source.kind === 'sequence' ? (length >= keys || (i - start + keys) % keys < length ? 1 : 0) : draws === 0 ? 0 : -Math.expm1(draws * Math.log1p(-this.#probability[i]!));
      bytes[this.#subtask[i]!]! += touched * (weight ? weight[i]! : 1);
    }
    return bytes;
  }
}

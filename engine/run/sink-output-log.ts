import type { StreamRecord } from '../protocol.ts';
import { KeyedValueLog } from './keyed-value-log.ts';

/** What the sink's external system holds for one key. */
export interface KeyOutput {
  /** records written for the key */
  records: number;
  /** sum of their values */
  sum: number;
  /** the value of the last record written */
  last: number;
}

/** One key's figures, and its index in the log of values. */
interface KeyEntry extends KeyOutput {
  readonly index: number;
}

/** Duplicates and missing records of an output against the failure-free output. */
export interface OutputComparison {
  duplicates: number;
  missing: number;
}

/** The outputs of the keys one stream of column batches named so far, in the order named (SinkOutputLog.writeColumns). */
export class ColumnKeyStream {
  readonly outputs: KeyEntry[] = [];
}

/**
 * The sink's external system: every record written (a plain sink) or committed (a two-phase
 * commit sink), kept per key and as a multiset of (key, value) so that duplicates and missing
 * records can be counted against a failure-free run. Comparing multisets rather than sequences
 * is exact for the playground's operators, whose outputs do not depend on input interleaving.
 */
export class SinkOutputLog {
  /** per key: the figures, and the key's index in #values (keys in the order first written) */
  readonly #perKey = new Map<string, KeyEntry>();
  /**
   * every value written, in write order, with its key's index: an append-only log rather than a
   * value → count map, because every sink record of the job is written here (the live runtime's
   * main thread, the sim's hot path) and an append is several times cheaper than a map update;
   * compareTo groups and sorts when it is asked.
   */
  readonly #values = new KeyedValueLog();
  totalRecords = 0;
  readonly #committed = new Set<string>();

  /** A two-phase-commit sink commits a transaction: written once, however often it is committed. */
  commit(transactionId: string, records: readonly StreamRecord[]): void {
    if (this.#committed.has(transactionId)) return;
    this.#committed.add(transactionId);
    this.write(records);
  }

  write(records: readonly StreamRecord[]): void {
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!;
      this.#append(this.#output(r.key), r.value);
    }
    this.totalRecords += records.length;
  }

  /**
   * What write() does, for records in columns (record i: keyNames[keys[i]], values[i]), each key
   * named in the order it first occurs. The live runtime's main thread receives every sink record
   * so: each distinct key is looked up once per batch instead of once per record, and no record
   * object is made. With a `stream`, the batch is one of a stream whose batches name only new keys
   * (a live TaskManager's report port: workers/sink-output-columns.ts): `keyNames` are all the
   * names the stream named so far, and a key is looked up once per stream, not once per batch.
   */
  writeColumns(keyNames: readonly string[], keys: ArrayLike<number>, values: ArrayLike<number>, stream = new ColumnKeyStream()): void {
    const outputs = stream.outputs;
    for (let k = outputs.length; k < keyNames.length; k++) outputs.push(this.#output(keyNames[k]!));
    for (let i = 0; i < keys.length; i++) this.#append(outputs[keys[i]!]!, values[i]!);
    this.totalRecords += keys.length;
  }

  #output(key: string): KeyEntry {
    let k = this.#perKey.get(key);
    if (!k) this.#perKey.set(key, (k = { records: 0, sum: 0, last: 0, index: this.#perKey.size }));
    return k;
  }

  #append(k: KeyEntry, value: number): void {
    k.records++;
    k.sum += value;
    k.last = value;
    this.#values.append(k.index, value);
  }

  /** Per key, sorted by key, as the CLI's `output.perKey`. */
  perKey(): Record<string, KeyOutput> {
    const keys = [...this.#perKey.keys()].sort();
    return Object.fromEntries(
      keys.map((key) => {
        const { records, sum, last } = this.#perKey.get(key)!;
        return [key, { records, sum, last }];
      }),
    );
  }

  /** Counts records written more often than in `expected` (duplicates) and less often (missing). */
  compareTo(expected: SinkOutputLog): OutputComparison {
    const total = { duplicates: 0, missing: 0 };
    const mine = this.#values.groupByKey(this.#perKey.size);
    const theirs = expected.#values.groupByKey(expected.#perKey.size);
    for (const [key, { index }] of this.#perKey) {
      const other = expected.#perKey.get(key);
      const { duplicates, missing } = compareMultisets(mine[index]!, other ? theirs[other.index]! : new Float64Array(0));
      total.duplicates += duplicates;
      total.missing += missing;
    }
    for (const [key, { index }] of expected.#perKey) if (!this.#perKey.has(key)) total.missing += theirs[index]!.length;
    return total;
  }
}

/** Duplicates and missing of one key's values against the expected ones, as multisets: both sorted (in place), then merged. */
function compareMultisets(mine: Float64Array, expected: Float64Array): OutputComparison {
  const a = mine.sort();
  const b = expected.sort();
  let duplicates = 0;
  let missing = 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    // the next value in order; NaN sorts last and equals itself, as in a Map key
    const value = j >= b.length || (i < a.length && sortsBefore(a[i]!, b[j]!)) ? a[i]! : b[j]!;
    let n = 0;
    let e = 0;
    while (i < a.length && sameValue(a[i]!, value)) (i++, n++);
    while (j < b.length && sameValue(b[j]!, value)) (j++, e++);
    if (n > e) duplicates += n - e;
    else missing += e - n;
  }
  return { duplicates, missing };
}

/** The order of a sorted Float64Array: numbers ascending, NaN last. */
function sortsBefore(x: number, y: number): boolean {
  return x < y || (y !== y && x === x);
}

function sameValue(x: number, y: number): boolean {
  return x === y || (x !== x && y !== y);
}

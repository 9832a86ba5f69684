import type { StreamRecord } from '../protocol.ts';

/** What the sink's external system holds for one key. */
export interface KeyOutput {
  /** records written for the key */
  records: number;
  /** sum of their values */
  sum: number;
  /** the value of the last record written */
  last: number;
}

/** Duplicates and missing records of an output against the failure-free output. */
export interface OutputComparison {
  duplicates: number;
  missing: number;
}

/**
 * The sink's external system: every record written (a plain sink) or committed (a two-phase
 * commit sink), kept per key and as a multiset of (key, value) so that duplicates and missing
 * records can be counted against a failure-free run. Comparing multisets rather than sequences
 * is exact for the playground's operators, whose outputs do not depend on input interleaving.
 */
export class SinkOutputLog {
  /** per key: the figures, and how often each value was written (the multiset, per key) */
  readonly #perKey = new Map<string, KeyOutput & { values: Map<number, number> }>();
  totalRecords = 0;
  readonly #committed = new Set<string>();

  /** A two-phase-commit sink commits a transaction: written once, however often it is committed. */
  commit(transactionId: string, records: readonly StreamRecord[]): void {
    if (this.#committed.has(transactionId)) return;
    this.#committed.add(transactionId);
    this.write(records);
  }

  write(records: readonly StreamRecord[]): void {
    for (const r of records) {
      let k = this.#perKey.get(r.key);
      if (!k) this.#perKey.set(r.key, (k = { records: 0, sum: 0, last: 0, values: new Map() }));
      k.records++;
      k.sum += r.value;
      k.last = r.value;
      k.values.set(r.value, (k.values.get(r.value) ?? 0) + 1);
    }
    this.totalRecords += records.length;
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
    let duplicates = 0;
    let missing = 0;
    for (const [key, mine] of this.#perKey) {
      const theirs = expected.#perKey.get(key)?.values;
      for (const [value, n] of mine.values) {
        const e = theirs?.get(value) ?? 0;
        if (n > e) duplicates += n - e;
        else missing += e - n;
      }
    }
    for (const [key, theirs] of expected.#perKey) {
      const mine = this.#perKey.get(key)?.values;
      for (const [value, e] of theirs.values) if (!mine?.has(value)) missing += e;
    }
    return { duplicates, missing };
  }
}

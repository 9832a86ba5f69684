/**
 * The exactly-once oracle of the page, kept up to date record by record: this run's sink output
 * against the failure-free run's, as multisets of (key, value), the way SinkOutputLog.compareTo
 * counts them (engine/run/sink-output-log.ts), but in O(1) per record instead of a walk over the
 * whole output, so the page can show it live for jobs with many keys and long runs.
 *
 * Three streams come in:
 * - `mine`: what this run's sink wrote;
 * - `ahead`: what the failure-free run wrote, running a little ahead of this run;
 * - `now`: the failure-free run's writes as this run's clock reaches their time.
 * Duplicates are counted against `ahead` (a commit that merely came earlier after a restart is
 * not a duplicate) and missing records against `now` (what the failure-free run had by now).
 */
import type { StreamRecord } from '../../../engine/protocol.ts';
import type { KeyOutput } from '../../../engine/run/sink-output-log.ts';

/** One key of the sink output, this run next to the failure-free run at the same time. */
export interface OutputRow {
  key: string;
  mine: KeyOutput;
  reference: KeyOutput;
  duplicates: number;
  missing: number;
}

/** How often one (key, value) was written: here (m), by the run ahead (a), by the run at now (n). */
interface ValueCount {
  m: number;
  a: number;
  n: number;
}

interface KeyTally {
  values: Map<number, ValueCount>;
  mine: KeyOutput;
  now: KeyOutput;
  duplicates: number;
  missing: number;
}

const emptyOutput = (): KeyOutput => ({ records: 0, sum: 0, last: 0 });

function add(output: KeyOutput, value: number): void {
  output.records++;
  output.sum += value;
  output.last = value;
}

export class OutputOracle {
  duplicates = 0;
  missing = 0;
  totalMine = 0;
  totalNow = 0;
  readonly #keys = new Map<string, KeyTally>();
  /** keys with duplicates or missing records, for the rows worth showing first */
  readonly #discrepant = new Set<string>();

  get keyCount(): number {
    return this.#keys.size;
  }

  mine(records: readonly StreamRecord[]): void {
    for (const r of records) {
      const { tally, count } = this.#cell(r);
      if (count.m >= count.a) this.#duplicate(tally, r.key, 1);
      if (count.n > count.m) this.#missing(tally, r.key, -1);
      count.m++;
      add(tally.mine, r.value);
    }
    this.totalMine += records.length;
  }

  ahead(records: readonly StreamRecord[]): void {
    for (const r of records) {
      const { tally, count } = this.#cell(r);
      if (count.m > count.a) this.#duplicate(tally, r.key, -1);
      count.a++;
    }
  }

  now(records: readonly StreamRecord[]): void {
    for (const r of records) {
      const { tally, count } = this.#cell(r);
      if (count.n >= count.m) this.#missing(tally, r.key, 1);
      count.n++;
      add(tally.now, r.value);
    }
    this.totalNow += records.length;
  }

  /**
   * Up to `limit` keys: those with duplicates or missing records first (most first), then the
   * others in the order they were first written.
   */
  rows(limit: number): OutputRow[] {
    const row = (key: string, tally: KeyTally): OutputRow => ({
      key,
      mine: { ...tally.mine },
      reference: { ...tally.now },
      duplicates: tally.duplicates,
      missing: tally.missing,
    });
    const rows = this.#mostDiscrepant(limit).map((key) => row(key, this.#keys.get(key)!));
    for (const [key, tally] of this.#keys) {
      if (rows.length >= limit) break;
      if (!this.#discrepant.has(key)) rows.push(row(key, tally));
    }
    return rows;
  }

  /** The `limit` keys with the most duplicates and missing records, most first; one pass, however many keys differ. */
  #mostDiscrepant(limit: number): string[] {
    const weight = (key: string) => {
      const tally = this.#keys.get(key)!;
      return tally.duplicates + tally.missing;
    };
    const before = (a: string, b: string) => weight(a) > weight(b) || (weight(a) === weight(b) && a < b);
    const top: string[] = [];
    for (const key of this.#discrepant) {
      if (top.length === limit && !before(key, top[top.length - 1]!)) continue;
      let lo = 0;
      let hi = top.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (before(top[mid]!, key)) lo = mid + 1;
        else hi = mid;
      }
      top.splice(lo, 0, key);
      if (top.length > limit) top.pop();
    }
    return top;
  }

  #cell(r: StreamRecord): { tally: KeyTally; count: ValueCount } {
    let tally = this.#keys.get(r.key);
    if (!tally) {
      tally = { values: new Map(), mine: emptyOutput(), now: emptyOutput(), duplicates: 0, missing: 0 };
      this.#keys.set(r.key, tally);
    }
    let count = tally.values.get(r.value);
    if (!count) tally.values.set(r.value, (count = { m: 0, a: 0, n: 0 }));
    return { tally, count };
  }

  #duplicate(tally: KeyTally, key: string, delta: number): void {
    tally.duplicates += delta;
    this.duplicates += delta;
    this.#track(tally, key);
  }

  #missing(tally: KeyTally, key: string, delta: number): void {
    tally.missing += delta;
    this.missing += delta;
    this.#track(tally, key);
  }

  #track(tally: KeyTally, key: string): void {
    if (tally.duplicates + tally.missing > 0) this.#discrepant.add(key);
    else this.#discrepant.delete(key);
  }
}

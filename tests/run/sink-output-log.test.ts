import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SinkOutputLog } from '../../engine/run/sink-output-log.ts';

const r = (key: string, value: number) => ({ key, value, timestamp: 0 });

describe('the sink output log', () => {
  it('counts a record written twice as one duplicate', () => {
    const expected = new SinkOutputLog();
    expected.write([r('a', 1), r('a', 2)]);
    const actual = new SinkOutputLog();
    actual.write([r('a', 1), r('a', 2), r('a', 2)]);
    expect(actual.compareTo(expected)).toEqual({ duplicates: 1, missing: 0 });
  });

  it('counts records of the expected output that never arrived as missing', () => {
    const expected = new SinkOutputLog();
    expected.write([r('a', 1), r('b', 1), r('b', 2)]);
    const actual = new SinkOutputLog();
    actual.write([r('b', 2)]);
    expect(actual.compareTo(expected)).toEqual({ duplicates: 0, missing: 2 });
  });

  it('treats the same records in another order as equal', () => {
    const expected = new SinkOutputLog();
    expected.write([r('a', 1), r('b', 1), r('a', 2)]);
    const actual = new SinkOutputLog();
    actual.write([r('a', 2), r('a', 1), r('b', 1)]);
    expect(actual.compareTo(expected)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('keeps per key the record count, the sum and the last value, sorted by key', () => {
    const log = new SinkOutputLog();
    log.write([r('b', 5), r('a', 1), r('b', 7)]);
    expect(log.perKey()).toEqual({ a: { records: 1, sum: 1, last: 1 }, b: { records: 2, sum: 12, last: 7 } });
    expect(Object.keys(log.perKey())).toEqual(['a', 'b']);
  });

  it('counts duplicates and missing as a per-key multiset count would, for any two outputs', () => {
    const output = fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), value: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(Number.NaN), fc.constant(0.5)) }), { maxLength: 40 });
    fc.assert(
      fc.property(output, output, (mine, theirs) => {
        const actual = new SinkOutputLog();
        actual.write(mine.map(({ key, value }) => r(key, value)));
        const expected = new SinkOutputLog();
        expected.write(theirs.map(({ key, value }) => r(key, value)));
        expect(actual.compareTo(expected)).toEqual(countedWithMaps(mine, theirs));
      }),
    );
  });
  it('holds the same per key figures and values when the records come in columns as when they come as objects', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.double())), (pairs) => {
        const records = pairs.map(([key, value]) => r(key, value));
        const keyNames = [...new Set(records.map((x) => x.key))];
        const asObjects = new SinkOutputLog();
        asObjects.write(records);
        const asColumns = new SinkOutputLog();
        asColumns.writeColumns(keyNames, Uint32Array.from(records, (x) => keyNames.indexOf(x.key)), Float64Array.from(records, (x) => x.value));
        expect(asColumns.totalRecords).toBe(records.length);
        expect(asColumns.perKey()).toEqual(asObjects.perKey());
        expect(asColumns.compareTo(asObjects)).toEqual({ duplicates: 0, missing: 0 });
      }),
    );
  });
});

/** The plain definition: per (key, value), how many more (duplicates) or fewer (missing) than expected. */
function countedWithMaps(mine: { key: string; value: number }[], theirs: { key: string; value: number }[]): { duplicates: number; missing: number } {
  const tally = new Map<string, number>();
  for (const { key, value } of mine) tally.set(`${key}|${value}`, (tally.get(`${key}|${value}`) ?? 0) + 1);
  for (const { key, value } of theirs) tally.set(`${key}|${value}`, (tally.get(`${key}|${value}`) ?? 0) - 1);
  let duplicates = 0;
  let missing = 0;
  for (const n of tally.values()) if (n > 0) duplicates += n; else missing -= n;
  return { duplicates, missing };
}

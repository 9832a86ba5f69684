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
});

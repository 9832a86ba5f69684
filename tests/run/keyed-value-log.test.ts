import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedValueLog } from '../../engine/run/keyed-value-log.ts';

/** The plain definition: each key's values in write order. */
function groupedWithArrays(pairs: ReadonlyArray<readonly [number, number]>, keyCount: number): number[][] {
  const grouped = Array.from({ length: keyCount }, () => [] as number[]);
  for (const [key, value] of pairs) grouped[key]!.push(value);
  return grouped;
}

describe('the keyed value log', () => {
  it('groups each key’s values in write order, across chunk boundaries, as per-key arrays would', () => {
    const keyCount = 7;
    // Lengths around the chunks' boundaries (256, 768, 1792, … then every 65,536) and past several full chunks.
    const lengths = [0, 1, 255, 256, 257, 767, 768, 769, 131_327, 200_000];
    for (const length of lengths) {
      const pairs = Array.from({ length }, (_, i) => [(i * 5 + (i >> 3)) % keyCount, i * 0.5 - 7] as const);
      const log = new KeyedValueLog();
      for (const [key, value] of pairs) log.append(key, value);
      const grouped = log.groupByKey(keyCount).map((values) => Array.from(values));
      expect(grouped, `${length} records`).toEqual(groupedWithArrays(pairs, keyCount));
    }
  });

  it('groups any writes as per-key arrays would', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.double({ noNaN: true })), { maxLength: 2000 }), (pairs) => {
        const log = new KeyedValueLog();
        for (const [key, value] of pairs) log.append(key, value);
        expect(log.groupByKey(5).map((values) => Array.from(values))).toEqual(groupedWithArrays(pairs, 5));
      }),
    );
  });
});

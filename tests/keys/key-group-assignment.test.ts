import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  assignKeyToParallelOperator,
  assignToKeyGroup,
  computeDefaultMaxParallelism,
  computeKeyGroupForKeyHash,
  computeKeyGroupRangeForOperatorIndex,
  computeOperatorIndexForKeyGroup,
  keyGroupAssigner,
  UPPER_BOUND_MAX_PARALLELISM,
} from '../../engine/keys/key-group-assignment.ts';

/** maxParallelism and a parallelism that fits under it. */
const parallelisms = fc
  .integer({ min: 1, max: UPPER_BOUND_MAX_PARALLELISM })
  .chain((maxParallelism) =>
    fc.record({
      maxParallelism: fc.constant(maxParallelism),
      parallelism: fc.integer({ min: 1, max: maxParallelism }),
    }),
  );

describe('assignToKeyGroup', () => {
  it('assigns key-0 to key group 31 with max parallelism 128', () => {
    expect(assignToKeyGroup('key-0', 128)).toBe(31);
  });

  it('assigns key-1 to key group 54 with max parallelism 128', () => {
    expect(assignToKeyGroup('key-1', 128)).toBe(54);
  });

  it('assigns key-2 to key group 126 with max parallelism 128', () => {
    expect(assignToKeyGroup('key-2', 128)).toBe(126);
  });

  it('assigns keys whose Java hashes collide to the same key group', () => {
    expect(assignToKeyGroup('Aa', 128)).toBe(assignToKeyGroup('BB', 128));
  });

  it('assigns an integer key by its Integer.hashCode', () => {
    expect(assignToKeyGroup(42, 128)).toBe(computeKeyGroupForKeyHash(42, 128));
  });

  it('always returns a key group in [0, maxParallelism)', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: UPPER_BOUND_MAX_PARALLELISM }), (key, maxP) => {
        const keyGroup = assignToKeyGroup(key, maxP);
        expect(keyGroup).toBeGreaterThanOrEqual(0);
        expect(keyGroup).toBeLessThan(maxP);
      }),
    );
  });

  it('rejects a max parallelism outside [1, 32768] with a RangeError', () => {
    expect(() => assignToKeyGroup('k', 0)).toThrow(RangeError);
    expect(() => assignToKeyGroup('k', 32769)).toThrow(/maxParallelism must be an integer from 1 to 32768, got 32769/);
    expect(() => assignToKeyGroup('k', 1.5)).toThrow(RangeError);
  });
});

describe('keyGroupAssigner', () => {
  it('assigns every string and number key the key group assignToKeyGroup gives it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.double()), fc.integer({ min: 1, max: UPPER_BOUND_MAX_PARALLELISM }), (key, maxP) => {
        expect(keyGroupAssigner(maxP)(key)).toBe(assignToKeyGroup(key, maxP));
      }),
    );
  });

  it('rejects a max parallelism outside [1, 32768] when it is made, before any key', () => {
    expect(() => keyGroupAssigner(0)).toThrow(RangeError);
    expect(() => keyGroupAssigner(32769)).toThrow(/maxParallelism must be an integer from 1 to 32768, got 32769/);
    expect(() => keyGroupAssigner(1.5)).toThrow(RangeError);
  });
});

describe('assignKeyToParallelOperator', () => {
  it('sends key-0, key-1 and key-2 to subtasks 0, 1 and 3 with maxP 128 and parallelism 4', () => {
    expect(assignKeyToParallelOperator('key-0', 128, 4)).toBe(0);
    expect(assignKeyToParallelOperator('key-1', 128, 4)).toBe(1);
    expect(assignKeyToParallelOperator('key-2', 128, 4)).toBe(3);
  });

  it('rejects a parallelism above the max parallelism', () => {
    expect(() => assignKeyToParallelOperator('k', 128, 129)).toThrow(
      /parallelism must be an integer from 1 to 128 \(the max parallelism\), got 129/,
    );
  });

  it('rejects a parallelism of 0', () => {
    expect(() => assignKeyToParallelOperator('k', 128, 0)).toThrow(RangeError);
  });
});

describe('computeOperatorIndexForKeyGroup', () => {
  it('computes keyGroup * parallelism / maxParallelism with integer division', () => {
    expect(computeOperatorIndexForKeyGroup(128, 4, 31)).toBe(0);
    expect(computeOperatorIndexForKeyGroup(128, 4, 32)).toBe(1);
    expect(computeOperatorIndexForKeyGroup(128, 4, 127)).toBe(3);
    expect(computeOperatorIndexForKeyGroup(10, 3, 7)).toBe(2);
  });

  it('rejects a key group outside [0, maxParallelism)', () => {
    expect(() => computeOperatorIndexForKeyGroup(128, 4, 128)).toThrow(
      /keyGroup must be an integer from 0 to 127, got 128/,
    );
    expect(() => computeOperatorIndexForKeyGroup(128, 4, -1)).toThrow(RangeError);
  });
});

describe('computeKeyGroupRangeForOperatorIndex', () => {
  it('splits 128 key groups into four ranges of 32 for parallelism 4', () => {
    expect([0, 1, 2, 3].map((i) => computeKeyGroupRangeForOperatorIndex(128, 4, i))).toEqual([
      { start: 0, end: 31 },
      { start: 32, end: 63 },
      { start: 64, end: 95 },
      { start: 96, end: 127 },
    ]);
  });

  it('gives the larger ranges to the later subtasks when maxP is not divisible by p', () => {
    expect([0, 1, 2].map((i) => computeKeyGroupRangeForOperatorIndex(10, 3, i))).toEqual([
      { start: 0, end: 3 },
      { start: 4, end: 6 },
      { start: 7, end: 9 },
    ]);
  });

  it('partitions [0, maxParallelism) into consecutive non-empty ranges without gaps', () => {
    fc.assert(
      fc.property(parallelisms, ({ maxParallelism, parallelism }) => {
        // Plain comparisons instead of expect() per subtask: parallelism goes up to 32768.
        let nextStart = 0;
        for (let i = 0; i < parallelism; i++) {
          const range = computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, i);
          if (range.start !== nextStart || range.end < range.start) return false;
          nextStart = range.end + 1;
        }
        return nextStart === maxParallelism;
      }),
    );
  });

  it('gives ranges whose sizes differ by at most one', () => {
    fc.assert(
      fc.property(parallelisms, ({ maxParallelism, parallelism }) => {
        const sizes = Array.from({ length: parallelism }, (_, i) => {
          const range = computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, i);
          return range.end - range.start + 1;
        });
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('agrees with computeOperatorIndexForKeyGroup for every key group of every range', () => {
    fc.assert(
      fc.property(
        parallelisms.chain((ps) =>
          fc.record({
            maxParallelism: fc.constant(ps.maxParallelism),
            parallelism: fc.constant(ps.parallelism),
            operatorIndex: fc.integer({ min: 0, max: ps.parallelism - 1 }),
          }),
        ),
        ({ maxParallelism, parallelism, operatorIndex }) => {
          const { start, end } = computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, operatorIndex);
          for (let keyGroup = start; keyGroup <= end; keyGroup++) {
            if (computeOperatorIndexForKeyGroup(maxParallelism, parallelism, keyGroup) !== operatorIndex) return false;
          }
          return true;
        },
      ),
    );
  });

  it('rejects an operator index outside [0, parallelism)', () => {
    expect(() => computeKeyGroupRangeForOperatorIndex(128, 4, 4)).toThrow(
      /operatorIndex must be an integer from 0 to 3, got 4/,
    );
  });
});

describe('computeDefaultMaxParallelism', () => {
  it('uses the lower bound 128 for small parallelisms', () => {
    expect(computeDefaultMaxParallelism(1)).toBe(128);
    expect(computeDefaultMaxParallelism(4)).toBe(128);
    expect(computeDefaultMaxParallelism(85)).toBe(128);
  });

  it('rounds 1.5 x parallelism up to a power of two', () => {
    expect(computeDefaultMaxParallelism(86)).toBe(256);
    expect(computeDefaultMaxParallelism(100)).toBe(256);
    expect(computeDefaultMaxParallelism(1000)).toBe(2048);
  });

  it('caps at 32768', () => {
    expect(computeDefaultMaxParallelism(21846)).toBe(32768);
    expect(computeDefaultMaxParallelism(30000)).toBe(32768);
    expect(computeDefaultMaxParallelism(32768)).toBe(32768);
  });

  it('is never below the parallelism', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: UPPER_BOUND_MAX_PARALLELISM }), (p) => {
        expect(computeDefaultMaxParallelism(p)).toBeGreaterThanOrEqual(p);
      }),
    );
  });

  it('rejects a parallelism outside [1, 32768]', () => {
    expect(() => computeDefaultMaxParallelism(0)).toThrow(/parallelism must be an integer from 1 to 32768, got 0/);
    expect(() => computeDefaultMaxParallelism(32769)).toThrow(RangeError);
  });
});

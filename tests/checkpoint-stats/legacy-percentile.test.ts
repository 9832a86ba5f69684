import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { legacyPercentile } from '../../engine/checkpoint/stats/legacy-percentile.ts';

// Expected values follow commons-math3 Percentile's documented LEGACY algorithm:
// pos = p(n+1); below 1 → minimum; from n on → maximum; else interpolate.
describe('legacyPercentile (commons-math Percentile, EstimationType.LEGACY)', () => {
  it('interpolates the median between the two middle values', () => {
    expect(legacyPercentile([100, 200], 0.5)).toBe(150);
  });

  it('places the 90th percentile of 1..10 at position 9.9', () => {
    const values = [10, 3, 7, 1, 5, 9, 2, 8, 4, 6];
    expect(legacyPercentile(values, 0.5)).toBe(5.5);
    expect(legacyPercentile(values, 0.9)).toBeCloseTo(9.9, 12);
  });

  it('returns the maximum once the position reaches the sample size', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(legacyPercentile(values, 0.95)).toBe(10);
    expect(legacyPercentile(values, 0.99)).toBe(10);
    expect(legacyPercentile(values, 0.999)).toBe(10);
  });

  it('returns the minimum while the position is below 1', () => {
    expect(legacyPercentile([7, 3, 5], 0.2)).toBe(3);
  });

  it('returns NaN for an empty sample and the value itself for a single one', () => {
    expect(legacyPercentile([], 0.5)).toBeNaN();
    expect(legacyPercentile([42], 0.001)).toBe(42);
  });

  it('computes the position from quantile × 100 / 100, as Flink and commons-math do', () => {
    // In doubles 0.999 × 100 / 100 is 0.9990000000000001, so with 1999 values the position is
    // 1998.0000000000002 rather than 1998, and the JVM returns 1998.0000000000002.
    const values = Array.from({ length: 1_999 }, (_, i) => i + 1);
    expect(legacyPercentile(values, 0.999)).toBe(1998.0000000000002);
  });

  it('rejects quantiles outside (0, 1] with a RangeError', () => {
    expect(() => legacyPercentile([1, 2], 0)).toThrow(RangeError);
    expect(() => legacyPercentile([1, 2], 1.01)).toThrow(/quantile must be in \(0, 1\]/);
  });

  it('always lies between the minimum and the maximum and grows with the quantile', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 50 }),
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        (values, q1, q2) => {
          const [low, high] = q1 <= q2 ? [q1, q2] : [q2, q1];
          const a = legacyPercentile(values, low);
          const b = legacyPercentile(values, high);
          expect(a).toBeGreaterThanOrEqual(Math.min(...values));
          expect(b).toBeLessThanOrEqual(Math.max(...values));
          expect(b).toBeGreaterThanOrEqual(a);
        },
      ),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { RandomSource } from '../../engine/sim/random-source.ts';
import { ZipfDistribution } from '../../engine/sources/zipf-distribution.ts';

function frequencies(zipf: ZipfDistribution, samples: number, seed: number): number[] {
  const random = new RandomSource(seed);
  const counts = new Array<number>(zipf.n).fill(0);
  for (let i = 0; i < samples; i++) counts[zipf.sample(random)]! += 1;
  return counts;
}

function chiSquare(zipf: ZipfDistribution, counts: readonly number[], samples: number): number {
  return counts.reduce((sum, observed, rank) => {
    const expected = samples * zipf.probability(rank);
    return sum + (observed - expected) ** 2 / expected;
  }, 0);
}

describe('ZipfDistribution', () => {
  it('samples every rank about equally often with exponent 0', () => {
    const counts = frequencies(new ZipfDistribution(10, 0), 100_000, 1);
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });

  it('makes rank 0 the most frequent and frequencies decrease with rank for exponent 1.2', () => {
    const counts = frequencies(new ZipfDistribution(10, 1.2), 100_000, 2);
    for (let rank = 1; rank < counts.length; rank++) {
      expect(counts[rank]!).toBeLessThan(counts[rank - 1]!);
    }
  });

  it('matches the expected Zipf probabilities (chi-square, 9 degrees of freedom)', () => {
    const zipf = new ZipfDistribution(10, 1.2);
    const counts = frequencies(zipf, 100_000, 3);
    // 27.9 is the 0.1% critical value; 40 leaves room while still catching a wrong distribution.
    expect(chiSquare(zipf, counts, 100_000)).toBeLessThan(40);
  });

  it('gives rank 0 probability 1 / H(n, s) and probabilities summing to 1', () => {
    const zipf = new ZipfDistribution(10, 1.2);
    let harmonic = 0;
    for (let k = 1; k <= 10; k++) harmonic += 1 / k ** 1.2;
    expect(zipf.probability(0)).toBeCloseTo(1 / harmonic, 12);
    const total = Array.from({ length: 10 }, (_, rank) => zipf.probability(rank)).reduce((a, b) => a + b);
    expect(total).toBeCloseTo(1, 12);
  });

  it('gives probability 0 to ranks outside [0, n)', () => {
    const zipf = new ZipfDistribution(3, 1);
    expect(zipf.probability(-1)).toBe(0);
    expect(zipf.probability(3)).toBe(0);
  });

  it('always samples rank 0 when there is a single rank', () => {
    const random = new RandomSource(4);
    const zipf = new ZipfDistribution(1, 2);
    for (let i = 0; i < 100; i++) expect(zipf.sample(random)).toBe(0);
  });

  it('samples only ranks in [0, n)', () => {
    const random = new RandomSource(5);
    const zipf = new ZipfDistribution(1000, 0.8);
    for (let i = 0; i < 10_000; i++) {
      const rank = zipf.sample(random);
      expect(Number.isInteger(rank) && rank >= 0 && rank < 1000).toBe(true);
    }
  });

  it('produces the same ranks for the same seed', () => {
    const zipf = new ZipfDistribution(50, 1.1);
    expect(frequencies(zipf, 1_000, 6)).toEqual(frequencies(zipf, 1_000, 6));
  });

  it('rejects a non-positive n and a negative or non-finite exponent', () => {
    expect(() => new ZipfDistribution(0, 1)).toThrow(/n must be an integer >= 1, got 0/);
    expect(() => new ZipfDistribution(2.5, 1)).toThrow(RangeError);
    expect(() => new ZipfDistribution(10, -1)).toThrow(/exponent must be a finite number >= 0, got -1/);
    expect(() => new ZipfDistribution(10, Number.NaN)).toThrow(RangeError);
  });
});

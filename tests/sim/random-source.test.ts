import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RandomSource } from '../../engine/sim/random-source.ts';

function draws(random: RandomSource, count: number): number[] {
  return Array.from({ length: count }, () => random.nextInt(0, 1_000_000));
}

describe('RandomSource', () => {
  it('produces the same sequence for the same seed', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        expect(draws(new RandomSource(seed), 20)).toEqual(draws(new RandomSource(seed), 20));
      }),
    );
  });

  it('keeps the sequence for seed 0 stable, so recorded runs replay identically', () => {
    const random = new RandomSource(0);
    expect(Array.from({ length: 8 }, () => random.nextInt(0, 9))).toEqual([7, 1, 2, 2, 5, 0, 6, 4]);
  });

  it('produces different sequences for neighbouring seeds', () => {
    const firsts = new Set([0, 1, 2, 3, 4, 5, 6, 7].map((seed) => draws(new RandomSource(seed), 4).join()));
    expect(firsts.size).toBe(8);
  });

  it('accepts unsigned 32-bit seeds as their int32 equivalent', () => {
    expect(new RandomSource(0xdeadbeef).seed).toBe(0xdeadbeef | 0);
    expect(draws(new RandomSource(0xdeadbeef), 5)).toEqual(draws(new RandomSource(0xdeadbeef | 0), 5));
  });

  it('rejects seeds that are not 32-bit integers', () => {
    expect(() => new RandomSource(1.5)).toThrow(RangeError);
    expect(() => new RandomSource(2 ** 32)).toThrow(/seed must be a 32-bit integer/);
  });
});

describe('RandomSource.nextInt', () => {
  it('stays within the inclusive bounds and reaches both ends', () => {
    const random = new RandomSource(11);
    const seen = new Set(Array.from({ length: 2_000 }, () => random.nextInt(-3, 3)));
    expect([...seen].sort((a, b) => a - b)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
  });

  it('returns the only value of a one-value range', () => {
    expect(new RandomSource(5).nextInt(9, 9)).toBe(9);
  });

  it('draws each value of a small range about equally often', () => {
    const random = new RandomSource(2024);
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) counts[random.nextInt(0, 9)]! += 1;
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });

  it('rejects min > max and non-integer bounds', () => {
    const random = new RandomSource(1);
    expect(() => random.nextInt(5, 4)).toThrow(RangeError);
    expect(() => random.nextInt(0, 1.5)).toThrow(/nextInt needs safe integers/);
  });
});

describe('RandomSource.nextFloat', () => {
  it('returns numbers in [0, 1) with a mean near 0.5', () => {
    const random = new RandomSource(3);
    let sum = 0;
    for (let i = 0; i < 50_000; i++) {
      const value = random.nextFloat();
      expect(value >= 0 && value < 1).toBe(true);
      sum += value;
    }
    expect(Math.abs(sum / 50_000 - 0.5)).toBeLessThan(0.01);
  });
});

describe('RandomSource.fork', () => {
  it('derives the same child stream from the same seed and label', () => {
    expect(draws(new RandomSource(7).fork('faults'), 10)).toEqual(draws(new RandomSource(7).fork('faults'), 10));
  });

  it('derives different child streams for different labels and from the parent', () => {
    const parent = new RandomSource(7);
    const sequences = new Set(
      [parent.fork('source-0'), parent.fork('source-1'), parent.fork('faults'), new RandomSource(7)].map((r) =>
        draws(r, 5).join(),
      ),
    );
    expect(sequences.size).toBe(4);
  });

  it('derives different child streams for different parent seeds', () => {
    expect(draws(new RandomSource(1).fork('faults'), 5)).not.toEqual(draws(new RandomSource(2).fork('faults'), 5));
  });

  it('does not shift a child when the parent or a new sibling draws numbers first', () => {
    const alone = draws(new RandomSource(99).fork('coordinator'), 10);

    const parent = new RandomSource(99);
    draws(parent, 3);
    draws(parent.fork('source-0'), 50);
    draws(parent.fork('new-consumer'), 50);
    expect(draws(parent.fork('coordinator'), 10)).toEqual(alone);
  });

  it('does not let the parent stream depend on forking', () => {
    const plain = new RandomSource(5);
    const forked = new RandomSource(5);
    forked.fork('anything');
    expect(draws(forked, 10)).toEqual(draws(plain, 10));
  });
});

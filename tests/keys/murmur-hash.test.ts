import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bitMix, murmurHash } from '../../engine/keys/murmur-hash.ts';

// Expected values were printed by Java running Flink's MathUtils.murmurHash / bitMix.
describe('murmurHash', () => {
  it('matches Flink MathUtils.murmurHash for sample inputs', () => {
    expect(murmurHash(0)).toBe(593689054);
    expect(murmurHash(1)).toBe(68075478);
    expect(murmurHash(-1)).toBe(1982413648);
    expect(murmurHash(42)).toBe(1134849565);
    expect(murmurHash(123456789)).toBe(1088346449);
  });

  it('matches Flink at the int32 extremes', () => {
    expect(murmurHash(2147483647)).toBe(1653689534);
    expect(murmurHash(-2147483648)).toBe(1718298732);
  });

  it('matches Flink for the hash codes of key-0, key-1 and key-2', () => {
    expect(murmurHash(101943362)).toBe(591317919);
    expect(murmurHash(101943363)).toBe(23124534);
    expect(murmurHash(101943364)).toBe(1439814910);
  });

  it('always returns a non-negative int32', () => {
    fc.assert(
      fc.property(fc.integer(), (code) => {
        const hash = murmurHash(code);
        expect(Number.isInteger(hash)).toBe(true);
        expect(hash).toBeGreaterThanOrEqual(0);
        expect(hash).toBeLessThanOrEqual(2147483647);
      }),
    );
  });
});

describe('bitMix', () => {
  it('matches Flink MathUtils.bitMix for sample inputs', () => {
    expect(bitMix(1)).toBe(1364076727);
    expect(bitMix(-1)).toBe(-2114883783);
    expect(bitMix(123456789)).toBe(-1168058214);
  });

  it('maps 0 to 0', () => {
    expect(bitMix(0)).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { javaHashCode, javaStringHashCode } from '../../engine/keys/java-string-hash.ts';

// Expected values were printed by Java 17 (`"...".hashCode()`, `Double.hashCode(...)`).
describe('javaStringHashCode', () => {
  it('matches Java String.hashCode for ASCII keys', () => {
    expect(javaStringHashCode('key-0')).toBe(101943362);
    expect(javaStringHashCode('key-1')).toBe(101943363);
    expect(javaStringHashCode('hello')).toBe(99162322);
  });

  it('hashes the empty string to 0', () => {
    expect(javaStringHashCode('')).toBe(0);
  });

  it('wraps around 32 bits like a Java int', () => {
    expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648);
  });

  it('hashes UTF-16 code units, counting a non-BMP character as two surrogates', () => {
    expect(javaStringHashCode('\u{1F600}')).toBe(1772899);
    expect(javaStringHashCode('ünïcødé')).toBe(-609219977);
  });

  it('gives the classic Java collision "Aa" / "BB" the same hash', () => {
    expect(javaStringHashCode('Aa')).toBe(2112);
    expect(javaStringHashCode('BB')).toBe(2112);
  });

  it('always returns an int32', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const hash = javaStringHashCode(s);
        expect(hash).toBe(hash | 0);
      }),
    );
  });
});

describe('javaHashCode', () => {
  it('hashes strings like String.hashCode', () => {
    expect(javaHashCode('key-2')).toBe(101943364);
  });

  it('hashes int32 integers to themselves, like Integer.hashCode', () => {
    expect(javaHashCode(0)).toBe(0);
    expect(javaHashCode(42)).toBe(42);
    expect(javaHashCode(-7)).toBe(-7);
    expect(javaHashCode(2147483647)).toBe(2147483647);
    expect(javaHashCode(-2147483648)).toBe(-2147483648);
  });

  it('treats -0 as the integer 0', () => {
    expect(javaHashCode(-0)).toBe(0);
  });

  it('hashes fractions like Double.hashCode', () => {
    expect(javaHashCode(1.5)).toBe(1073217536);
    expect(javaHashCode(0.5)).toBe(1071644672);
    expect(javaHashCode(-0.1)).toBe(639631363);
    expect(javaHashCode(1e300)).toBe(-164130400);
  });

  it('hashes integers outside int32 like Double.hashCode', () => {
    expect(javaHashCode(2147483648)).toBe(1105199104);
    expect(javaHashCode(-2147483649)).toBe(-1044381696);
  });

  it('hashes NaN and Infinity like Double.hashCode', () => {
    expect(javaHashCode(Number.NaN)).toBe(2146959360);
    expect(javaHashCode(Number.POSITIVE_INFINITY)).toBe(2146435072);
  });
});

import { describe, expect, it } from 'vitest';
import { formatMemorySize, parseMemorySize } from '../../engine/config/memory-size.ts';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

describe('parseMemorySize reads Flink MemorySize syntax in powers of 1024', () => {
  it.each([
    ['100', 100],
    ['100 b', 100],
    ['100 bytes', 100],
    ['32k', 32 * KB],
    ['32 kb', 32 * KB],
    ['32 KB', 32 * KB],
    ['32 kibibytes', 32 * KB],
    ['64m', 64 * MB],
    ['64mb', 64 * MB],
    ['64 mebibytes', 64 * MB],
    ['2 g', 2 * GB],
    ['2 gb', 2 * GB],
    ['2 gibibytes', 2 * GB],
    ['1 t', 1024 * GB],
    ['1 tb', 1024 * GB],
    ['1 tebibytes', 1024 * GB],
    ['  8   Mb ', 8 * MB],
    ['0', 0],
  ])('reads "%s" as %d bytes', (text, bytes) => {
    expect(parseMemorySize(text)).toEqual({ ok: true, bytes });
  });

  it('reads a plain number as bytes', () => {
    expect(parseMemorySize(65_536)).toEqual({ ok: true, bytes: 65_536 });
  });

  it.each([
    ['', 'empty'],
    ['mb', 'does not start with a number'],
    ['-1 mb', 'cannot be negative'],
    ['1.5 mb', 'not a whole number'],
    ['64 megabytes', 'unknown memory unit "megabytes"'],
    ['64 mib', 'unknown memory unit "mib"'],
    ['99999999999 tb', 'too large'],
  ])('rejects "%s" saying %s', (text, message) => {
    const result = parseMemorySize(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain(message);
      expect(result.allowed).toContain('64mb');
    }
  });

  it.each([
    [-5, 'cannot be negative'],
    [1.5, 'whole bytes'],
    [Number.NaN, 'not a finite'],
  ])('rejects the number %d saying %s', (value, message) => {
    const result = parseMemorySize(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });
});

describe('formatMemorySize prints in the largest exact unit, like Flink', () => {
  it.each([
    [0, '0 bytes'],
    [100, '100 bytes'],
    [32 * KB, '32 kb'],
    [64 * MB, '64 mb'],
    [2 * GB, '2 gb'],
    [1024 * GB, '1 tb'],
  ])('prints %d bytes as "%s"', (bytes, text) => {
    expect(formatMemorySize(bytes)).toBe(text);
  });

  it('prints a size that no unit divides in bytes', () => {
    expect(formatMemorySize(1536)).toBe('1536 bytes');
  });

  it.each([0, 1, 1023, 1024, 4096, 64 * MB, 3 * GB])('round-trips %d bytes through parseMemorySize', (bytes) => {
    expect(parseMemorySize(formatMemorySize(bytes))).toEqual({ ok: true, bytes });
  });
});

import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../engine/config/duration.ts';

describe('parseDuration reads Flink duration syntax', () => {
  it.each([
    ['10 s', 10_000],
    ['10s', 10_000],
    ['  10   s  ', 10_000],
    ['10 S', 10_000],
    ['10 sec', 10_000],
    ['10 secs', 10_000],
    ['10 second', 10_000],
    ['10 seconds', 10_000],
    ['500', 500],
    ['500 ms', 500],
    ['500 milli', 500],
    ['500 millis', 500],
    ['500 millisecond', 500],
    ['500 milliseconds', 500],
    ['500 MS', 500],
    ['1 min', 60_000],
    ['1 m', 60_000],
    ['1 minute', 60_000],
    ['2 minutes', 120_000],
    ['1 h', 3_600_000],
    ['1 hour', 3_600_000],
    ['2 hours', 7_200_000],
    ['1 d', 86_400_000],
    ['1 day', 86_400_000],
    ['3 days', 259_200_000],
    ['250 µs', 0.25],
    ['250 us', 0.25],
    ['250 micro', 0.25],
    ['250 micros', 0.25],
    ['250 microsecond', 0.25],
    ['250 microseconds', 0.25],
    ['1500 ns', 0.0015],
    ['1500 nano', 0.0015],
    ['1500 nanos', 0.0015],
    ['1500 nanosecond', 0.0015],
    ['1500 nanoseconds', 0.0015],
    ['0 s', 0],
    ['007 ms', 7],
  ])('reads "%s" as %d ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });

  it.each([
    [0, 0],
    [1500, 1500],
    [600_000, 600_000],
  ])('reads the plain number %d as milliseconds', (value, ms) => {
    expect(parseDuration(value)).toEqual({ ok: true, ms });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['s', 'does not start with a number'],
    ['ten seconds', 'does not start with a number'],
    ['-5 s', 'cannot be negative'],
    ['10 parsecs', 'unknown time unit "parsecs"'],
    ['10 sek', 'unknown time unit "sek"'],
    ['10 mins', 'unknown time unit "mins"'],
    ['1.5 s', 'write "1500 ms"'],
    ['0.5 ms', 'write "500 µs"'],
    ['.5 s', 'write "500 ms"'],
    ['10 s 5 ms', 'unknown time unit'],
    ['99999999999999999999 d', 'too large'],
  ])('rejects "%s" saying %s', (text, message) => {
    const result = parseDuration(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain(message);
      expect(result.allowed).toContain('10 s');
    }
  });

  it.each([
    [-1, 'cannot be negative'],
    [1.5, 'write "1500 µs"'],
    [Number.NaN, 'not a finite duration'],
    [Number.POSITIVE_INFINITY, 'not a finite duration'],
  ])('rejects the number %d saying %s', (value, message) => {
    const result = parseDuration(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });
});

describe('formatDuration prints in the largest exact unit, like Flink', () => {
  it.each([
    [0, '0 ms'],
    [500, '500 ms'],
    [1500, '1500 ms'],
    [10_000, '10 s'],
    [90_000, '90 s'],
    [60_000, '1 min'],
    [3_600_000, '1 h'],
    [86_400_000, '1 d'],
    [0.25, '250 µs'],
    [0.0015, '1500 ns'],
    [Number.POSITIVE_INFINITY, '∞'],
    [-10_000, '-10 s'],
  ])('prints %d ms as "%s"', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([0, 1, 999, 1000, 61_000, 3_600_000, 0.5, 0.001, 123_456_789])('round-trips %d ms through parseDuration', (ms) => {
    expect(parseDuration(formatDuration(ms))).toEqual({ ok: true, ms });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupedInteger } from '../../web/i18n/grouped-integer.ts';
import { LOCALE_LABELS, type Locale } from '../../web/i18n/locale.ts';
import { i18n } from '../../web/i18n/i18n.svelte.ts';

const PAGE_LOCALES = Object.keys(LOCALE_LABELS) as Locale[];

describe('grouped integers', () => {
  it.each(PAGE_LOCALES)('writes every safe integer as Intl.NumberFormat(%s) does', (locale) => {
    const intl = new Intl.NumberFormat(locale);
    const edges = [0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, 123_456_789, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    for (const n of edges) expect(groupedInteger(n), `${n}`).toBe(intl.format(n));
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => groupedInteger(n) === intl.format(n)),
      { numRuns: 2000 },
    );
  });

  it('leaves fractions, -0, unsafe integers, NaN and infinities to Intl', () => {
    for (const n of [0.5, -0, 2 ** 53, -(2 ** 53), NaN, Infinity, -Infinity]) expect(groupedInteger(n), `${n}`).toBeUndefined();
  });

  it('formats fractions through Intl and integers without it, the same text either way', () => {
    expect(i18n.formatNumber(1234.5678)).toBe(new Intl.NumberFormat(i18n.locale).format(1234.5678));
    expect(i18n.formatNumber(-0)).toBe(new Intl.NumberFormat(i18n.locale).format(-0));
    expect(i18n.formatNumber(12_345_678)).toBe('12,345,678');
  });
});

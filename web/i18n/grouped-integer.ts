/**
 * A safe integer with grouping separators, as `Intl.NumberFormat` writes it in the page's two
 * locales: English and Simplified Chinese both group by threes with a comma and write a minus
 * sign as `-` (tests/i18n/grouped-integer.test.ts holds it against Intl for both).
 *
 * Why not Intl itself: the first `Intl.NumberFormat` of a page builds ICU's set of number-format
 * locales, 16–55 ms in one main-thread task on the bench machine (a start-up long task of its own
 * in one load of six), and the page's first screen formats only counts. Intl still formats every
 * other number (I18n.formatNumber); this only keeps it out of the start-up.
 */
export function groupedInteger(value: number): string | undefined {
  // -0: Intl writes "-0"; the digits below would lose its sign
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return undefined;
  const digits = String(Math.abs(value));
  const head = digits.length % 3 || 3;
  let text = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) text += ',' + digits.slice(i, i + 3);
  return value < 0 ? '-' + text : text;
}

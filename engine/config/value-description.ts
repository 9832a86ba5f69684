/**
 * How an error message names a value it did not expect: short, and safe for any input (a huge
 * string is cut, an object is not printed).
 */

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  return typeof value;
}

/** User text inside a message: quoted, and cut when long. */
export function quote(text: string): string {
  return JSON.stringify(truncate(text));
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

import type { StateValue } from './keyed-state-backend.ts';

/**
 * Bytes one entry takes when written out. An estimate shared by every backend so that their
 * sizes are comparable: UTF-16 key length as UTF-8-ish bytes, 8 bytes per number, plus framing.
 */
export function entrySizeBytes(key: string, value: StateValue): number {
  return entrySizeBytesOfKeyLength(key.length, value);
}

/** The same from the key's length alone, for entries still encoded (encoded-key-group-state.ts). */
export function entrySizeBytesOfKeyLength(keyLength: number, value: StateValue): number {
  return 8 + keyLength + valueSizeBytes(value);
}

function valueSizeBytes(value: StateValue): number {
  if (typeof value === 'number') return 8;
  if (typeof value === 'boolean') return 1;
  if (typeof value === 'string') return 4 + value.length;
  if (Array.isArray(value)) return 4 + value.reduce<number>((n, v) => n + valueSizeBytes(v), 0);
  let n = 4;
  for (const [k, v] of Object.entries(value)) n += k.length + valueSizeBytes(v as StateValue);
  return n;
}

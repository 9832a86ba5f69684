/**
 * How many keys a keyed vertex needs for its checkpointed state to have a given size, under the
 * size model every backend shares (engine/state/state-size.ts): a sequence source's keys are
 * `key-0` … `key-(n−1)`, and a running count stores one number per key.
 */
import { entrySizeBytes } from '../state/state-size.ts';

/** The state bytes of keys `key-0` … `key-(keys−1)`, each holding a number. */
export function stateBytesOfKeys(keys: number): number {
  const perKeyWithoutDigits = entrySizeBytes('key-', 0);
  let digitBytes = 0;
  for (let digits = 1, from = 1; from <= keys; digits++, from *= 10) {
    const lower = digits === 1 ? 0 : from;
    digitBytes += digits * (Math.min(keys, from * 10) - lower);
  }
  return keys * perKeyWithoutDigits + digitBytes;
}

/** The fewest keys whose state reaches `bytes` (at least 1). */
export function keysForStateBytes(bytes: number): number {
  let low = 1;
  let high = 1;
  while (stateBytesOfKeys(high) < bytes) high *= 2;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (stateBytesOfKeys(middle) < bytes) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Java's `hashCode()` for the key types the playground uses, bit for bit.
 *
 * Flink assigns a key to a key group from `key.hashCode()`, so to put a key in the same key group
 * (and the same subtask) as a real Flink job would, we must reproduce Java's hash exactly,
 * including its 32-bit overflow.
 */

/**
 * Java's `String.hashCode()`: `s[0]*31^(n-1) + ... + s[n-1]` over UTF-16 code units, in 32-bit
 * two's complement arithmetic. JavaScript strings are UTF-16 too, so `charCodeAt` yields the same
 * code units Java sees (a character outside the BMP counts as its two surrogates).
 */
export function javaStringHashCode(s: string): number {
  const n = s.length;
  let hash = 0;
  let i = 0;
  // Two code units a step (31² = 961): half the chain of dependent multiplications, the same
  // int32. Math.imul and `| 0` keep the running value a wrapped int32, as Java's int does; the
  // sum of three int32s before `| 0` is exact in a double, so wrapping it once is the same.
  for (; i + 1 < n; i += 2) hash = (Math.imul(961, hash) + Math.imul(31, s.charCodeAt(i)) + s.charCodeAt(i + 1)) | 0;
  if (i < n) hash = (Math.imul(31, hash) + s.charCodeAt(i)) | 0;
  return hash;
}

const INT32_MIN = -0x8000_0000;
const INT32_MAX = 0x7fff_ffff;

/**
 * The hash Java would compute for `key` boxed as the Java type it most plausibly is:
 * - a string: `String.hashCode()`;
 * - an integer in int32 range: `Integer.hashCode()`, which is the value itself (`-0` counts as
 *   the integer 0, since JSON and the CLI cannot tell them apart);
 * - any other number (fractions, NaN, infinities, integers beyond int32): `Double.hashCode()`,
 *   i.e. the high and low 32 bits of the IEEE 754 bits XORed.
 *
 * Integers beyond int32 are hashed as doubles, not as Java `Long`s: a JavaScript number is a
 * double, and `Long.hashCode` would only agree with it for values that are exact integers anyway.
 */
export function javaHashCode(key: string | number): number {
  if (typeof key === 'string') return javaStringHashCode(key);
  if (Number.isInteger(key) && key >= INT32_MIN && key <= INT32_MAX) return key | 0;
  return javaDoubleHashCode(key);
}

// One shared 8-byte scratch buffer: hashing is hot (every keyed record) and this avoids allocating
// per call. It holds no state between calls, so the function stays pure.
const doubleBits = new DataView(new ArrayBuffer(8));

/** Java's `Double.hashCode(value)`: `(int) (bits ^ (bits >>> 32))` of `doubleToLongBits`. */
function javaDoubleHashCode(value: number): number {
  // doubleToLongBits collapses every NaN to the canonical 0x7ff8000000000000; JavaScript engines
  // may keep other NaN payloads, so canonicalise explicitly.
  if (Number.isNaN(value)) return 0x7ff8_0000;
  doubleBits.setFloat64(0, value);
  return doubleBits.getInt32(0) ^ doubleBits.getInt32(4);
}

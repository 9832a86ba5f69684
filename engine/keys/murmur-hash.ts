/**
 * Flink's `MathUtils.murmurHash(int)` and `MathUtils.bitMix(int)`, bit for bit.
 *
 * Flink scrambles `key.hashCode()` with this before taking it modulo the max parallelism, because
 * raw Java hash codes (e.g. of small integers or similar strings) are far from uniform. All
 * arithmetic is Java int arithmetic: `Math.imul` for wrapping multiplication, `| 0` for wrapping
 * addition, `>>>` for Java's unsigned shift.
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
const INT32_MIN = -0x8000_0000;

/**
 * One MurmurHash3 (x86_32) round over the single int `code` with seed 0, finalised as for a
 * 4-byte input, then made non-negative the way Flink does it (negate; `Integer.MIN_VALUE` → 0).
 * Returns an integer in [0, 2^31 - 1].
 */
export function murmurHash(code: number): number {
  let hash = Math.imul(code | 0, C1);
  hash = rotateLeft(hash, 15);
  hash = Math.imul(hash, C2);

  hash = rotateLeft(hash, 13);
  hash = (Math.imul(hash, 5) + 0xe6546b64) | 0;

  // The input length in bytes, as MurmurHash3's finalisation requires.
  hash ^= 4;
  hash = bitMix(hash);

  if (hash >= 0) return hash;
  // -MIN_VALUE overflows back to MIN_VALUE in Java, so Flink maps it to 0 instead.
  if (hash !== INT32_MIN) return -hash;
  return 0;
}

/** MurmurHash3's `fmix32` finaliser: every input bit affects every output bit. A bijection on int32. */
export function bitMix(value: number): number {
  let mixed = value | 0;
  mixed ^= mixed >>> 16;
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  mixed ^= mixed >>> 16;
  return mixed;
}

/** Java's `Integer.rotateLeft`. */
function rotateLeft(value: number, distance: number): number {
  return (value << distance) | (value >>> (32 - distance));
}

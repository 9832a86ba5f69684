/**
 * The one seeded random source of the simulation. Nothing in the engine may use Math.random: a run
 * is replayable only if every random choice comes from a `RandomSource` derived from the scenario
 * seed.
 *
 * Each subsystem (each source subtask, the fault schedule, the coordinator…) takes its own stream
 * with `fork(label)`. A child depends only on the parent's seed and the label, not on how many
 * numbers the parent or its siblings have drawn, so adding a consumer or drawing more numbers in
 * one subsystem never shifts the numbers another subsystem sees.
 */

import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import { javaStringHashCode } from '../keys/java-string-hash.ts';
import { bitMix, murmurHash } from '../keys/murmur-hash.ts';

const INT32_MIN = -0x8000_0000;
const UINT32_MAX = 0xffff_ffff;
const TWO_POW_26 = 0x400_0000;
const TWO_POW_53 = 2 ** 53;

export class RandomSource {
  /** The seed this stream was created from, as an int32. */
  readonly seed: number;
  // Mutated in place (pure-rand's "unsafe" API) to avoid allocating a generator per draw.
  private readonly generator: RandomGenerator;

  /** `seed` is any 32-bit integer, signed or unsigned (e.g. 0xdeadbeef); it is stored as an int32. */
  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < INT32_MIN || seed > UINT32_MAX) {
      throw new RangeError(`seed must be a 32-bit integer, got ${seed}`);
    }
    this.seed = seed | 0;
    // pure-rand's xoroshiro128plus puts the raw seed into the state, so its first output is just
    // ~seed and nearby seeds start out correlated. bitMix (a bijection) scatters the seed first.
    this.generator = xoroshiro128plus(bitMix(this.seed));
  }

  /** A uniformly distributed integer in [minInclusive, maxInclusive] (safe integers). */
  nextInt(minInclusive: number, maxInclusive: number): number {
    if (!Number.isSafeInteger(minInclusive) || !Number.isSafeInteger(maxInclusive) || minInclusive > maxInclusive) {
      throw new RangeError(
        `nextInt needs safe integers with min <= max, got min ${minInclusive} and max ${maxInclusive}`,
      );
    }
    return unsafeUniformIntDistribution(minInclusive, maxInclusive, this.generator);
  }

  /**
   * A uniformly distributed double in [0, 1) with 53 random bits (every multiple of 2^-53), built
   * from the top 27 and 26 bits of two draws as Java's `Random.nextDouble` does; the top bits are
   * used because the low bits of xoroshiro128+ are the weakest.
   */
  nextFloat(): number {
    const high = this.generator.unsafeNext() >>> 5;
    const low = this.generator.unsafeNext() >>> 6;
    return (high * TWO_POW_26 + low) / TWO_POW_53;
  }

  /**
   * A child stream for the subsystem named `label`. Same seed and label → same child; different
   * labels → unrelated children. Forking the same label twice yields the same stream again, so
   * each consumer needs its own label (e.g. `source-0`, `source-1`).
   */
  fork(label: string): RandomSource {
    // bitMix spreads the parent seed before mixing in the label hash, so that (seed, label) pairs
    // like (0, "b") and (3, "a") whose raw values XOR to the same number do not collide.
    return new RandomSource(murmurHash(bitMix(this.seed) ^ javaStringHashCode(label)));
  }
}

import type { StreamRecord } from '../protocol.ts';
import { counterUniform } from './counter-random.ts';
import { eventTimeOf, type SourceSplit } from './source-split.ts';
import { ZipfDistribution } from './zipf-distribution.ts';

/**
 * Seeded random keys `key-<rank>` with Zipf skew (rank 0 most frequent; exponent 0 = uniform)
 * and integer values in [valueMin, valueMax]. Record i depends only on (seed, split, i).
 */
export class RandomSplit implements SourceSplit {
  readonly #zipf: ZipfDistribution;
  readonly #keyNames: string[];

  constructor(
    private readonly seed: number,
    private readonly splitIndex: number,
    keys: number,
    skew: number,
    private readonly valueMin: number,
    private readonly valueMax: number,
    readonly ratePerSecond: number,
    readonly count: number,
  ) {
    this.#zipf = new ZipfDistribution(keys, skew);
    this.#keyNames = Array.from({ length: keys }, (_, i) => `key-${i}`);
  }

  recordAt(offset: number): StreamRecord {
    const keyDraw = { nextFloat: () => counterUniform(this.seed, this.splitIndex * 2, offset) };
    const rank = this.#zipf.sample(keyDraw);
    const u = counterUniform(this.seed, this.splitIndex * 2 + 1, offset);
    const value = this.valueMin + Math.floor(u * (this.valueMax - this.valueMin + 1));
    return { key: this.#keyNames[rank]!, value, timestamp: eventTimeOf(this.ratePerSecond, offset) };
  }
}

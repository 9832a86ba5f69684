/**
 * Zipf-distributed ranks, used by the random source to skew keys: a few hot keys get most of the
 * records, as in real keyed streams, which makes some subtasks (and their state) much busier.
 *
 * P(rank k) is proportional to 1 / (k + 1)^exponent for k in [0, n). Rank 0 is the most frequent;
 * exponent 0 gives the uniform distribution.
 */

import type { RandomSource } from '../sim/random-source.ts';

export class ZipfDistribution {
  readonly n: number;
  readonly exponent: number;
  /** cumulative[k] = P(rank <= k); the last entry is exactly 1. Precomputed so sampling is O(log n). */
  private readonly cumulative: Float64Array;

  constructor(n: number, exponent: number) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be an integer >= 1, got ${n}`);
    if (!Number.isFinite(exponent) || exponent < 0) {
      throw new RangeError(`exponent must be a finite number >= 0, got ${exponent}`);
    }
    this.n = n;
    this.exponent = exponent;
    this.cumulative = cumulativeWeights(n, exponent);
  }

  /** The probability of `rank` (0 for ranks outside [0, n)). */
  probability(rank: number): number {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.n) return 0;
    return (this.cumulative[rank] ?? 0) - (rank === 0 ? 0 : (this.cumulative[rank - 1] ?? 0));
  }

  /**
   * A rank in [0, n), drawing one float from `random`. Only `nextFloat` is needed, so callers may
   * also pass a counter-based draw instead of a whole `RandomSource`.
   */
  sample(random: Pick<RandomSource, 'nextFloat'>): number {
    return firstIndexAbove(this.cumulative, random.nextFloat());
  }
}

function cumulativeWeights(n: number, exponent: number): Float64Array {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let rank = 0; rank < n; rank++) {
    total += 1 / (rank + 1) ** exponent;
    cumulative[rank] = total;
  }
  for (let rank = 0; rank < n; rank++) cumulative[rank] = (cumulative[rank] ?? 0) / total;
  // Rounding can leave the last entry just below 1; a draw in that gap must still map to a rank.
  cumulative[n - 1] = 1;
  return cumulative;
}

/** The smallest index whose value is > `u`; `sorted` ascends and ends with 1 > u. */
function firstIndexAbove(sorted: Float64Array, u: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? 1) > u) high = middle;
    else low = middle + 1;
  }
  return low;
}

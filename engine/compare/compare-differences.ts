/**
 * The differences between two runs worth saying in words ("checkpoint duration 1.8 s vs 0.4 s"):
 * each a message code (the figure) with both values, largest relative difference first. A figure
 * measured on one side only, or equal on both within `MIN_RELATIVE_DIFFERENCE`, is not called
 * out: the reader should see what the configuration changed, not noise.
 */
import { COMPARE_FIGURES, compareFigures, FIGURE_UNITS, type CompareFigure, type CompareStatistics, type FigureUnit } from './compare-figures.ts';

/**
 * Below this share of the larger value a difference is noise: the two runs share their seed and
 * workload, so figures that the variation does not touch come out nearly equal.
 */
export const MIN_RELATIVE_DIFFERENCE = 0.1;

/** Where the noise of a comparison ends: below either bound a difference is not called out. */
export interface NoiseThreshold {
  /** share of the larger value */
  relative: number;
  /** for durations (ms figures): the smallest difference that is not timer jitter */
  absoluteMs: number;
}

/** Two sim runs share one seed and one virtual clock: only the relative bound. */
export const SIM_NOISE: NoiseThreshold = { relative: MIN_RELATIVE_DIFFERENCE, absoluteMs: 0 };

/**
 * Two live runs follow the wall clock and vary by chance. Two live runs of one configuration, at
 * once on a 2-core machine, had checkpoint durations of p50 1403 and 1526 ms (8 % apart), and a
 * p90 or a per-subtask median (alignment, start delay) of a few checkpoints moves more than a
 * p50: a live difference is called out from 25 %, three times the chance difference of the
 * steadiest figure. Short durations vary more than that: a worker's event loop, sharing the cores
 * with the other run's, is late by tens of ms at times (a live compare of one scenario measured a
 * median alignment of 7 and 20 ms, start delays of 36 and 58 ms, for a variation that touches
 * neither), so a duration must also differ by 100 ms of job time.
 */
export const LIVE_NOISE: NoiseThreshold = { relative: 0.25, absoluteMs: 100 };

/**
 * Counts differ by whole units; a count that differs by one in a short run is noise unless it is
 * the only thing measured (a single restore's local subtasks).
 */
const MIN_COUNT_DIFFERENCE: Partial<Record<CompareFigure, number>> = {
  'completed-checkpoints': 2,
  'failed-checkpoints': 1,
  'restored-from-local': 1,
};

export interface CompareDifference {
  /** the message code: which figure differs */
  code: CompareFigure;
  unit: FigureUnit;
  /** the figure in the `a` run and in the `b` run (ms, bytes or a count) */
  a: number;
  b: number;
  /** |a − b| over the larger of the two, from 0 to 1 */
  relative: number;
}

/** `noise`: where the noise ends (SIM_NOISE, or LIVE_NOISE for two live runs). */
export function compareDifferences(a: CompareStatistics, b: CompareStatistics, noise: NoiseThreshold = SIM_NOISE): CompareDifference[] {
  const figuresA = compareFigures(a);
  const figuresB = compareFigures(b);
  return COMPARE_FIGURES.flatMap((code): CompareDifference[] => {
    const valueA = figuresA[code];
    const valueB = figuresB[code];
    if (!Number.isFinite(valueA) || !Number.isFinite(valueB)) return [];
    const larger = Math.max(Math.abs(valueA), Math.abs(valueB));
    if (larger === 0) return [];
    const relative = Math.abs(valueA - valueB) / larger;
    if (relative < noise.relative) return [];
    if (FIGURE_UNITS[code] === 'ms' && Math.abs(valueA - valueB) < noise.absoluteMs) return [];
    if (Math.abs(valueA - valueB) < (MIN_COUNT_DIFFERENCE[code] ?? 0)) return [];
    return [{ code, unit: FIGURE_UNITS[code], a: valueA, b: valueB, relative }];
  }).sort((x, y) => y.relative - x.relative);
}

/**
 * The differences between two runs worth saying in words ("checkpoint duration 1.8 s vs 0.4 s"):
 * each a message code (the figure) with both values, largest relative difference first. A figure
 * is called out only when it differs both relatively (by the runtime's noise share, 10 % in the
 * sim) and absolutely (by `MATERIAL_DIFFERENCE`, its smallest difference that matters, and live
 * by the timer jitter too): the reader should see what the configuration changed, not noise.
 * "Sync duration 1 ms vs 0 ms" is 100 % apart and still says nothing. One place for `ckpt-lab
 * compare` and the page's compare view (web/compare).
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

/** Two sim runs share one seed and one virtual clock: no jitter, the relative bound alone (and MATERIAL_DIFFERENCE). */
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

/** Durations: below this, two figures are the same work rounded to whole ms (see MATERIAL_DIFFERENCE). */
const MATERIAL_MS = 10;
/** Sizes: below this, a handful of records' state or in-flight buffers (see MATERIAL_DIFFERENCE). */
const MATERIAL_BYTES = 1024;

/**
 * The smallest absolute difference of each figure that matters, in its unit, whatever the runtime:
 * - durations, 10 ms: Flink reports them in whole ms, and a phase of a few ms (a sync phase, a
 *   start delay without backpressure) is the per-request cost every configuration pays (a local
 *   disk write, a channel hop), so 1 ms against 0 ms is rounding, not the variation. 10 ms is also
 *   Flink's MINIMAL_CHECKPOINT_TIME (a shorter interval turns periodic checkpoints off): Flink
 *   itself treats less as no time to checkpoint in.
 * - sizes, 1 KiB: a few records' keyed state or in-flight data, the order of one state handle's
 *   metadata; the variations move sizes by tens of KiB and more.
 * - counts differ by whole units: one checkpoint more or less in a run of a few seconds is where
 *   the run length cut it, two is a change; one failed checkpoint or one subtask restored
 *   locally is the only thing measured (a single restore's local subtasks).
 */
export const MATERIAL_DIFFERENCE: { readonly [F in CompareFigure]: number } = {
  'end-to-end-p50': MATERIAL_MS,
  'end-to-end-p90': MATERIAL_MS,
  'checkpointed-size-p50': MATERIAL_BYTES,
  'full-size-p50': MATERIAL_BYTES,
  'alignment-p50': MATERIAL_MS,
  'start-delay-p50': MATERIAL_MS,
  'sync-duration-p50': MATERIAL_MS,
  'persisted-data-p50': MATERIAL_BYTES,
  'checkpoint-pause-p50': MATERIAL_MS,
  'restore-duration-p50': MATERIAL_MS,
  'restored-remote-bytes': MATERIAL_BYTES,
  'restored-from-local': 1,
  'completed-checkpoints': 2,
  'failed-checkpoints': 1,
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

/** `noise`: where the runs' chance variation ends (SIM_NOISE, or LIVE_NOISE for two live runs). */
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
    if (relative < noise.relative || Math.abs(valueA - valueB) < smallestDifference(code, noise)) return [];
    return [{ code, unit: FIGURE_UNITS[code], a: valueA, b: valueB, relative }];
  }).sort((x, y) => y.relative - x.relative);
}

/** The absolute bound of a figure: what matters (MATERIAL_DIFFERENCE), and for a duration also what is not jitter. */
export function smallestDifference(code: CompareFigure, noise: NoiseThreshold): number {
  return FIGURE_UNITS[code] === 'ms' ? Math.max(MATERIAL_DIFFERENCE[code], noise.absoluteMs) : MATERIAL_DIFFERENCE[code];
}

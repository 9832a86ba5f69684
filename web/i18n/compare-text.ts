/**
 * Compare mode's figures and differences in the page's language: the engine gives message codes
 * and raw values (engine/compare), this says them, with durations and sizes as the Flink
 * dashboard writes them.
 */
import type { CompareDifference } from '../../engine/compare/compare-differences.ts';
import type { CompareFigure, FigureUnit } from '../../engine/compare/compare-figures.ts';
import type { CompareSide, CompareVariation } from '../../engine/compare/compare-variation.ts';
import { formatBytes, formatDuration, NOT_AVAILABLE } from '../dashboard/flink-format.ts';
import { t } from './i18n.svelte.ts';

export function figureValueText(value: number, unit: FigureUnit): string {
  if (!Number.isFinite(value)) return NOT_AVAILABLE;
  if (unit === 'ms') return formatDuration(value);
  if (unit === 'bytes') return formatBytes(value);
  return String(value);
}

export function figureText(code: CompareFigure): string {
  return t(`compare.figure.${code}`);
}

export function variationText(variation: CompareVariation): string {
  return t(`compare.variation.${variation}`);
}

/** A side's name; `minPauseMs` is the min-pause the `b` side of `min-pause` sets. */
export function sideText(variation: CompareVariation, side: CompareSide, minPauseMs = 0): string {
  return t(`compare.side.${variation}.${side}`, { pause: formatDuration(minPauseMs) });
}

/** "Checkpoint duration, end to end (median): 1.8 s (full) vs 0.4 s (incremental)" */
export function differenceText(difference: CompareDifference, variation: CompareVariation, minPauseMs = 0): string {
  return t('compare.difference', {
    figure: figureText(difference.code),
    a: figureValueText(difference.a, difference.unit),
    b: figureValueText(difference.b, difference.unit),
    sideA: sideText(variation, 'a', minPauseMs),
    sideB: sideText(variation, 'b', minPauseMs),
  });
}

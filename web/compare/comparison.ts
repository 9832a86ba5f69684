/**
 * The open comparison as the Playground API reports it (`compare()`, `comparison()`): plain data,
 * with each difference's sentence in the page's language next to its message code.
 */
import { COMPARE_FIGURES, type CompareFigures } from '../../engine/compare/compare-figures.ts';
import { differenceText, sideText } from '../i18n/compare-text.ts';
import type { Comparison, ComparisonSide } from '../playground/api/playground-api-types.ts';
import type { CompareState } from './compare-state.svelte.ts';

/** null while compare mode is closed, or its runs are not loaded. */
export function comparisonOf(compare: CompareState): Comparison | null {
  const sides = compare.sides;
  if (!compare.open || sides === null) return null;
  const variation = compare.variation;
  const side = (index: 0 | 1): ComparisonSide => ({
    name: sideText(variation, index === 0 ? 'a' : 'b', compare.minPauseMs),
    time: sides[index].playground.nowMs,
    options: { ...sides[index].overrides },
    figures: figuresOrNull(compare.figures?.[index]),
  });
  return {
    variation,
    runtime: compare.runtime,
    noise: { ...compare.noise },
    time: compare.nowMs,
    a: side(0),
    b: side(1),
    differences: compare.differences.map((d) => ({ ...d, text: differenceText(d, variation, compare.minPauseMs) })),
  };
}

/** JSON has no NaN: a figure nothing measured is null. */
function figuresOrNull(figures: CompareFigures | undefined): ComparisonSide['figures'] {
  return Object.fromEntries(COMPARE_FIGURES.map((code) => [code, figures !== undefined && Number.isFinite(figures[code]) ? figures[code] : null])) as ComparisonSide['figures'];
}

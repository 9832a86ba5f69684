/**
 * The page's entry to the texts "Reproduce in the playground" shares with
 * `ckpt-lab inspect --reproduce` (engine/reproduce/reproduction-messages.ts): the comparison's
 * figure names and why statistics cannot be modelled, in the page's language.
 */
import type { ImportLocale } from '../../engine/interop/flink-import-messages.ts';
import type { ReproduceProblemCode } from '../../engine/reproduce/reproduce-scenario.ts';
import type { ComparisonFigure } from '../../engine/reproduce/reproduction-comparison.ts';
import { comparisonFigureName, reproduceProblemMessage } from '../../engine/reproduce/reproduction-messages.ts';
import type { Locale } from './messages.ts';

const REPRODUCE_LOCALE: { readonly [L in Locale]: ImportLocale } = { en: 'en', 'zh-CN': 'zh-CN' };

export function comparisonFigureText(figure: ComparisonFigure, locale: Locale): string {
  return comparisonFigureName(figure, REPRODUCE_LOCALE[locale]);
}

export function reproduceProblemText(problem: { code: ReproduceProblemCode; field: string }, locale: Locale): string {
  return reproduceProblemMessage(problem, REPRODUCE_LOCALE[locale]);
}

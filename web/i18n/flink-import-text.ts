/**
 * The Flink statistics importer's problems in the page's language. The renderings live in the
 * engine (engine/interop/flink-import-messages.ts), because `ckpt-lab inspect --lang zh-CN` prints
 * them too and the engine may not import from web/; this is the page's entry to them. The type
 * below fails to compile when the page gets a language the importer does not speak.
 */
import { formatFlinkImportProblem, type ImportLocale } from '../../engine/interop/flink-import-messages.ts';
import type { FlinkImportProblem } from '../../engine/interop/flink-import-problem.ts';
import type { Locale } from './messages.ts';

const IMPORT_LOCALE: { readonly [L in Locale]: ImportLocale } = { en: 'en', 'zh-CN': 'zh-CN' };

/** `` `$.history[3].status`: `DONE` is not a Flink checkpoint status (…) `` in `locale`. */
export function flinkImportProblemText(problem: FlinkImportProblem, locale: Locale): string {
  return formatFlinkImportProblem(problem, IMPORT_LOCALE[locale]);
}

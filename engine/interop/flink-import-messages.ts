/**
 * The importer's problems in English and Simplified Chinese. The CLI (`ckpt-lab inspect --lang`)
 * and the page render the same codes; a code or an expected kind without a rendering in either
 * language is a type error. Flink's own words (field names, status values, checkpoint, JSON) stay
 * as they are in both languages.
 */
import type { ExpectedKind, FlinkImportProblem, FlinkImportProblemCode } from './flink-import-problem.ts';

export type ImportLocale = 'en' | 'zh-CN';

export const IMPORT_LOCALES: readonly ImportLocale[] = ['en', 'zh-CN'];

type Template = { readonly [C in FlinkImportProblemCode]: string };

/** `{name}` is replaced by the problem's parameter of that name. */
const TEMPLATES: { readonly [L in ImportLocale]: Template } = {
  en: {
    'syntax-error': 'not JSON: {reason}',
    'unknown-document':
      'not a Flink checkpoint statistics document (expected the response of /jobs/:jobid/checkpoints, …/checkpoints/config, …/checkpoints/details/:checkpointid, …/subtasks/:vertexid, or a History Server archive); its keys are {keys}',
    'missing-field': 'missing: expected {expected}',
    'wrong-type': 'expected {expected}, got {actual}',
    'not-a-checkpoint-status': '`{value}` is not a Flink checkpoint status ({allowed})',
    'not-a-class-name': '`{value}` is not a kind of entry Flink writes here ({allowed})',
    'not-an-allowed-value': '`{value}` is not one of the values Flink writes here ({allowed})',
    'status-does-not-match-class': 'status `{status}` does not match the entry\'s className `{className}`',
    'archive-entry-not-json': 'the archived response is not JSON: {reason}',
    'archive-without-checkpoints': 'the History Server archive has {paths} responses but none of a checkpoint endpoint (was checkpointing on?)',
  },
  'zh-CN': {
    'syntax-error': '不是 JSON：{reason}',
    'unknown-document':
      '不是 Flink 的 checkpoint 统计文档（应为 /jobs/:jobid/checkpoints、…/checkpoints/config、…/checkpoints/details/:checkpointid、…/subtasks/:vertexid 的响应，或 History Server 的归档）；它的键是 {keys}',
    'missing-field': '缺少字段：应为{expected}',
    'wrong-type': '应为{expected}，实际是 {actual}',
    'not-a-checkpoint-status': '`{value}` 不是 Flink 的 checkpoint 状态（{allowed}）',
    'not-a-class-name': '`{value}` 不是 Flink 在这里写的条目类型（{allowed}）',
    'not-an-allowed-value': '`{value}` 不是 Flink 在这里写的取值（{allowed}）',
    'status-does-not-match-class': '状态 `{status}` 与条目的 className `{className}` 不一致',
    'archive-entry-not-json': '归档的响应不是 JSON：{reason}',
    'archive-without-checkpoints': 'History Server 归档中有 {paths} 个响应，但没有 checkpoint 端点的响应（是否开启了 checkpoint？）',
  },
};

const EXPECTED: { readonly [L in ImportLocale]: { readonly [K in ExpectedKind]: string } } = {
  en: {
    object: 'an object',
    array: 'an array',
    string: 'a string',
    'string-or-null': 'a string or null',
    integer: 'an integer',
    boolean: 'true or false',
    double: 'a number (or "NaN")',
    'object-or-null': 'an object or null',
  },
  'zh-CN': {
    object: '对象',
    array: '数组',
    string: '字符串',
    'string-or-null': '字符串或 null',
    integer: '整数',
    boolean: 'true 或 false',
    double: '数字（或 "NaN"）',
    'object-or-null': '对象或 null',
  },
};

/** The problem's message without its path. */
export function flinkImportMessage(problem: FlinkImportProblem, locale: ImportLocale): string {
  const params: Record<string, string | number> = { ...problem.params };
  if ('expected' in problem.params) params['expected'] = EXPECTED[locale][problem.params.expected];
  return TEMPLATES[locale][problem.code].replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
}

/** `` `$.history[3].status`: `DONE` is not a Flink checkpoint status (IN_PROGRESS, COMPLETED, FAILED) `` */
export function formatFlinkImportProblem(problem: FlinkImportProblem, locale: ImportLocale): string {
  return `\`${problem.path}\`: ${flinkImportMessage(problem, locale)}`;
}

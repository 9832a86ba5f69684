/**
 * Why a file could not be read as Flink checkpoint statistics: a code with its parameters and the
 * JSON path it concerns (`$.history[3].status`), so the CLI renders it in English or Chinese and
 * the page can render it in the reader's language (flink-import-messages.ts).
 */

/** What a value was expected to be, as a code (rendered per language). */
export type ExpectedKind =
  | 'object'
  | 'array'
  | 'string'
  | 'string-or-null'
  | 'integer'
  | 'boolean'
  | 'double'
  | 'object-or-null';

export type FlinkImportProblem =
  /** the text is not JSON at all */
  | { code: 'syntax-error'; path: string; params: { reason: string } }
  /** JSON, but none of the four checkpoint endpoints' documents nor a History Server archive */
  | { code: 'unknown-document'; path: string; params: { keys: string } }
  /** a field Flink always writes is not there */
  | { code: 'missing-field'; path: string; params: { expected: ExpectedKind } }
  /** the field is there with the wrong JSON type */
  | { code: 'wrong-type'; path: string; params: { expected: ExpectedKind; actual: string } }
  /** `status` of a checkpoint */
  | { code: 'not-a-checkpoint-status'; path: string; params: { value: string; allowed: string } }
  /** `className` / `@class` of a checkpoint or a subtask */
  | { code: 'not-a-class-name'; path: string; params: { value: string; allowed: string } }
  /** an enum-valued field (checkpoint_type, mode, savepointFormat, a subtask's status) */
  | { code: 'not-an-allowed-value'; path: string; params: { value: string; allowed: string } }
  /** `className` and `status` disagree (a completed entry whose status is FAILED) */
  | { code: 'status-does-not-match-class'; path: string; params: { status: string; className: string } }
  /** a History Server archive entry whose `json` string is not JSON */
  | { code: 'archive-entry-not-json'; path: string; params: { reason: string } }
  /** a History Server archive with no checkpoint endpoint in it */
  | { code: 'archive-without-checkpoints'; path: string; params: { paths: number } };

export type FlinkImportProblemCode = FlinkImportProblem['code'];

const PLAIN_KEY = /^[A-Za-z_@][A-Za-z0-9_]*$/;

/** `$.summary.state_size`, `$.tasks["0a44…"]` (keys that are not plain names quoted). */
export function memberPath(parent: string, key: string): string {
  return PLAIN_KEY.test(key) && !key.startsWith('@') ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** The JSON type of a value as a reader names it: `null`, `an array`, `the string "DONE"`, … */
export function describeJsonValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'object';
  return String(value);
}

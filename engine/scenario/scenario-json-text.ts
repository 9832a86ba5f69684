/**
 * The half of the scenario text reader (scenario-text.ts) that needs no YAML parser: the checks
 * made before parsing (length, byte order mark, which format), and JSON. A page reads a JSON
 * scenario with this alone, and loads the YAML parser only when a YAML text comes.
 */

import { findDuplicateJsonKey } from './json-duplicate-keys.ts';
import { jsonErrorOffset } from './json-error-offset.ts';
import { scenarioError, type ScenarioError } from './scenario-error.ts';
import { message } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

/**
 * Longer texts are refused before parsing: the YAML parser takes about 0.25 s per MB (a 50 MB
 * file, 40 s and more, with the page frozen), and the largest shipped scenario is 4 kB.
 */
export const MAX_SCENARIO_TEXT_LENGTH = 1_000_000;

const BYTE_ORDER_MARK = '\uFEFF';

export type ScenarioFormat = 'json' | 'yaml';

export type ScenarioText = { ok: true; value: unknown } | { ok: false; errors: ScenarioError[] };

/**
 * The text as it is parsed (without a leading byte order mark: editors on Windows write one) and
 * its format: JSON when it starts with `{`, YAML otherwise; or why it is refused before parsing.
 */
export function scenarioTextToRead(input: string, format?: ScenarioFormat): { ok: true; text: string; format: ScenarioFormat } | { ok: false; errors: ScenarioError[] } {
  if (input.length > MAX_SCENARIO_TEXT_LENGTH) return tooLong(input.length);
  // Positions stay those of the text without the mark, as an editor counts columns.
  const text = input.startsWith(BYTE_ORDER_MARK) ? input.slice(1) : input;
  return { ok: true, text, format: format ?? (text.trimStart().startsWith('{') ? 'json' : 'yaml') };
}

function tooLong(length: number): { ok: false; errors: ScenarioError[] } {
  const format = (n: number) => n.toLocaleString('en-US');
  const problem = message('text.too-long', { length: format(length) });
  return { ok: false, errors: [scenarioError('', problem, { allowed: message('allowed.at-most-characters', { count: format(MAX_SCENARIO_TEXT_LENGTH) }) })] };
}

/** JSON text (its byte order mark removed) to data; a key set twice is refused, as YAML's are. */
export function decodeJson(text: string): ScenarioText {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return syntaxError('JSON', reason, jsonErrorPosition(text, reason));
  }
  const duplicate = findDuplicateJsonKey(text);
  if (!duplicate) return { ok: true, value };
  const at = lineAndColumnAt(text, duplicate.offset);
  const problem = message('text.duplicate-key', at);
  return { ok: false, errors: [scenarioError(duplicate.path, problem, { allowed: message('phrase', { text: 'each key once per map' }), ...at })] };
}

/** V8 says "at position N" (newer ones add "(line L column C)"), Firefox "at line L column C"; else the text is scanned. */
function jsonErrorPosition(text: string, message: string): { line: number; column: number } {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  if (position) return lineAndColumnAt(text, Number(position[1]));
  const offset = jsonErrorOffset(text);
  return lineAndColumnAt(text, offset < 0 ? text.length : offset);
}

export function lineAndColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

/** The reason is the parser's own English (V8's or the yaml library's): it is shown as it is, in every language. */
export function syntaxError(language: 'JSON' | 'YAML', rawMessage: EngineMessage | string, at: { line: number; column: number }): ScenarioText {
  if (typeof rawMessage !== 'string') return { ok: false, errors: [scenarioError('', message('text.syntax-error', { language, ...at, reason: rawMessage }), at)] };
  const reason = rawMessage
    // V8 quotes the text around a JSON error, newlines and all: the message stays one line without it
    .replace(/, (?:"|\.\.\.")[\s\S]*is not valid JSON$/, '')
    .split('\n')[0]!
    .replace(/ at line \d+, column \d+:?$/, '')
    .replace(/ (?:in JSON )?at position \d+.*$/, '')
    .replace(/:$/, '');
  return { ok: false, errors: [scenarioError('', message('text.syntax-error', { language, ...at, reason }), at)] };
}

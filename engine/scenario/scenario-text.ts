/**
 * Scenario text to plain data, before validation (`validateScenario` comes next). JSON when the
 * text starts with `{`, YAML otherwise: JSON is YAML too, but JSON.parse holds a file that claims
 * to be JSON to JSON's stricter rules, and a key set twice is refused in both. A syntax error
 * names its line and column. A leading byte order mark (editors on Windows write one) is skipped.
 */

import { parseDocument } from 'yaml';
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

export function parseScenarioText(input: string, format?: ScenarioFormat): ScenarioText {
  if (input.length > MAX_SCENARIO_TEXT_LENGTH) return tooLong(input.length);
  // Positions stay those of the text without the mark, as an editor counts columns.
  const text = input.startsWith(BYTE_ORDER_MARK) ? input.slice(1) : input;
  const chosen = format ?? (text.trimStart().startsWith('{') ? 'json' : 'yaml');
  return chosen === 'json' ? decodeJson(text) : decodeYaml(text);
}

function tooLong(length: number): ScenarioText {
  const format = (n: number) => n.toLocaleString('en-US');
  const problem = message('text.too-long', { length: format(length) });
  return { ok: false, errors: [scenarioError('', problem, { allowed: message('allowed.at-most-characters', { count: format(MAX_SCENARIO_TEXT_LENGTH) }) })] };
}

function decodeJson(text: string): ScenarioText {
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

function lineAndColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

function decodeYaml(text: string): ScenarioText {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = document.errors[0];
  if (first) {
    const linePos = first.linePos?.[0];
    const at = linePos ? { line: linePos.line, column: linePos.col } : lineAndColumnAt(text, first.pos[0]);
    return syntaxError('YAML', readableYamlProblem(first.message), at);
  }
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: 100 }) as unknown };
  } catch (error) {
    // toJS throws on alias bombs and similar; still a problem in the text, not a crash
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, errors: [scenarioError('', message('text.yaml-unreadable', { reason: readableYamlProblem(reason) }))] };
  }
}

/** The parser recurses per level of nesting: a stack overflow means the text nests too deeply. */
function readableYamlProblem(reason: string): EngineMessage | string {
  return reason.includes('Maximum call stack size exceeded') ? message('phrase', { text: 'the text nests maps and lists too deeply to be read' }) : reason;
}

/** The reason is the parser's own English (V8's or the yaml library's): it is shown as it is, in every language. */
function syntaxError(language: 'JSON' | 'YAML', rawMessage: EngineMessage | string, at: { line: number; column: number }): ScenarioText {
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

/**
 * Scenario text to plain data, before validation (`validateScenario` comes next). JSON when the
 * text starts with `{`, YAML otherwise: JSON is YAML too, but JSON.parse holds a file that claims
 * to be JSON to JSON's stricter rules. A syntax error names its line and column.
 */

import { parseDocument } from 'yaml';
import type { ScenarioError } from './scenario-error.ts';

export type ScenarioFormat = 'json' | 'yaml';

export type ScenarioText = { ok: true; value: unknown } | { ok: false; errors: ScenarioError[] };

export function parseScenarioText(text: string, format?: ScenarioFormat): ScenarioText {
  const chosen = format ?? (text.trimStart().startsWith('{') ? 'json' : 'yaml');
  return chosen === 'json' ? decodeJson(text) : decodeYaml(text);
}

function decodeJson(text: string): ScenarioText {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return syntaxError('JSON', message, jsonErrorPosition(text, message));
  }
}

/** V8 says "at position N" (newer ones add "(line L column C)"), Firefox "at line L column C". */
function jsonErrorPosition(text: string, message: string): { line: number; column: number } {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  return lineAndColumnAt(text, position ? Number(position[1]) : text.length);
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
    return syntaxError('YAML', first.message, at);
  }
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: 100 }) as unknown };
  } catch (error) {
    // toJS throws on alias bombs and similar; still a problem in the text, not a crash
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, errors: [{ path: '', message: `YAML could not be read: ${message}` }] };
  }
}

function syntaxError(language: string, rawMessage: string, at: { line: number; column: number }): ScenarioText {
  const reason = rawMessage
    .split('\n')[0]!
    .replace(/ at line \d+, column \d+:?$/, '')
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/:$/, '');
  const message = `${language} syntax error at line ${at.line}, column ${at.column}: ${reason}`;
  return { ok: false, errors: [{ path: '', message, line: at.line, column: at.column }] };
}

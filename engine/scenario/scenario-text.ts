/**
 * Scenario text to plain data, before validation (`validateScenario` comes next). JSON when the
 * text starts with `{`, YAML otherwise: JSON is YAML too, but JSON.parse holds a file that claims
 * to be JSON to JSON's stricter rules, and a key set twice is refused in both. A syntax error
 * names its line and column. A leading byte order mark (editors on Windows write one) is skipped.
 * The checks before parsing and JSON are in scenario-json-text.ts, which a page loads without
 * the YAML parser.
 */

import { parseDocument } from 'yaml';
import { decodeJson, lineAndColumnAt, scenarioTextToRead, syntaxError, type ScenarioFormat, type ScenarioText } from './scenario-json-text.ts';
import { scenarioError } from './scenario-error.ts';
import { message } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

export { MAX_SCENARIO_TEXT_LENGTH, type ScenarioFormat, type ScenarioText } from './scenario-json-text.ts';

export function parseScenarioText(input: string, format?: ScenarioFormat): ScenarioText {
  const read = scenarioTextToRead(input, format);
  if (!read.ok) return read;
  return read.format === 'json' ? decodeJson(read.text) : decodeYaml(read.text);
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

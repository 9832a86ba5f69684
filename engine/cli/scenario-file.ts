/**
 * A scenario file as the commands that run or export one take it: read, parsed (YAML or JSON) and
 * validated, or why not — unreadable (the file system's message) or invalid (the validator's
 * errors, formatted). Nothing is run or exported from either.
 */
import { LANGUAGES, renderMessage } from '../messages/message-catalogues.ts';
import type { MessageLocale } from '../messages/message-codes.ts';
import { formatScenarioErrors, parseScenarioText, validateScenario } from '../scenario/scenario-validator.ts';
import type { Scenario } from '../scenario/scenario-types.ts';
import type { ReadFile } from './command-result.ts';

export type ScenarioFile = { ok: true; scenario: Scenario; notes: string[] } | { ok: false; unreadable: string } | { ok: false; invalid: string };

/**
 * `adjust` edits the parsed document before it is validated (`run --until` sets its run length);
 * errors and notes come in `locale`.
 */
export function readScenarioFile(path: string, readFile: ReadFile, adjust: (document: unknown) => unknown = (d) => d, locale: MessageLocale = 'en'): ScenarioFile {
  const file = readFile(path);
  if (!file.ok) return { ok: false, unreadable: file.message };
  const text = parseScenarioText(file.text);
  if (!text.ok) return { ok: false, invalid: formatScenarioErrors(text.errors, LANGUAGES[locale]) };
  const valid = validateScenario(adjust(text.value));
  if (!valid.ok) return { ok: false, invalid: formatScenarioErrors(valid.errors, LANGUAGES[locale]) };
  return { ok: true, scenario: valid.scenario, notes: valid.noteMessages.map((note) => renderMessage(note, locale)) };
}

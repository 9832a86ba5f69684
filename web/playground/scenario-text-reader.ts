/**
 * Scenario text to data on the page, as the engine reads it (engine/scenario/scenario-text.ts),
 * with the YAML parser (31 kB gzip, 150 ms to compile and run the first time) loaded the first
 * time a YAML text comes: the first page reads its lesson's scenario pre-parsed as JSON
 * (node/pre-parsed-scenarios.ts) and never needs it.
 */
import { decodeJson, scenarioTextToRead, type ScenarioFormat, type ScenarioText } from '../../engine/scenario/scenario-json-text.ts';

export async function readScenarioText(input: string, format?: ScenarioFormat): Promise<ScenarioText> {
  const read = scenarioTextToRead(input, format);
  if (!read.ok) return read;
  if (read.format === 'json') return decodeJson(read.text);
  const { parseScenarioText } = await import('../../engine/scenario/scenario-text.ts');
  return parseScenarioText(input, 'yaml');
}

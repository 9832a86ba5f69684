/** The example scenarios the playground ships (public/scenarios), read and validated as the page reads them. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';

export const SHIPPED_SCENARIO_DIR = 'public/scenarios';

/** Every scenario file there: YAML or JSON, not the schema or the picker's index. */
export const SHIPPED_SCENARIO_FILES = readdirSync(SHIPPED_SCENARIO_DIR).filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('schema.json') && f !== 'index.json');

/** The shipped scenario `file`, valid (a shipped file that is not fails the test that reads it). */
export function loadShippedScenario(file: string): Scenario {
  return loadScenarioFile(join(SHIPPED_SCENARIO_DIR, file));
}

/** A scenario file read and validated as the playground reads it; throws naming the file when it is not valid. */
export function loadScenarioFile(path: string): Scenario {
  const text = parseScenarioText(readFileSync(path, 'utf8'));
  if (!text.ok) throw new Error(`${path}: ${JSON.stringify(text.errors)}`);
  const valid = validateScenario(text.value);
  if (!valid.ok) throw new Error(`${path}: ${JSON.stringify(valid.errors)}`);
  return valid.scenario;
}

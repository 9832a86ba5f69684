/** Every scenario the repo ships (examples and lessons), as the file has it and validated. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';

export interface ShippedScenario {
  file: string;
  input: Record<string, unknown>;
  scenario: Scenario;
}

const DIRS = ['public/scenarios', 'public/lessons'];

export function shippedScenarios(): ShippedScenario[] {
  return DIRS.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('schema.json') && f !== 'index.json')
      .map((f) => load(join(dir, f))),
  );
}

function load(file: string): ShippedScenario {
  const text = parseScenarioText(readFileSync(file, 'utf8'));
  if (!text.ok) throw new Error(`${file}: ${JSON.stringify(text.errors)}`);
  const valid = validateScenario(text.value);
  if (!valid.ok) throw new Error(`${file}: ${JSON.stringify(valid.errors)}`);
  return { file, input: text.value as Record<string, unknown>, scenario: valid.scenario };
}

import { readFileSync } from 'node:fs';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';

/** Lesson 10's scenario (2,000 records/s into about 2,200 of capacity) with tm-1 killed at `killAt`. */
export function capacityPlanning(killAt: number | undefined): Scenario {
  const parsed = parseScenarioText(readFileSync('public/lessons/capacity-planning.yaml', 'utf8'));
  if (!parsed.ok) throw new Error('capacity-planning.yaml does not parse');
  const faults = killAt === undefined ? [] : [{ at: killAt, type: 'kill-task-manager', task_manager: 'tm-1' }];
  const valid = validateScenario({ ...(parsed.value as object), faults });
  if (!valid.ok) throw new Error('capacity-planning.yaml is invalid');
  return valid.scenario;
}

/** The scenario's name as exports quote it in a comment: one line, quoted, so no name breaks the file. */
import type { Scenario } from '../scenario/scenario-types.ts';

export function scenarioLabel(scenario: Scenario): string {
  return JSON.stringify(scenario.name.replace(/\s+/g, ' ').trim());
}

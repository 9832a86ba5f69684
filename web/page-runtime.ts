import { validateScenario, type ScenarioValidation } from '../engine/scenario/scenario-document-validator.ts';

/**
 * The scenario validated as the page runs it. Every valid scenario runs: a `runtime: records`
 * one in the chosen driver (sim or live), a `runtime: scale` one in the scale runtime's worker
 * (playground/drivers/scale-page-driver.ts).
 */
export function validateForPage(value: unknown): ScenarioValidation {
  return validateScenario(value);
}

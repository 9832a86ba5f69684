import { message } from '../engine/messages/engine-message.ts';
import { scenarioError } from '../engine/scenario/scenario-error.ts';
import { validateScenario, type ScenarioError, type ScenarioValidation } from '../engine/scenario/scenario-document-validator.ts';

/**
 * The page's drivers move records (sim, live); a `runtime: scale` scenario (a parallelism of
 * 1,000, a terabyte of state) is refused with a message naming the field, never started in them.
 */
export const SCALE_ON_THE_PAGE: ScenarioError = scenarioError('runtime', message('runtime.page-runs-records'), { allowed: message('names', { names: ['records'] }) });

export function pageRunnable(validated: ScenarioValidation): ScenarioValidation {
  return validated.ok && validated.scenario.runtime === 'scale' ? { ok: false, errors: [SCALE_ON_THE_PAGE] } : validated;
}

/** The scenario validated as the page runs it: valid, and for a runtime the page has. */
export function validateForPage(value: unknown): ScenarioValidation {
  return pageRunnable(validateScenario(value));
}

import type { ScenarioError, ScenarioValidation } from '../engine/scenario/scenario-validator.ts';

/**
 * The page's drivers move records (sim, live); a `runtime: scale` scenario (a parallelism of
 * 1,000, a terabyte of state) is refused with a message naming the field, never started in them.
 */
export const SCALE_ON_THE_PAGE: ScenarioError = {
  path: 'runtime',
  message: 'the page runs scenarios with runtime: records; run a scale scenario with ckpt-lab run',
  allowed: 'records',
};

export function pageRunnable(validated: ScenarioValidation): ScenarioValidation {
  return validated.ok && validated.scenario.runtime === 'scale' ? { ok: false, errors: [SCALE_ON_THE_PAGE] } : validated;
}

/** The page runs every valid scenario: a scale scenario is no longer refused, it runs in the scale runtime's worker. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenarioText } from '../../engine/scenario/scenario-validator.ts';
import { validateForPage } from '../../web/page-runtime.ts';
import { minimalFile } from '../scenario/scenario-samples.ts';

describe('the page and the scale runtime', () => {
  it('accepts the shipped scale scenario with its runtime and parallelism', () => {
    const text = parseScenarioText(readFileSync('public/scenarios/production-scale.yaml', 'utf8'));
    const result = validateForPage(text.ok ? text.value : null);
    expect(result.ok).toBe(true);
    expect(result.ok && result.scenario.runtime).toBe('scale');
    expect(result.ok && result.scenario.config['parallelism.default']).toBe(1000);
  });

  it('loads a records scenario as before', () => {
    expect(validateForPage(minimalFile()).ok).toBe(true);
  });

  it('still refuses an invalid scenario, naming the field', () => {
    const result = validateForPage({ ...minimalFile(), runtime: 'flows' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map((e) => e.path)).toContain('runtime');
  });
});

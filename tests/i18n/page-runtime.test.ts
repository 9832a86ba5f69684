/** The page runs record-level scenarios only: a scale scenario is refused with a message in the learner's language. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { pageRunnable, SCALE_ON_THE_PAGE } from '../../web/page-runtime.ts';
import { localizeScenarioError } from '../../web/i18n/validation-messages.ts';
import { minimalFile } from '../scenario/scenario-samples.ts';

describe('the page and the scale runtime', () => {
  it('refuses the shipped scale scenario, naming the runtime field', () => {
    const text = parseScenarioText(readFileSync('public/scenarios/production-scale.yaml', 'utf8'));
    const result = pageRunnable(text.ok ? validateScenario(text.value) : text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual([SCALE_ON_THE_PAGE]);
  });

  it('loads a records scenario as before', () => {
    expect(pageRunnable(validateScenario(minimalFile())).ok).toBe(true);
  });

  it('says why in Chinese too', () => {
    expect(localizeScenarioError(SCALE_ON_THE_PAGE, 'zh-CN').message).toMatch(/[\u4e00-\u9fff]/);
    expect(localizeScenarioError(SCALE_ON_THE_PAGE, 'zh-CN').message).toContain('ckpt-lab run');
    expect(localizeScenarioError(SCALE_ON_THE_PAGE, 'zh-CN').message).not.toBe(SCALE_ON_THE_PAGE.message);
  });
});

/**
 * The page runs a lesson step in its sim driver (web/playground/drivers/sim-driver.ts) with the
 * step's operator requests beside the scenario, as lesson-state loads it: each step of lesson 11
 * is seen there too, and not without the requests, so "Do it for me" on the page shows what CI checks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScheduledOperation } from '../../engine/job/scheduled-operation.ts';
import { savepointsAndRetention as lesson } from '../../engine/lessons/catalog/savepoints-and-retention.ts';
import { stepProgress } from '../../engine/lessons/lesson-progress.ts';
import { lessonOperations, lessonScenarioInput } from '../../engine/lessons/lesson-scenario.ts';
import { formatScenarioErrors, parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { SimDriver } from '../../web/playground/drivers/sim-driver.ts';

function pageRun(upTo: number, operations: readonly ScheduledOperation[]): SimDriver {
  const parsed = parseScenarioText(readFileSync(join('public', lesson.scenario), 'utf8'));
  if (!parsed.ok) throw new Error(formatScenarioErrors(parsed.errors));
  const valid = validateScenario(lessonScenarioInput(lesson, parsed.value as Record<string, unknown>, upTo));
  if (!valid.ok) throw new Error(formatScenarioErrors(valid.errors));
  const driver = new SimDriver(valid.scenario, { operations });
  driver.advanceTo(valid.scenario.run.until_ms);
  return driver;
}

describe(`lesson ${lesson.id} in the page's sim driver`, () => {
  lesson.steps.forEach((step, index) => {
    it(`shows step ${index + 1} ("${step.title.en}") on the run its actions make`, () => {
      const driver = pageRun(index + 1, lessonOperations(lesson, index + 1));
      const progress = stepProgress(step, index, driver.expectationInputs());
      expect(progress.seen, JSON.stringify(progress.results.filter((r) => !r.held))).toBe(true);
    });
  });

  it.each([
    [1, 'DELETE_ON_CANCELLATION', []],
    [2, 'RETAIN_ON_CANCELLATION', ['chk-4', 'chk-5', 'chk-6']],
  ] as const)('lists in the Storage tab after step %i\'s cancel (%s) the checkpoint directories %j', (upTo, _retention, directories) => {
    const driver = pageRun(upTo, lessonOperations(lesson, upTo));
    expect(driver.jobStatus).toBe('CANCELED');
    expect(driver.storage().checkpoints.map((c) => c.path.split('/').at(-1))).toEqual(directories);
  });

  it('does not cancel a run loaded without the operator requests', () => {
    const driver = pageRun(1, []);
    expect(driver.jobStatus).toBe('RUNNING');
    expect(stepProgress(lesson.steps[0]!, 0, driver.expectationInputs()).seen).toBe(false);
  });
});

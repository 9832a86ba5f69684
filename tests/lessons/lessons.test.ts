/**
 * Every lesson demonstrates its point in the sim: its scenario's claims hold, each step is seen
 * on the run its actions (and the earlier steps') make, and a step with actions is not seen
 * without them, so the actions are what shows it. A lesson that stops demonstrating its point
 * fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LESSON_LANGUAGES, type Lesson, type LocalizedText } from '../../engine/lessons/lesson.ts';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { stepProgress } from '../../engine/lessons/lesson-progress.ts';
import { lessonOperations, lessonScenarioInput } from '../../engine/lessons/lesson-scenario.ts';
import type { ExpectationInputs } from '../../engine/run/expectations.ts';
import { expectationInputs, runScenario, type RunReport } from '../../engine/run/run-report.ts';
import { formatScenarioErrors, parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

function scenarioFile(lesson: Lesson): Record<string, unknown> {
  const parsed = parseScenarioText(readFileSync(join('public', lesson.scenario), 'utf8'));
  if (!parsed.ok) throw new Error(`${lesson.scenario}: ${formatScenarioErrors(parsed.errors)}`);
  return parsed.value as Record<string, unknown>;
}

interface LessonRun {
  report: RunReport;
  inputs: ExpectationInputs;
}

/** The run of the lesson's scenario with the actions of steps 0 … upTo − 1; each computed once. */
function runsOf(lesson: Lesson): (upTo: number) => LessonRun {
  const cache = new Map<string, LessonRun>();
  return (upTo) => {
    const input = lessonScenarioInput(lesson, scenarioFile(lesson), upTo);
    const operations = lessonOperations(lesson, upTo);
    const key = JSON.stringify({ input, operations });
    const cached = cache.get(key);
    if (cached) return cached;
    const valid = validateScenario(input);
    if (!valid.ok) throw new Error(`${lesson.id} after ${upTo} steps: ${formatScenarioErrors(valid.errors)}`);
    const { report, simulation } = runScenario(valid.scenario, { lsmStorage, operations });
    const run = { report, inputs: expectationInputs(simulation, report.output) };
    cache.set(key, run);
    return run;
  };
}

const CHINESE = /[\u4e00-\u9fff]/;

function expectBothLanguages(text: LocalizedText, where: string): void {
  for (const language of LESSON_LANGUAGES) expect(text[language].trim(), `${where} (${language})`).not.toBe('');
  expect(text['zh-CN'], `${where}: the zh-CN text is written in Chinese`).toMatch(CHINESE);
  expect(text['zh-CN'], `${where}: the zh-CN text is not the English one`).not.toBe(text.en);
}

describe('the lessons', () => {
  it('have distinct ids that a link can carry', () => {
    const ids = LESSONS.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
  });

  for (const lesson of LESSONS) {
    describe(lesson.id, () => {
      const run = runsOf(lesson);

      it('is written in English and in Chinese throughout', () => {
        expectBothLanguages(lesson.title, 'title');
        expect(lesson.paragraphs.length).toBeGreaterThan(0);
        lesson.paragraphs.forEach((p, i) => expectBothLanguages(p, `paragraph ${i + 1}`));
        expect(lesson.steps.length).toBeGreaterThan(1);
        lesson.steps.forEach((s, i) => {
          expectBothLanguages(s.title, `step ${i + 1} title`);
          expectBothLanguages(s.body, `step ${i + 1} body`);
          expect(s.seen.length, `step ${i + 1} has something to see`).toBeGreaterThan(0);
        });
      });

      it('states claims in its scenario, and every one holds', () => {
        const { report } = run(0);
        expect(report.expectations.length).toBeGreaterThan(0);
        for (const e of report.expectations) expect(e.held, `${lesson.scenario}: ${JSON.stringify(e)}`).toBe(true);
      }, 120_000);

      lesson.steps.forEach((step, index) => {
        it(`step ${index + 1} ("${step.title.en}") is seen on the run its actions make`, () => {
          const progress = stepProgress(step, index, run(index + 1).inputs);
          expect(progress.seen, JSON.stringify(progress.results.filter((r) => !r.held))).toBe(true);
        }, 120_000);

        if (step.actions.length > 0) {
          it(`step ${index + 1} is not seen without its actions`, () => {
            expect(stepProgress(step, index, run(index).inputs).seen).toBe(false);
          }, 120_000);
        }
      });
    });
  }
});

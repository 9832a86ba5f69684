/**
 * Which steps of a lesson a run has shown: a step is seen when every one of its expectations
 * holds on the run so far (the same check as a scenario's expectations, on the same figures).
 */
import { checkExpectations, type ExpectationInputs, type ExpectationResult } from '../run/expectations.ts';
import type { Lesson, LessonStep } from './lesson.ts';

export interface StepProgress {
  step: number;
  seen: boolean;
  /** each of the step's expectations, with what the run showed */
  results: ExpectationResult[];
}

export function stepProgress(step: LessonStep, index: number, inputs: ExpectationInputs): StepProgress {
  const results = checkExpectations(step.seen, inputs);
  return { step: index, seen: results.every((r) => r.held), results };
}

export function lessonProgress(lesson: Lesson, inputs: ExpectationInputs): StepProgress[] {
  return lesson.steps.map((step, index) => stepProgress(step, index, inputs));
}

/**
 * A lesson's scenario as a step leaves it: the scenario file (as parsed, before validation) with
 * the actions of the steps so far applied, so the validator checks the result as it checks any
 * scenario and the page loads it as any scenario. Pure: the caller reads the file.
 */
import type { Lesson, LessonAction } from './lesson.ts';
import type { ScheduledOperation } from '../job/scheduled-operation.ts';

type ScenarioInput = Record<string, unknown>;

/** The scenario input with the actions of steps `0 … upTo − 1` applied (`upTo` 0: as written). */
export function lessonScenarioInput(lesson: Lesson, input: ScenarioInput, upTo: number): ScenarioInput {
  const actions = lesson.steps.slice(0, upTo).flatMap((step) => step.actions);
  // Every action copies what it changes, so the input stays as it was.
  return actions.reduce(applyLessonAction, input);
}

/** The operator requests of steps `0 … upTo − 1`, by time: the run makes them besides the scenario. */
export function lessonOperations(lesson: Lesson, upTo: number): ScheduledOperation[] {
  const actions = lesson.steps.slice(0, upTo).flatMap((step) => step.actions);
  const operations = actions.flatMap((a) => (a.kind === 'operate' ? [{ at_ms: a.at_ms, operation: a.operation }] : []));
  // Stable: two requests at one time keep the order the steps make them in.
  return operations.sort((a, b) => a.at_ms - b.at_ms);
}

/** One action on a copy of the scenario input. */
export function applyLessonAction(input: ScenarioInput, action: LessonAction): ScenarioInput {
  switch (action.kind) {
    case 'configure':
      return { ...input, config: { ...asRecord(input['config']), [action.option]: action.value } };
    case 'set-sink':
      return withVertex(input, action.vertex, { sink: action.sink });
    case 'set-parallelism':
      return withVertex(input, action.vertex, { parallelism: action.parallelism });
    case 'schedule-fault': {
      // The file form: the time is `at` (ms here), the other fields as the fault has them.
      const { at_ms, ...fault } = action.fault;
      const faults = Array.isArray(input['faults']) ? input['faults'] : [];
      return { ...input, faults: [...faults, { at: at_ms, ...fault }] };
    }
    case 'operate':
      return input; // not a change of the file: lessonOperations hands it to the run
  }
}

/** The input with `fields` set on the vertex `id` (the validator names a vertex that is not there). */
function withVertex(input: ScenarioInput, id: string, fields: Record<string, unknown>): ScenarioInput {
  const job = asRecord(input['job']);
  const vertices = Array.isArray(job['vertices']) ? job['vertices'] : [];
  const changed = vertices.map((v) => (asRecord(v)['id'] === id ? { ...asRecord(v), ...fields } : v));
  return { ...input, job: { ...job, vertices: changed } };
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A lesson's actions as edits of its scenario file, which the validator then checks like any scenario. */
import { describe, expect, it } from 'vitest';
import type { Lesson, LessonAction } from '../../engine/lessons/lesson.ts';
import { applyLessonAction, lessonOperations, lessonScenarioInput } from '../../engine/lessons/lesson-scenario.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';

const file = (): Record<string, unknown> => ({
  version: 1,
  name: 'edited',
  job: {
    vertices: [
      { id: 'src', type: 'source', source: { kind: 'sequence', keys: 4, rate_per_s: 100 } },
      { id: 'count', type: 'keyed-aggregate', aggregate: 'count' },
      { id: 'out', type: 'sink', sink: 'plain' },
    ],
    edges: [
      { from: 'src', to: 'count', partitioning: 'hash' },
      { from: 'count', to: 'out' },
    ],
  },
  config: { 'execution.checkpointing.interval': '1 s' },
  cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 },
  run: { until: '5 s' },
});

function validated(input: Record<string, unknown>) {
  const result = validateScenario(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.scenario;
}

describe('lesson actions', () => {
  it.each<[string, LessonAction, (s: ReturnType<typeof validated>) => unknown, unknown]>([
    ['sets a Flink option in its syntax', { kind: 'configure', option: 'execution.checkpointing.min-pause', value: '500 ms' }, (s) => s.config['execution.checkpointing.min-pause'], 500],
    ['makes a sink two-phase-commit', { kind: 'set-sink', vertex: 'out', sink: 'two-phase-commit' }, (s) => s.job.vertices[2]!.operator, { type: 'sink', sink: 'two-phase-commit' }],
    ['sets a vertex parallelism', { kind: 'set-parallelism', vertex: 'count', parallelism: 4 }, (s) => s.job.vertices[1]!.parallelism, 4],
    [
      'schedules a fault at its time',
      { kind: 'schedule-fault', fault: { at_ms: 2500, type: 'kill-task-manager', task_manager: 'tm-1' } },
      (s) => s.faults,
      [{ at_ms: 2500, type: 'kill-task-manager', task_manager: 'tm-1' }],
    ],
  ])('%s', (_, action, read, expected) => {
    const input = file();
    const before = JSON.stringify(input);
    expect(read(validated(applyLessonAction(input, action)))).toEqual(expected);
    expect(JSON.stringify(input)).toBe(before); // the file as read is left as it was
  });

  it('applies the actions of the steps before the one asked for, in order', () => {
    const step = (actions: LessonAction[]) => ({ title: { en: 'x', 'zh-CN': '甲' }, body: { en: 'x', 'zh-CN': '甲' }, look_at: [], actions, seen: [] });
    const lesson: Lesson = {
      id: 'l',
      title: { en: 'x', 'zh-CN': '甲' },
      paragraphs: [],
      scenario: 'lessons/l.yaml',
      steps: [
        step([{ kind: 'configure', option: 'execution.checkpointing.max-concurrent-checkpoints', value: 3 }]),
        step([{ kind: 'configure', option: 'execution.checkpointing.max-concurrent-checkpoints', value: 2 }]),
        step([{ kind: 'configure', option: 'execution.checkpointing.max-concurrent-checkpoints', value: 5 }]),
      ],
    };
    const concurrent = (upTo: number) => validated(lessonScenarioInput(lesson, file(), upTo)).config['execution.checkpointing.max-concurrent-checkpoints'];
    expect([0, 1, 2, 3].map(concurrent)).toEqual([undefined, 3, 2, 5]);
  });

  it('leaves the file as it is for an operator request, and hands the requests of the earlier steps to the run by time', () => {
    const step = (actions: LessonAction[]) => ({ title: { en: 'x', 'zh-CN': '甲' }, body: { en: 'x', 'zh-CN': '甲' }, look_at: [], actions, seen: [] });
    const cancel: LessonAction = { kind: 'operate', at_ms: 6000, operation: { type: 'cancel' } };
    const rescale: LessonAction = { kind: 'operate', at_ms: 3500, operation: { type: 'rescale', vertex: 'count', parallelism: 4 } };
    const lesson: Lesson = {
      id: 'l',
      title: { en: 'x', 'zh-CN': '甲' },
      paragraphs: [],
      scenario: 'lessons/l.yaml',
      steps: [step([cancel]), step([{ kind: 'configure', option: 'execution.checkpointing.num-retained', value: 3 }, rescale]), step([])],
    };
    const input = file();
    expect(applyLessonAction(input, cancel)).toBe(input);
    expect(lessonOperations(lesson, 0)).toEqual([]);
    expect(lessonOperations(lesson, 1)).toEqual([{ at_ms: 6000, operation: { type: 'cancel' } }]);
    expect(lessonOperations(lesson, 3)).toEqual([
      { at_ms: 3500, operation: { type: 'rescale', vertex: 'count', parallelism: 4 } },
      { at_ms: 6000, operation: { type: 'cancel' } },
    ]);
    expect(validated(lessonScenarioInput(lesson, input, 3)).config['execution.checkpointing.num-retained']).toBe(3);
  });
});

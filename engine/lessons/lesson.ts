/**
 * A guided lesson (DESIGN.md, contract 5): texts in English and Simplified Chinese, a scenario,
 * and steps. Each step says what to do and what to look for; it may carry actions the page can do
 * for the learner ("Do it for me"), it names the regions of the page to look at (the page outlines
 * them), and it is ticked off ("seen") when its expectations hold on
 * the run, the same expectations a scenario file states (engine/run/expectations.ts), so CI, the
 * CLI and the page judge a step alike. All of it is data: no behaviour lives in a lesson.
 */
import type { CompareVariation } from '../compare/compare-variation.ts';
import type { ConfigValue, ExpectationSpec, FaultSpec } from '../scenario/scenario-types.ts';
import type { OperatorRequest } from '../job/scheduled-operation.ts';
import type { LookTarget } from './look-target.ts';

/** The languages every lesson is written in (the page's locales). */
export const LESSON_LANGUAGES = ['en', 'zh-CN'] as const;
export type LessonLanguage = (typeof LESSON_LANGUAGES)[number];

/** One text in every language of the lessons; the Chinese is written natively, keeping Flink's terms. */
export type LocalizedText = Readonly<Record<LessonLanguage, string>>;

/**
 * What "Do it for me" does: a change of the lesson's scenario (or an operator request at a set
 * time), after which the run starts over from 0. Flink options and a sink's delivery guarantee are fixed when a job is submitted, and a
 * fault at a set time makes the run the same for every learner.
 */
export type LessonAction =
  /** set a Flink option, in Flink's key and value syntax (`execution.checkpointing.min-pause`, `500 ms`) */
  | { kind: 'configure'; option: string; value: ConfigValue }
  /** choose a sink's kind (a code change in Flink: e.g. KafkaSink's DeliveryGuarantee) */
  | { kind: 'set-sink'; vertex: string; sink: 'plain' | 'two-phase-commit' }
  /** a vertex's parallelism (in Flink, the operator's setParallelism when the job is submitted) */
  | { kind: 'set-parallelism'; vertex: string; parallelism: number }
  /** add a fault to the schedule (a scenario's `faults` entry, `at_ms` from the start of the run) */
  | { kind: 'schedule-fault'; fault: FaultSpec }
  /**
   * an operator's request at a set time, which the scenario file has no entry for: cancel the job
   * (`flink cancel`), rescale it, restart it from a savepoint; the run carries it out through the
   * JobMaster as the page's buttons do (lesson-scenario.ts, `lessonOperations`)
   */
  | { kind: 'operate'; at_ms: number; operation: OperatorRequest };

export interface LessonStep {
  title: LocalizedText;
  /** what to do and what to look for */
  body: LocalizedText;
  /** the regions of the page the body tells the learner to look at, in the order it names them; the page outlines them */
  look_at: readonly LookTarget[];
  /** done in order on top of the scenario as the earlier steps left it; none: the step only looks */
  actions: readonly LessonAction[];
  /** the step is seen once all of these hold on the run (of the scenario with this and the earlier steps' actions) */
  seen: readonly ExpectationSpec[];
}

export interface Lesson {
  /** stable, used in links and `openLesson(id)`: `[a-z0-9-]+` */
  id: string;
  title: LocalizedText;
  /** a few short paragraphs */
  paragraphs: readonly LocalizedText[];
  /**
   * the scenario file, relative to the site root (`lessons/interval-and-min-pause.yaml`, served
   * from public/); its expectations are the lesson's claims about the run before any step's action
   */
  scenario: string;
  steps: readonly LessonStep[];
  /** a lesson whose point is a contrast offers compare mode with this variation on its scenario */
  compare?: CompareVariation;
}

/**
 * The lesson the learner has open, and which of its steps they have seen. Opening a lesson loads
 * its scenario (public/lessons/…) with the actions of the steps before the chosen one (operator
 * requests such as a cancel go to the run beside it); "Do it for me" loads it with the step's own
 * actions too and runs it. While the run is the lesson's (its
 * file is the loaded scenario's source, configuration edits included), the steps up to the
 * current one are checked against the run as it goes; a step once seen stays ticked, in the
 * browser's storage, across reloads.
 */
import type { Lesson } from '../../engine/lessons/lesson.ts';
import type { LookTarget } from '../../engine/lessons/look-target.ts';
import { stepProgress } from '../../engine/lessons/lesson-progress.ts';
import { lessonOperations, lessonScenarioInput } from '../../engine/lessons/lesson-scenario.ts';
import { readScenarioText } from '../playground/scenario-text-reader.ts';
import { nextTask } from '../next-task.ts';
import { preParsedScenarioUrl } from './pre-parsed-scenario-url.ts';
import { FIRST_LESSON, LESSON_OUTLINE, loadEveryLessonLanguage, loadLesson } from './lesson-loader.ts';
import type { LessonProgress, LessonSummary, OpenLessonResult } from '../playground/api/playground-api-types.ts';
import type { PlaygroundState } from '../playground-state.svelte.ts';

const STORAGE_KEY = 'checkpoint-playground.lessons.seen';
/** How often (wall ms) the open lesson's steps are checked against the run, at most. */
const CHECK_EVERY_MS = 250;

/** per lesson id, the indexes of the steps seen */
type SeenSteps = Record<string, number[]>;

function storedSeen(): SeenSteps {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) ?? '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as SeenSteps) : {};
  } catch {
    return {}; // storage can be disabled or hold something else: start with nothing seen
  }
}

/** Every lesson's titles in every language: the first page holds English and the page's language until asked. */
export async function lessonSummaries(): Promise<LessonSummary[]> {
  await loadEveryLessonLanguage();
  return LESSON_OUTLINE.map((l) => ({ id: l.id, title: { ...l.title }, steps: l.steps.map((s) => ({ title: { ...s.title } })) }));
}

/** The lesson and step (0-based) a page URL names (`?lesson=<id>&step=<n>`, n from 1), if any. */
export function lessonLink(href: string): { id: string; step: number } | null {
  const params = new URL(href).searchParams;
  const id = params.get('lesson');
  if (id === null) return null;
  const step = Number(params.get('step') ?? '1');
  return { id, step: Number.isInteger(step) && step >= 1 ? step - 1 : 0 };
}

/** Where a lesson's scenario is: the source of the run it loads. */
export function lessonScenarioUrl(lesson: Lesson): string {
  return `/${lesson.scenario}`;
}

/**
 * Where a lesson's scenario is fetched from: the same document pre-parsed as JSON, which the site
 * serves beside the YAML (node/pre-parsed-scenarios.ts), so the page needs no YAML parser for it.
 */
export function lessonScenarioDataUrl(lesson: Lesson): string {
  return preParsedScenarioUrl(lessonScenarioUrl(lesson));
}

export class LessonState {
  lesson = $state.raw<Lesson | null>(null);
  /** the step the learner is on, 0-based */
  step = $state(0);
  seen = $state.raw<SeenSteps>(storedSeen());
  /** the lesson list is showing (the first page a newcomer sees) */
  listOpen = $state(true);

  #lastCheck = -Infinity;
  #trailing: ReturnType<typeof setTimeout> | undefined;
  #url: string | null = null;

  constructor(private readonly playground: PlaygroundState) {
    playground.hub.on('tick', () => this.#checkSoon());
    playground.hub.on('pause', () => this.check());
    playground.hub.on('load', () => {
      if (this.lesson && !this.#runIsLessons()) this.#leave();
    });
  }

  /** Another scenario was loaded: back to the list, and the page's URL no longer names the lesson. */
  #leave(): void {
    this.listOpen = true;
    if (typeof history === 'undefined') return;
    const url = new URL(location.href);
    url.searchParams.delete('lesson');
    url.searchParams.delete('step');
    if (url.href !== location.href) history.replaceState(history.state, '', url);
  }

  /**
   * Loads the lesson at `step` (0-based): its scenario with the earlier steps' actions, paused at 0.
   * Its text (a chunk of its own) is in before the panel switches to it.
   */
  async open(id: string, step = 0): Promise<OpenLessonResult> {
    const lesson = await loadLesson(id);
    if (!lesson) throw new Error(`No lesson "${id}" (lessons: ${LESSON_OUTLINE.map((l) => l.id).join(', ')}).`);
    if (!Number.isInteger(step) || step < 0 || step >= lesson.steps.length) {
      throw new Error(`Lesson "${id}" has steps 1 to ${lesson.steps.length}; got ${String(step + 1)}.`);
    }
    const scenario = await this.#load(lesson, step);
    this.lesson = lesson;
    this.step = step;
    this.listOpen = false;
    this.#rememberInUrl();
    return { id, step: step + 1, steps: lesson.steps.length, scenario };
  }

  /**
   * A newcomer's first page: lesson 1 open and its scenario running, so a checkpoint completes
   * within about a second; the list is one click away. A scenario that the API or the picker
   * loaded (or began to load) while the lesson's file was fetched keeps the page.
   */
  async openFirstPage(): Promise<void> {
    const lesson = FIRST_LESSON;
    const input = await this.#scenarioInput(lesson, 0);
    // Also one asked for and not yet installed (an API call right after the page's script ran).
    if (this.playground.source !== null || this.playground.loadsAsked > 0) return;
    await this.#loadInput(lesson, input, 0);
    // The lesson's steps and the run's start in a task after the run's set-up (the page's start-up
    // long tasks): unless something else was loaded meanwhile.
    await nextTask();
    if (!this.#runIsLessons() || this.#url !== lessonScenarioUrl(lesson)) return;
    this.lesson = lesson;
    this.step = 0;
    this.listOpen = false;
    this.#rememberInUrl();
    this.playground.start();
  }

  /** "Do it for me": the scenario with this step's actions too, run from 0. */
  async doStep(step: number): Promise<void> {
    const lesson = this.lesson;
    if (!lesson) return;
    await this.#load(lesson, step + 1);
    this.step = step;
    this.playground.start();
  }

  /** The regions of the page the open step points at; none while the list shows. */
  get lookAt(): readonly LookTarget[] {
    if (!this.lesson || this.listOpen) return [];
    return this.lesson.steps[this.step]?.look_at ?? [];
  }

  goTo(step: number): void {
    if (!this.lesson || step < 0 || step >= this.lesson.steps.length) return;
    this.step = step;
    this.#rememberInUrl();
  }

  /** Links carry the lesson and step; a scenario chosen in the picker takes the page back (`?scenario=`). */
  #rememberInUrl(): void {
    if (!this.lesson || typeof history === 'undefined') return;
    const url = new URL(location.href);
    url.searchParams.delete('scenario');
    url.searchParams.set('lesson', this.lesson.id);
    url.searchParams.set('step', String(this.step + 1));
    if (url.href !== location.href) history.replaceState(history.state, '', url);
  }

  isSeen(lessonId: string, step: number): boolean {
    return this.seen[lessonId]?.includes(step) ?? false;
  }

  progress(): LessonProgress | null {
    const lesson = this.lesson;
    if (!lesson) return null;
    this.check();
    return { id: lesson.id, step: this.step + 1, seen: lesson.steps.map((_, i) => this.isSeen(lesson.id, i)) };
  }

  /** Ticks off the steps up to the current one that the run has shown. */
  check(): void {
    const lesson = this.lesson;
    const driver = this.playground.driver;
    if (!lesson || !driver || !this.#runIsLessons()) return;
    this.#lastCheck = performance.now();
    const inputs = driver.expectationInputs();
    const newly = lesson.steps
      .map((step, i) => ({ step, i }))
      .filter(({ i }) => i <= this.step && !this.isSeen(lesson.id, i))
      .filter(({ step, i }) => stepProgress(step, i, inputs).seen)
      .map(({ i }) => i);
    if (newly.length === 0) return;
    this.#markSeen(lesson.id, newly);
    // The current step was seen: on to the next one not seen yet, whose own check begins now.
    const next = lesson.steps.findIndex((_, i) => i > this.step && !this.isSeen(lesson.id, i));
    if (this.isSeen(lesson.id, this.step) && next !== -1) this.goTo(next);
  }

  /** At most every CHECK_EVERY_MS, and once more after the last tick (a run that stopped is checked as it stopped). */
  #checkSoon(): void {
    const wait = this.#lastCheck + CHECK_EVERY_MS - performance.now();
    if (wait <= 0) return this.check();
    this.#trailing ??= setTimeout(() => {
      this.#trailing = undefined;
      this.check();
    }, wait);
  }

  #runIsLessons(): boolean {
    const source = this.playground.source;
    return source?.kind === 'url' && source.url === this.#url;
  }

  async #load(lesson: Lesson, upTo: number) {
    return this.#loadInput(lesson, await this.#scenarioInput(lesson, upTo), upTo);
  }

  /** The lesson's scenario with the actions of its steps before `upTo`. */
  async #scenarioInput(lesson: Lesson, upTo: number): Promise<Record<string, unknown>> {
    const url = lessonScenarioDataUrl(lesson);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`Lesson "${lesson.id}": could not fetch ${url} (HTTP ${response.status}).`);
    const parsed = await readScenarioText(await response.text(), 'json');
    if (!parsed.ok) throw new Error(`Lesson "${lesson.id}": ${url} is not valid JSON.`);
    return lessonScenarioInput(lesson, parsed.value as Record<string, unknown>, upTo);
  }

  /** The scenario as the steps before `upTo` left it, with their operator requests (a cancel, a rescale) at their times. */
  #loadInput(lesson: Lesson, input: Record<string, unknown>, upTo: number) {
    const url = lessonScenarioUrl(lesson);
    this.#url = url;
    return this.playground.load(input, { kind: 'url', url }, lessonOperations(lesson, upTo));
  }

  #markSeen(id: string, steps: number[]): void {
    this.seen = { ...this.seen, [id]: [...new Set([...(this.seen[id] ?? []), ...steps])].sort((a, b) => a - b) };
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(this.seen));
    } catch {
      // storage can be disabled: the ticks last as long as the page
    }
  }
}

/** The lessons' outline, generated from the catalog by node/lesson-outline.ts. */
declare module 'virtual:lesson-outline' {
  type Lesson = import('../../engine/lessons/lesson.ts').Lesson;
  type LocalizedText = import('../../engine/lessons/lesson.ts').LocalizedText;

  /** What the lesson list shows of a lesson, and `playground.lessons()` lists. */
  export interface LessonOutline {
    readonly id: string;
    readonly title: LocalizedText;
    readonly steps: ReadonlyArray<{ readonly title: LocalizedText }>;
  }

  /** Lesson 1, whole: the first page opens it. */
  export const FIRST_LESSON: Lesson;
  /** Every lesson, in the catalog's order. */
  export const LESSON_OUTLINE: readonly LessonOutline[];
  /** The other lessons, each a chunk of its own, by id. */
  export const LESSON_LOADERS: Readonly<Record<string, () => Promise<Lesson>>>;
}

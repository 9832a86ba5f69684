/** The lessons' outline, generated from the catalog by node/lesson-outline.ts. */
declare module 'virtual:lesson-outline' {
  type Lesson = import('../../engine/lessons/lesson.ts').Lesson;
  type LessonLanguage = import('../../engine/lessons/lesson.ts').LessonLanguage;
  type LessonLanguageText = import('./lesson-language-text.ts').LessonLanguageText;

  /** What the lesson list shows of a lesson, and `playground.lessons()` lists. */
  export type LessonOutline = import('./lesson-language-text.ts').LessonOutlineEntry;

  /** Lesson 1, whole: the first page opens it. Its text is English until a language's text is added (lesson-language-text.ts). */
  export const FIRST_LESSON: Lesson;
  /** Every lesson, in the catalog's order; English until a language's text is added. */
  export const LESSON_OUTLINE: readonly LessonOutline[];
  /** The other lessons, each a chunk of its own (every language), by id. */
  export const LESSON_LOADERS: Readonly<Record<string, () => Promise<Lesson>>>;
  /** The outline's and lesson 1's text in each language other than English, each a chunk of its own. */
  export const LESSON_LANGUAGE_LOADERS: Readonly<Partial<Record<LessonLanguage, () => Promise<LessonLanguageText>>>>;
}

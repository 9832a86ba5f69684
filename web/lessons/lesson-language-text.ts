/**
 * What one language adds to the first page's lessons, which hold their text in English only
 * (node/lesson-outline.ts): every lesson's title and step titles (the list), and lesson 1's text
 * (the page opens on it). Lessons 2 to 12 carry every language in their own chunks.
 */
import type { Lesson, LessonLanguage } from '../../engine/lessons/lesson.ts';

export interface LessonLanguageText {
  /** per lesson, in the catalog's order */
  readonly outline: ReadonlyArray<{ readonly title: string; readonly steps: readonly string[] }>;
  readonly first: {
    readonly title: string;
    readonly paragraphs: readonly string[];
    readonly steps: ReadonlyArray<{ readonly title: string; readonly body: string }>;
  };
}

/** The outline's shape (`virtual:lesson-outline`), its texts keyed by language. */
export interface LessonOutlineEntry {
  readonly id: string;
  readonly title: Lesson['title'];
  readonly steps: ReadonlyArray<{ readonly title: Lesson['title'] }>;
}

type Writable = Record<LessonLanguage, string>;

/**
 * Adds `language`'s text to the outline and lesson 1 (which hold the other languages' already):
 * the page switches to a language only once this is done (the i18n layer's translations), so no
 * text renders before it is in.
 */
export function addLessonLanguage(language: LessonLanguage, text: LessonLanguageText, outline: readonly LessonOutlineEntry[], first: Lesson): void {
  outline.forEach((lesson, i) => {
    const titles = text.outline[i]!;
    (lesson.title as Writable)[language] = titles.title;
    lesson.steps.forEach((step, j) => ((step.title as Writable)[language] = titles.steps[j]!));
  });
  (first.title as Writable)[language] = text.first.title;
  first.paragraphs.forEach((paragraph, i) => ((paragraph as Writable)[language] = text.first.paragraphs[i]!));
  first.steps.forEach((step, i) => {
    (step.title as Writable)[language] = text.first.steps[i]!.title;
    (step.body as Writable)[language] = text.first.steps[i]!.body;
  });
}

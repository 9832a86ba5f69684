/**
 * The lessons for the page: the outline of all of them (titles, step titles) and lesson 1 are in
 * the first chunk, in English; each other language's text of them is a chunk of its own, loaded
 * with that language's catalogue (the i18n layer's translations), so the page never renders a
 * lesson in a language whose text is not in. Every other lesson's text is a chunk of its own
 * (node/lesson-outline.ts), loaded when it is opened, and all of them in idle time once the run's
 * first checkpoint is on screen, so a click on a lesson later finds it loaded.
 */
import type { Lesson, LessonLanguage } from '../../engine/lessons/lesson.ts';
import { FIRST_LESSON, LESSON_LANGUAGE_LOADERS, LESSON_LOADERS, LESSON_OUTLINE, type LessonOutline } from 'virtual:lesson-outline';
import { i18n } from '../i18n/i18n.svelte.ts';
import { addLessonLanguage, type LessonLanguageText } from './lesson-language-text.ts';

export { FIRST_LESSON, LESSON_OUTLINE, type LessonOutline };

const loading = new Map<string, Promise<Lesson>>([[FIRST_LESSON.id, Promise.resolve(FIRST_LESSON)]]);

/** The lesson `id`, its chunk loaded first; undefined for an id the catalog does not have. A failed load can be retried. */
export async function loadLesson(id: string): Promise<Lesson | undefined> {
  const loader = Object.hasOwn(LESSON_LOADERS, id) ? LESSON_LOADERS[id] : undefined;
  if (!loading.has(id) && !loader) return undefined;
  const lesson = loading.get(id) ?? loader!();
  loading.set(id, lesson);
  try {
    return await lesson;
  } catch (error) {
    loading.delete(id);
    throw error;
  }
}

/** Loads every lesson's chunk in the background. */
export function prefetchLessons(): void {
  for (const { id } of LESSON_OUTLINE) void loadLesson(id).catch(() => {});
}

/** The outline of the lesson `id` (the doctor names the lesson that explains a finding by its title). */
export function lessonOutline(id: string): LessonOutline | undefined {
  return LESSON_OUTLINE.find((lesson) => lesson.id === id);
}

const languages = new Map<LessonLanguage, Promise<void>>();

/** Adds `language`'s text to the outline and lesson 1 (once); a failed load can be retried. */
function loadLessonLanguage(language: LessonLanguage, load: () => Promise<LessonLanguageText>): Promise<void> {
  let added = languages.get(language);
  if (!added) {
    added = load().then((text) => addLessonLanguage(language, text, LESSON_OUTLINE, FIRST_LESSON));
    languages.set(language, added);
    added.catch(() => languages.delete(language));
  }
  return added;
}

/** The outline and lesson 1 in every language (`playground.lessons()` lists every title in each). */
export async function loadEveryLessonLanguage(): Promise<void> {
  await Promise.all(Object.entries(LESSON_LANGUAGE_LOADERS).map(([language, load]) => loadLessonLanguage(language as LessonLanguage, load)));
}

// The page switches to a language once its lesson text is in too.
for (const [language, load] of Object.entries(LESSON_LANGUAGE_LOADERS)) i18n.addTranslations(language as LessonLanguage, () => loadLessonLanguage(language as LessonLanguage, load));

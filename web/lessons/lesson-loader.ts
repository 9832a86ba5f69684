/**
 * The lessons for the page: the outline of all of them (titles, step titles) and lesson 1 are in
 * the first chunk; every other lesson's text is a chunk of its own (node/lesson-outline.ts), loaded
 * when it is opened, and all of them in idle time once the run's first checkpoint is on screen, so
 * a click on a lesson later finds it loaded.
 */
import type { Lesson } from '../../engine/lessons/lesson.ts';
import { FIRST_LESSON, LESSON_LOADERS, LESSON_OUTLINE, type LessonOutline } from 'virtual:lesson-outline';

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

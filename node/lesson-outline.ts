/**
 * The lessons as the first page needs them, generated from the catalog at build time (virtual
 * module `virtual:lesson-outline`): every lesson's id, titles and step titles (the lesson list,
 * `playground.lessons()`), lesson 1 whole (the page opens on it, running), and for every other
 * lesson a loader of its own chunk. Their paragraphs and steps (most of the catalog's weight, in
 * two languages) stay out of the first page's bundle; the catalog stays the one source.
 *
 * The dev server restarts when the catalog changes (it is a dependency of the Vite config), so the
 * outline never lags behind it.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { LESSONS } from '../engine/lessons/lesson-catalog.ts';
import type { Lesson } from '../engine/lessons/lesson.ts';

export const LESSON_OUTLINE_MODULE = 'virtual:lesson-outline';
const RESOLVED = `\0${LESSON_OUTLINE_MODULE}`;

/** Each lesson lives in engine/lessons/catalog/<id>.ts (tests/lessons/lesson-outline.test.ts holds the catalog to it). */
function lessonFile(lesson: Lesson): string {
  return fileURLToPath(new URL(`../engine/lessons/catalog/${lesson.id}.ts`, import.meta.url));
}

/** The module's source: the outline as data, lesson 1 imported, the others each a dynamic import. */
export function lessonOutlineSource(lessons: readonly Lesson[]): string {
  const [first, ...others] = lessons;
  if (!first) throw new Error('The lesson catalog is empty: the first page has no lesson to open.');
  const outline = lessons.map((l) => ({ id: l.id, title: l.title, steps: l.steps.map((s) => ({ title: s.title })) }));
  // A catalog module exports its lesson under a name of its own: the loader picks it by id.
  const pick = (id: string) => `(module) => Object.values(module).find((value) => value?.id === ${JSON.stringify(id)})`;
  const loaders = others.map((l) => `  ${JSON.stringify(l.id)}: () => import(${JSON.stringify(lessonFile(l))}).then(${pick(l.id)}),`);
  return [
    `import * as firstModule from ${JSON.stringify(lessonFile(first))};`,
    `export const FIRST_LESSON = (${pick(first.id)})(firstModule);`,
    `export const LESSON_OUTLINE = ${JSON.stringify(outline)};`,
    `export const LESSON_LOADERS = {`,
    ...loaders,
    `};`,
  ].join('\n');
}

export function lessonOutline(): Plugin {
  return {
    name: 'lesson-outline',
    resolveId(id) {
      return id === LESSON_OUTLINE_MODULE ? RESOLVED : undefined;
    },
    load(id) {
      return id === RESOLVED ? lessonOutlineSource(LESSONS) : undefined;
    },
  };
}

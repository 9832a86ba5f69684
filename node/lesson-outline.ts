/**
 * The lessons as the first page needs them, generated from the catalog at build time (virtual
 * module `virtual:lesson-outline`): every lesson's id, title and step titles (the lesson list,
 * `playground.lessons()`), lesson 1 whole (the page opens on it, running), and for every other
 * lesson a loader of its own chunk. Their paragraphs and steps (most of the catalog's weight, in
 * two languages) stay out of the first page's bundle; the catalog stays the one source.
 *
 * The first page holds that text in English only: the other languages' titles and lesson 1's text
 * are a module each (`virtual:lesson-outline/zh-CN`), which the page loads with that language's
 * catalogue (web/lessons/lesson-loader.ts), so a reader of one language does not download the other.
 *
 * The dev server restarts when the catalog changes (it is a dependency of the Vite config), so the
 * outline never lags behind it.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { LESSONS } from '../engine/lessons/lesson-catalog.ts';
import { LESSON_LANGUAGES, type Lesson, type LessonLanguage, type LocalizedText } from '../engine/lessons/lesson.ts';
import type { LessonLanguageText, LessonOutlineEntry } from '../web/lessons/lesson-language-text.ts';

export const LESSON_OUTLINE_MODULE = 'virtual:lesson-outline';
const RESOLVED = `\0${LESSON_OUTLINE_MODULE}`;

/** The languages whose lesson text is not in the first page: each a module of its own. */
const TRANSLATED: readonly LessonLanguage[] = LESSON_LANGUAGES.filter((language) => language !== 'en');

const translationModule = (language: LessonLanguage) => `${LESSON_OUTLINE_MODULE}/${language}`;

/** Each lesson lives in engine/lessons/catalog/<id>.ts (tests/lessons/lesson-outline.test.ts holds the catalog to it). */
function lessonFile(lesson: Lesson): string {
  return fileURLToPath(new URL(`../engine/lessons/catalog/${lesson.id}.ts`, import.meta.url));
}

/** The outline and lesson 1 with their text in English only (what the first page's chunk holds). */
export function englishLessons(lessons: readonly Lesson[]): { outline: LessonOutlineEntry[]; first: Lesson } {
  const [first] = lessons;
  if (!first) throw new Error('The lesson catalog is empty: the first page has no lesson to open.');
  const english = (text: LocalizedText) => ({ en: text.en }) as LocalizedText;
  const outline = lessons.map((l) => ({ id: l.id, title: english(l.title), steps: l.steps.map((s) => ({ title: english(s.title) })) }));
  const firstInEnglish: Lesson = {
    ...first,
    title: english(first.title),
    paragraphs: first.paragraphs.map(english),
    steps: first.steps.map((step) => ({ ...step, title: english(step.title), body: english(step.body) })),
  };
  return { outline, first: firstInEnglish };
}

/** The first page's lesson text in `language` (web/lessons/lesson-loader.ts adds it to the English). */
export function lessonLanguageText(lessons: readonly Lesson[], language: LessonLanguage): LessonLanguageText {
  const first = lessons[0]!;
  return {
    outline: lessons.map((l) => ({ title: l.title[language], steps: l.steps.map((s) => s.title[language]) })),
    first: {
      title: first.title[language],
      paragraphs: first.paragraphs.map((p) => p[language]),
      steps: first.steps.map((s) => ({ title: s.title[language], body: s.body[language] })),
    },
  };
}

/** The module's source: the outline and lesson 1 as data, the other lessons and languages each a dynamic import. */
export function lessonOutlineSource(lessons: readonly Lesson[]): string {
  const { outline, first } = englishLessons(lessons);
  // A catalog module exports its lesson under a name of its own: the loader picks it by id.
  const pick = (id: string) => `(module) => Object.values(module).find((value) => value?.id === ${JSON.stringify(id)})`;
  const loaders = lessons.slice(1).map((l) => `  ${JSON.stringify(l.id)}: () => import(${JSON.stringify(lessonFile(l))}).then(${pick(l.id)}),`);
  const languages = TRANSLATED.map((language) => `  ${JSON.stringify(language)}: () => import(${JSON.stringify(translationModule(language))}).then((module) => module.LESSON_LANGUAGE_TEXT),`);
  return [
    `export const FIRST_LESSON = ${JSON.stringify(first)};`,
    `export const LESSON_OUTLINE = ${JSON.stringify(outline)};`,
    `export const LESSON_LOADERS = {`,
    ...loaders,
    `};`,
    `export const LESSON_LANGUAGE_LOADERS = {`,
    ...languages,
    `};`,
  ].join('\n');
}

export function lessonOutline(): Plugin {
  const modules = new Map<string, () => string>([
    [LESSON_OUTLINE_MODULE, () => lessonOutlineSource(LESSONS)],
    ...TRANSLATED.map((language): [string, () => string] => [translationModule(language), () => `export const LESSON_LANGUAGE_TEXT = ${JSON.stringify(lessonLanguageText(LESSONS, language))};`]),
  ]);
  return {
    name: 'lesson-outline',
    resolveId(id) {
      return modules.has(id) ? `\0${id}` : undefined;
    },
    load(id) {
      return id.startsWith(RESOLVED) ? modules.get(id.slice(1))?.() : undefined;
    },
  };
}

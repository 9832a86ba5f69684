/**
 * The first page's lesson outline (node/lesson-outline.ts) is generated from the catalog: every
 * lesson is found in the file the outline loads it from, and the outline lists each one with the
 * catalog's titles and step titles, in the catalog's order: in English, the Chinese a module of its
 * own that, added to it, gives back the catalog.
 */
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import type { Lesson, LocalizedText } from '../../engine/lessons/lesson.ts';
import { englishLessons, lessonLanguageText, lessonOutlineSource } from '../../node/lesson-outline.ts';
import { addLessonLanguage } from '../../web/lessons/lesson-language-text.ts';

describe('the lesson outline', () => {
  it('finds every lesson of the catalog in engine/lessons/catalog/<its id>.ts', async () => {
    for (const lesson of LESSONS) {
      const module = (await import(`../../engine/lessons/catalog/${lesson.id}.ts`)) as Record<string, unknown>;
      expect(Object.values(module), lesson.id).toContain(lesson);
    }
  });

  it('lists every lesson with its English titles and step titles, holds lesson 1 in English and loads the others and the other languages on demand', () => {
    const source = lessonOutlineSource(LESSONS);
    const outline = JSON.parse(/export const LESSON_OUTLINE = (.*);/.exec(source)![1]!) as unknown;
    const english = (text: LocalizedText) => ({ en: text.en });
    expect(outline).toEqual(LESSONS.map((l) => ({ id: l.id, title: english(l.title), steps: l.steps.map((s) => ({ title: english(s.title) })) })));
    const first = JSON.parse(/export const FIRST_LESSON = (.*);/.exec(source)![1]!) as Lesson;
    expect(first.id).toBe('interval-and-min-pause');
    expect(JSON.stringify(first)).not.toContain('zh-CN');
    const loaded = [...source.matchAll(/^ {2}"([a-z0-9-]+)": \(\) => import\(/gm)].map((m) => m[1]);
    expect(loaded).toEqual(LESSONS.slice(1).map((l) => l.id));
    expect(source).toContain('import("virtual:lesson-outline/zh-CN")');
  });

  it('gives back the catalog’s outline and lesson 1 once the Chinese text is added to the English', () => {
    const { outline, first } = englishLessons(LESSONS);
    addLessonLanguage('zh-CN', lessonLanguageText(LESSONS, 'zh-CN'), outline, first);
    expect(outline).toEqual(LESSONS.map((l) => ({ id: l.id, title: l.title, steps: l.steps.map((s) => ({ title: s.title })) })));
    expect(first).toEqual(LESSONS[0]);
  });

  it('keeps the Chinese of every title and of lesson 1 in the zh-CN text, none of the English', () => {
    const text = lessonLanguageText(LESSONS, 'zh-CN');
    expect(text.outline.map((l) => l.title)).toEqual(LESSONS.map((l) => l.title['zh-CN']));
    expect(text.first.paragraphs).toEqual(LESSONS[0]!.paragraphs.map((p) => p['zh-CN']));
    const englishOfLessonOne = [LESSONS[0]!.title.en, ...LESSONS[0]!.paragraphs.map((p) => p.en), ...LESSONS[0]!.steps.map((s) => s.body.en)];
    expect(englishOfLessonOne.filter((en) => JSON.stringify(text).includes(en))).toEqual([]);
  });

  it('refuses an empty catalog, which would leave the first page without a lesson', () => {
    expect(() => lessonOutlineSource([])).toThrow(/catalog is empty/);
  });
});

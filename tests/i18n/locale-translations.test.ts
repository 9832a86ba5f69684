/**
 * Text a page keeps apart from the locale catalogues (the lessons' outline and lesson 1, English in
 * the first chunk) is loaded with its locale's chunk: the page switches to a locale only once the
 * translations added for it are in too, so nothing renders in a language whose text is missing.
 */
import { describe, expect, it, vi } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { i18n } from '../../web/i18n/i18n.svelte.ts';
import { FIRST_LESSON, LESSON_OUTLINE } from '../../web/lessons/lesson-loader.ts';

describe('translations loaded with a locale', () => {
  it('holds the lessons in English until the page turns Chinese, then lesson 1 and every title in Chinese', async () => {
    expect(i18n.locale).toBe('en');
    expect(FIRST_LESSON.title['zh-CN']).toBeUndefined();
    await i18n.setLocale('zh-CN', false);
    expect(i18n.locale).toBe('zh-CN');
    expect(FIRST_LESSON).toEqual(LESSONS[0]);
    expect(LESSON_OUTLINE.map((lesson) => lesson.title['zh-CN'])).toEqual(LESSONS.map((lesson) => lesson.title['zh-CN']));
  });

  it('switches to a locale only once the translations added for it are in', async () => {
    vi.resetModules();
    const fresh = (await import('../../web/i18n/i18n.svelte.ts')).i18n;
    let requested: () => void = () => {};
    const asked = new Promise<void>((resolve) => (requested = resolve));
    let finish: () => void = () => {};
    fresh.addTranslations('zh-CN', () => {
      requested();
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const switching = fresh.setLocale('zh-CN', false);
    await asked; // the zh-CN chunk is in and the translations are loading
    // every promise reaction queued so far has run (a switch that did not wait for them would have happened)
    await new Promise((resolve) => setImmediate(resolve));
    expect(fresh.locale).toBe('en');
    finish();
    await switching;
    expect(fresh.locale).toBe('zh-CN');
  });

  it('loads translations added after their locale is in at once', async () => {
    await i18n.setLocale('zh-CN', false);
    const loads: string[] = [];
    i18n.addTranslations('zh-CN', () => (loads.push('zh-CN'), Promise.resolve()));
    expect(loads).toEqual(['zh-CN']);
  });
});

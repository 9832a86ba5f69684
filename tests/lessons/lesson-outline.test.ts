/**
 * The first page's lesson outline (node/lesson-outline.ts) is generated from the catalog: every
 * lesson is found in the file the outline loads it from, and the outline lists each one with the
 * catalog's titles and step titles, in the catalog's order.
 */
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { lessonOutlineSource } from '../../node/lesson-outline.ts';

describe('the lesson outline', () => {
  it('finds every lesson of the catalog in engine/lessons/catalog/<its id>.ts', async () => {
    for (const lesson of LESSONS) {
      const module = (await import(`../../engine/lessons/catalog/${lesson.id}.ts`)) as Record<string, unknown>;
      expect(Object.values(module), lesson.id).toContain(lesson);
    }
  });

  it('lists every lesson with its titles and step titles, imports lesson 1 and loads the others on demand', () => {
    const source = lessonOutlineSource(LESSONS);
    const outline = JSON.parse(/export const LESSON_OUTLINE = (.*);/.exec(source)![1]!) as unknown;
    expect(outline).toEqual(LESSONS.map((l) => ({ id: l.id, title: l.title, steps: l.steps.map((s) => ({ title: s.title })) })));
    expect(source.match(/^import \* as firstModule from .*interval-and-min-pause\.ts";$/m)).not.toBeNull();
    const loaded = [...source.matchAll(/^ {2}"([a-z0-9-]+)": \(\) => import\(/gm)].map((m) => m[1]);
    expect(loaded).toEqual(LESSONS.slice(1).map((l) => l.id));
  });

  it('refuses an empty catalog, which would leave the first page without a lesson', () => {
    expect(() => lessonOutlineSource([])).toThrow(/catalog is empty/);
  });
});

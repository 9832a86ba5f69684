/**
 * Every step of every lesson says where on the page to look (issue #12: "each step says what to
 * look for, with the UI element highlighted"): its `look_at` names at least one region, each one
 * a region the page has (LOOK_TARGETS), none twice; and every region on that list is one some step
 * points at, so the page carries no marker that nothing uses.
 */
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { isLookTarget, LOOK_TARGETS } from '../../engine/lessons/look-target.ts';

describe("the lesson steps' look_at", () => {
  for (const lesson of LESSONS) {
    lesson.steps.forEach((step, i) => {
      const where = `${lesson.id}, step ${i + 1} ("${step.title.en}")`;

      it(`${where} names at least one region of the page to look at`, () => {
        expect(Array.isArray(step.look_at), `${where}: look_at is missing`).toBe(true);
        expect(step.look_at.length, `${where}: look_at is empty`).toBeGreaterThan(0);
      });

      it(`${where} names only regions the page has, each once`, () => {
        const unknown = (step.look_at ?? []).filter((target) => !isLookTarget(target));
        expect(unknown, `${where}: not a LookTarget (${LOOK_TARGETS.join(', ')})`).toEqual([]);
        expect(new Set(step.look_at).size, `${where}: a region named twice`).toBe(step.look_at.length);
      });
    });
  }

  it('leaves no region of the list unused by every step', () => {
    const used = new Set(LESSONS.flatMap((lesson) => lesson.steps.flatMap((step) => step.look_at)));
    expect(LOOK_TARGETS.filter((target) => !used.has(target))).toEqual([]);
  });
});

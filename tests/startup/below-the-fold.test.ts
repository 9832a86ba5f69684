/**
 * The app's views below the first screen (web/below-the-fold.svelte.ts) are held back from the
 * moment the page has them: the first mount builds the page before the app's onMount defers
 * them, and a view released by then would start loading its chunk inside that mount's task.
 */
import { describe, expect, it } from 'vitest';
import { BelowTheFold } from '../../web/below-the-fold.svelte.ts';
import { EventHub } from '../../web/playground/api/event-hub.ts';

describe('BelowTheFold', () => {
  it('shows no lower view before anything defers or releases them', () => {
    const belowTheFold = new BelowTheFold();
    expect([0, 1, 5].map((index) => belowTheFold.shows(index))).toEqual([false, false, false]);
  });

  it('shows every lower view once the deferral is undone', () => {
    const belowTheFold = new BelowTheFold();
    const undo = belowTheFold.defer(new EventHub(), new Promise(() => {}), () => true);
    expect(belowTheFold.shows(0)).toBe(false);
    undo();
    expect([0, 1, 5].map((index) => belowTheFold.shows(index))).toEqual([true, true, true]);
  });
});

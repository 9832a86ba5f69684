/**
 * The app's first screen mounts in steps (web/first-screen.svelte.ts): the run controls, the
 * timeline and then the job graph's panel, each in a task after the one before, after the one that
 * mounted the header and the lesson panel.
 */
import { describe, expect, it } from 'vitest';
import { FirstScreen } from '../../web/first-screen.svelte.ts';
import { nextTask } from '../../web/next-task.ts';

describe('FirstScreen', () => {
  it('holds the run controls, the timeline and the job graph back until released', async () => {
    const firstScreen = new FirstScreen();
    await nextTask();
    expect([firstScreen.shows('controls'), firstScreen.rest]).toEqual([false, false]);
  });

  it('lets them mount in a later task once released, not in the task that released them', async () => {
    const firstScreen = new FirstScreen();
    firstScreen.release();
    await Promise.resolve();
    expect(firstScreen.rest).toBe(false);
    await expect.poll(() => firstScreen.rest).toBe(true);
  });

  it('mounts the run controls first, the timeline in a task after them and the job graph’s panel in a task after that', async () => {
    const firstScreen = new FirstScreen();
    firstScreen.release();
    const parts = () => [firstScreen.shows('controls'), firstScreen.shows('timeline'), firstScreen.shows('graph'), firstScreen.rest];
    await nextTask();
    expect(parts()).toEqual([true, false, false, false]);
    await nextTask();
    expect(parts()).toEqual([true, true, false, false]);
    await nextTask();
    expect(parts()).toEqual([true, true, true, true]);
  });
});

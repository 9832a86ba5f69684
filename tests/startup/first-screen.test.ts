/**
 * The app's first screen mounts in steps (web/first-screen.svelte.ts): the timeline and then the
 * job graph's panel, each in a task after the one before, after the one that mounted the run controls.
 */
import { describe, expect, it } from 'vitest';
import { FirstScreen } from '../../web/first-screen.svelte.ts';
import { nextTask } from '../../web/next-task.ts';

describe('FirstScreen', () => {
  it('holds the timeline and the job graph back until released', async () => {
    const firstScreen = new FirstScreen();
    await nextTask();
    expect(firstScreen.rest).toBe(false);
  });

  it('lets them mount in a later task once released, not in the task that released them', async () => {
    const firstScreen = new FirstScreen();
    firstScreen.release();
    await Promise.resolve();
    expect(firstScreen.rest).toBe(false);
    await expect.poll(() => firstScreen.rest).toBe(true);
  });

  it('mounts the timeline first and the job graph’s panel in a task after it', async () => {
    const firstScreen = new FirstScreen();
    firstScreen.release();
    await nextTask();
    expect([firstScreen.shows('timeline'), firstScreen.shows('graph'), firstScreen.rest]).toEqual([true, false, false]);
    await nextTask();
    expect([firstScreen.shows('timeline'), firstScreen.shows('graph'), firstScreen.rest]).toEqual([true, true, true]);
  });
});

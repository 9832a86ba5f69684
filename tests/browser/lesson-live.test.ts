/**
 * A lesson played in the page on the live runtime, in real Chromium: lesson 8 (task-local
 * recovery) opened from its link, the Runtime chooser switched to live (real Web Worker
 * TaskManagers), and its steps done through the lesson panel's "Do it for me": the panel ticks
 * "Kill a TaskManager" off once the killed TaskManager's subtasks restore from their local copies,
 * and "Lose a host" once the lost host's subtask restores from remote in another slot, as it
 * happens on the wall clock. One browser session for the file.
 *
 * Left out, as in tests/lessons/task-local-recovery-live.test.ts: ticking "Corrupt a local copy
 * first" (3.9 s, 100 ms before the kill), whose claim is a race of wall time live.
 * Starts a browser: run it under `flock /tmp/browser.lock`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { inPage } from './playground-in-page.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';

const lesson = LESSONS.find((l) => l.id === 'task-local-recovery')!;
const KILL = lesson.steps.findIndex((s) => s.title.en === 'Kill a TaskManager');
const LOSE_HOST = lesson.steps.findIndex((s) => s.title.en === 'Lose a host');
/** Wall time for a live run to reach its fault and restore: the scenario's faults come at 4 s and 8 s. */
const LIVE_RUN_MS = 60_000;

let session: BrowserSession;

const step = (index: number) => session.page.getByTestId('lesson-step').nth(index);
const stepSeen = (index: number) => step(index).getAttribute('data-seen');
const isCurrent = (index: number) => step(index).evaluate((li) => li.classList.contains('current'));
const driverStatus = () => session.page.getByTestId('driver-status');

/** The run's restores, per subtask `source` and `reason`, as `stats()` reports them. */
async function restoredSubtasks(): Promise<{ source: string; reason?: string }[]> {
  const stats = await inPage(session, (api) => api.stats(), null);
  return stats.restores.flatMap((r) => Object.values(r.subtasks).map((s) => ({ source: s.source, ...(s.reason ? { reason: s.reason } : {}) })));
}

beforeAll(async () => {
  session = await openBrowserSession({ viewport: { width: 1280, height: 900 } });
  await session.page.goto(`${session.baseUrl}/?lesson=${lesson.id}`);
  await session.page.getByTestId('lesson-do-it').waitFor();
  await session.page.getByTestId('driver-live').check();
  await session.page.locator('[data-testid="driver-status"][data-driver="live"]').waitFor();
});

afterAll(async () => {
  await session?.close();
});

it('ticks "Kill a TaskManager" off once the killed TaskManager’s subtasks restore locally on real workers, and moves on', async () => {
  expect(await stepSeen(KILL)).toBe('false');
  await session.page.getByTestId('lesson-do-it').click();
  await expect.poll(() => stepSeen(KILL), { timeout: LIVE_RUN_MS }).toBe('true');
  expect(await driverStatus().getAttribute('data-driver')).toBe('live');
  expect((await restoredSubtasks()).filter((s) => s.source === 'local').length).toBeGreaterThanOrEqual(2);
  expect(await isCurrent(KILL + 1)).toBe(true);
  expect(await inPage(session, (api) => api.lessonProgress(), null)).toMatchObject({ id: lesson.id, step: KILL + 2 });
  expect(session.errors).toEqual([]);
}, LIVE_RUN_MS + 30_000);

it('ticks "Lose a host" off once the lost host’s subtask restores from remote in another slot, live', async () => {
  await step(LOSE_HOST).locator('.step-title').click();
  expect(await isCurrent(LOSE_HOST)).toBe(true);
  expect(await stepSeen(LOSE_HOST)).toBe('false');
  await session.page.getByTestId('lesson-do-it').click();
  await expect.poll(() => stepSeen(LOSE_HOST), { timeout: LIVE_RUN_MS }).toBe('true');
  expect(await driverStatus().getAttribute('data-driver')).toBe('live');
  expect(await restoredSubtasks()).toContainEqual({ source: 'remote', reason: 'different-slot' });
  const progress = await inPage(session, (api) => api.lessonProgress(), null);
  expect(progress?.seen[KILL]).toBe(true);
  expect(session.errors).toEqual([]);
}, LIVE_RUN_MS + 30_000);

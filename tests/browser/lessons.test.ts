/**
 * The lessons in real Chromium: the list on the page and through `playground.lessons()`, opening
 * lesson 1, its first step ticked off once the run shows it, "Do it for me" on the second step
 * (min-pause 500 ms) and its tick, the link that names lesson and step, the Chinese texts,
 * `openLesson` refusing a step the lesson does not have, and lesson 11's scheduled cancel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { inPage } from './playground-in-page.ts';
import { openBrowserSession, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';


const stepSeen = (session: BrowserSession, index: number) => session.page.getByTestId('lesson-step').nth(index).getAttribute('data-seen');

describe('lessons on the page', () => {
  let session: BrowserSession;
  const first = LESSONS[0]!;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    // A page that names a scenario opens with the lesson list (a first page opens lesson 1 itself).
    await session.page.goto(`${session.baseUrl}/?scenario=word-count.yaml`);
    await session.page.getByTestId('lesson-open').first().waitFor();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lists every lesson on the page and through lessons(), with titles and step titles in English and Chinese', async () => {
    const shown = await session.page.getByTestId('lesson-open').allTextContents();
    expect(shown).toEqual(LESSONS.map((l) => l.title.en));
    const listed = await inPage(session, (api) => api.lessons(), null);
    expect(listed).toEqual(LESSONS.map((l) => ({ id: l.id, title: l.title, steps: l.steps.map((s) => ({ title: s.title })) })));
  });

  it('opens lesson 1 with its scenario loaded, and says so in the link', async () => {
    await session.page.getByTestId('lesson-open').first().click();
    await expect(session.page.getByTestId('lesson-title').textContent()).resolves.toBe(first.title.en);
    await expect.poll(() => inPage(session, (api) => api.status().then((s) => s.scenario?.name), null)).toBe('Interval shorter than the checkpoint');
    const url = new URL(session.page.url());
    expect([url.searchParams.get('lesson'), url.searchParams.get('step')]).toEqual([first.id, '1']);
    expect(await stepSeen(session, 0)).toBe('false');
  });

  it('ticks the first step off once the run shows no pause between checkpoints, and moves on to the next', async () => {
    await inPage(session, (api) => api.runUntil('12 s'), null);
    await expect.poll(() => stepSeen(session, 0), { timeout: 10_000 }).toBe('true');
    expect(await stepSeen(session, 1)).toBe('false');
    await expect(session.page.getByTestId('lesson-do-it').textContent()).resolves.toBe(en['lessons.doIt']);
  });

  it('does the second step for the learner (min-pause 500 ms) and ticks it off on the new run', async () => {
    await session.page.getByTestId('lesson-do-it').click();
    await expect.poll(() => inPage(session, (api) => api.status().then((s) => s.running), null)).toBe(true);
    await inPage(session, (api) => api.runUntil('8 s'), null);
    await expect.poll(() => stepSeen(session, 1), { timeout: 10_000 }).toBe('true');
    const progress = await inPage(session, (api) => api.lessonProgress(), null);
    expect(progress).toEqual({ id: first.id, step: 2, seen: [true, true] });
    const stats = await inPage(session, (api) => api.stats(), null);
    expect(stats.checkpointConfig.min_pause).toBe(500);
  });

  it('shows the lesson in Chinese', async () => {
    await session.page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => session.page.getByTestId('lesson-title').textContent()).toBe(first.title['zh-CN']);
    await expect(session.page.getByTestId('lesson-do-it').textContent()).resolves.toBe(zhCN['lessons.doIt']);
    await session.page.getByTestId('lesson-panel').screenshot({ path: `${SCREENSHOT_DIR}/lesson-zh-CN.png` });
    await session.page.getByTestId('locale-select').selectOption({ label: 'English' });
  });

  it('opens a lesson at a step through the API, and refuses a step it does not have', async () => {
    const opened = await inPage(session, (api) => api.openLesson('max-concurrent-checkpoints', 3), null);
    expect(opened).toMatchObject({ id: 'max-concurrent-checkpoints', step: 3, steps: 3 });
    // step 3 opens with the actions of steps 1 and 2: three concurrent checkpoints allowed
    const config = await inPage(session, (api) => api.stats().then((s) => s.checkpointConfig), null);
    expect(config.max_concurrent).toBe(3);
    const refused = await inPage(
      session,
      (api) => api.openLesson('max-concurrent-checkpoints', 9).then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
      null,
    );
    expect(refused).toBe('Lesson "max-concurrent-checkpoints" has steps 1 to 3; got 9.');
    expect(session.errors).toEqual([]);
  });

  it('cancels the job for the learner in lesson 11, ticks it off, and keeps the checkpoints once retention says so', async () => {
    await inPage(session, (api) => api.openLesson('savepoints-and-retention', 1), null);
    await session.page.getByTestId('lesson-do-it').click();
    await expect.poll(() => inPage(session, (api) => api.status().then((s) => s.running), null)).toBe(true);
    await inPage(session, (api) => api.runUntil('7 s'), null);
    await expect.poll(() => stepSeen(session, 0), { timeout: 10_000 }).toBe('true');
    expect(await inPage(session, (api) => api.stats().then((s) => s.job.status), null)).toBe('CANCELED');
    // on to step 2: RETAIN_ON_CANCELLATION, and the same cancel
    await session.page.getByTestId('lesson-do-it').click();
    await expect.poll(() => inPage(session, (api) => api.status().then((s) => s.running), null)).toBe(true);
    await inPage(session, (api) => api.runUntil('7 s'), null);
    await expect.poll(() => stepSeen(session, 1), { timeout: 10_000 }).toBe('true');
    const config = await inPage(session, (api) => api.stats().then((s) => s.checkpointConfig), null);
    expect(config.externalization).toMatchObject({ enabled: true, delete_on_cancellation: false });
    expect(session.errors).toEqual([]);
  });
});

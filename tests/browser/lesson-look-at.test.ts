/**
 * A lesson step's regions of the page outlined in real Chromium (issue #12: "each step says what
 * to look for, with the UI element highlighted"): the first page's lesson 1 rings the timeline;
 * the outline moves with the step and goes with the lesson; a step whose region is on a dashboard
 * tab opens that tab when the learner opens the step, and outlines the region once it mounts; the
 * step's "Look at" buttons bring a region into view, in English and Chinese; every region a
 * step can name is on the page exactly once, on its tab (the rocksdb backend's charts in a rocksdb
 * run); and lesson 9's RocksDB steps outline the RocksDB charts.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { LOOK_TARGETS, type LookTarget } from '../../engine/lessons/look-target.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { LOOK_TARGET_PLACES } from '../../web/lessons/look-target-place.ts';
import { inPage } from './playground-in-page.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';

/** The regions outlined now, in the page's order. */
const outlined = (page: Page) => page.locator('[data-look-shown]').evaluateAll((elements) => elements.map((e) => e.getAttribute('data-look')));

/** The outline the page's style draws on the region's element (its first, if a view shows it twice). */
function ring(page: Page, target: LookTarget) {
  return page.locator(`[data-look="${target}"]`).first().evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: style.outlineWidth };
  });
}

const lessonIndex = (id: string) => LESSONS.findIndex((lesson) => lesson.id === id);

/** Opens lesson `id` as a learner does: from the list (shown already, or one click away). */
async function openFromList(page: Page, id: string): Promise<void> {
  const listButton = page.getByTestId('lesson-list-button');
  if (await listButton.isVisible()) await listButton.click();
  await page.locator(`[data-testid="lesson-open"][data-lesson-id="${id}"]`).click();
  await expect.poll(() => page.getByTestId('lesson-title').textContent()).toBe(LESSONS[lessonIndex(id)]!.title.en);
}

/** The index of lesson `id`'s step titled `title` in English. */
const stepIndex = (id: string, title: string) => LESSONS[lessonIndex(id)]!.steps.findIndex((step) => step.title.en === title);
const stepTitle = (page: Page, index: number) => page.getByTestId('lesson-step').nth(index).locator('.step-title');
const selectedTab = (page: Page) => page.getByTestId('checkpoint-dashboard').locator('[role="tab"][aria-selected="true"]').textContent();

/** Whether the element is wholly inside the viewport. */
function inViewport(page: Page, target: LookTarget) {
  return page.locator(`[data-look="${target}"]`).first().evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return rect.top >= 0 && rect.bottom <= window.innerHeight;
  });
}

/** The regions only a run with the rocksdb backend shows: its charts. */
const ROCKSDB_ONLY: readonly LookTarget[] = ['rocksdb-chart', 'block-cache-chart'];

/** Counts into `counts` how often each of `targets` is on the page, each on its tab (or on any, for one on none). */
async function countRegions(page: Page, targets: readonly LookTarget[], counts: Record<string, number>): Promise<void> {
  for (const tab of ['overview', 'history'] as const) {
    await page.getByTestId('checkpoint-dashboard').getByRole('tab', { name: en[`checkpoints.tab.${tab}`], exact: true }).click();
    await expect.poll(() => page.getByTestId('tab-loading').count()).toBe(0);
    const here = targets.filter((target) => (LOOK_TARGET_PLACES[target].tab ?? tab) === tab && counts[target] === undefined);
    for (const target of here) {
      await expect.poll(() => page.locator(`[data-look="${target}"]`).count(), { message: target }).toBeGreaterThan(0);
      counts[target] = await page.locator(`[data-look="${target}"]`).count();
    }
  }
}

describe("a lesson step's regions of the page", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    // No scroll animation: a scroll's end is then a condition to poll, not a duration.
    await session.page.emulateMedia({ reducedMotion: 'reduce' });
    // A page that names nothing opens lesson 1, running.
    await session.page.goto(`${session.baseUrl}/`);
    await session.page.waitForFunction(() => window.playground !== undefined);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("rings the timeline on the first page, lesson 1's first step, described by the step's text", async () => {
    const { page } = session;
    await expect.poll(() => outlined(page)).toEqual(['timeline']);
    await inPage(session, (api) => api.pause(), null);
    expect(await ring(page, 'timeline')).toEqual({ style: 'solid', width: '3px' });
    const describedBy = await page.locator('[data-look="timeline"]').getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(LESSONS[0]!.steps[0]!.body.en);
    expect(await ring(page, 'job-status')).toMatchObject({ style: 'none' });
    expect((await page.getByTestId('lesson-look-at').allTextContents()).map((text) => text.trim())).toEqual([en['timeline.title']]);
  });

  it("opens the History tab for a step about it, outlines the history once it fills, and moves the outline with the step", async () => {
    const { page } = session;
    await openFromList(page, 'timeout-and-tolerable-failures');
    // The learner opened the lesson: its first step's region is on the History tab, which opens.
    await expect.poll(() => selectedTab(page)).toBe(en['checkpoints.tab.history']);
    // The run waits at 0, with no history yet: the ring moved off the timeline, and onto the history once it mounts.
    await expect.poll(() => outlined(page)).toEqual([]);
    await inPage(session, (api) => api.runUntil('3 s'), null);
    await expect.poll(() => outlined(page)).toEqual(['checkpoint-history']);
    expect(await ring(page, 'checkpoint-history')).toEqual({ style: 'solid', width: '3px' });

    await stepTitle(page, 1).click();
    await expect.poll(() => outlined(page)).toEqual(['job-status']);
    expect(await ring(page, 'checkpoint-history')).toMatchObject({ style: 'none' });
    expect(await page.locator('[data-look="checkpoint-history"]').getAttribute('aria-describedby')).toBeNull();

    await page.getByTestId('lesson-list-button').click();
    await expect.poll(() => outlined(page)).toEqual([]);
  });

  it('has every region a step can name on the page exactly once, on its tab', async () => {
    const { page } = session;
    // A run with everything shown: completed checkpoints, the views below the fold, the sink's output.
    await openFromList(page, 'capacity-planning');
    await inPage(session, (api) => api.runUntil('5 s'), null);
    const counts: Record<string, number> = {};
    await countRegions(page, LOOK_TARGETS.filter((target) => !ROCKSDB_ONLY.includes(target)), counts);
    // The rocksdb backend's charts: lesson 9's run keeps its state in rocksdb.
    await openFromList(page, 'timers-and-compression');
    await inPage(session, (api) => api.runUntil('2 s'), null);
    await countRegions(page, ROCKSDB_ONLY, counts);
    expect(counts).toEqual(Object.fromEntries(LOOK_TARGETS.map((target) => [target, 1])));
  });

  it("outlines the RocksDB chart and the job graph for lesson 9's write-stall step, and scrolls to the chart", async () => {
    const { page } = session;
    await openFromList(page, 'timers-and-compression');
    await inPage(session, (api) => api.runUntil('2 s'), null);
    await page.evaluate(() => window.scrollTo(0, 0));
    await stepTitle(page, stepIndex('timers-and-compression', 'Make writes stall')).click();
    await expect.poll(() => outlined(page)).toEqual(['job-graph', 'rocksdb-chart']);
    expect(await ring(page, 'rocksdb-chart')).toEqual({ style: 'solid', width: '3px' });
    expect(await page.locator('[data-look="rocksdb-chart"]').getAttribute('data-testid')).toBe('chart-rocksdb');
    await expect.poll(() => inViewport(page, 'rocksdb-chart')).toBe(true);
    expect((await page.getByTestId('lesson-look-at').allTextContents()).map((text) => text.trim())).toEqual([en['charts.rocksdb'], en['graph.title']]);

    // The step about the write-buffer ratio looks at the block cache misses too.
    await stepTitle(page, stepIndex('timers-and-compression', 'Raise the write-buffer ratio')).click();
    await expect.poll(() => outlined(page)).toEqual(['rocksdb-chart', 'block-cache-chart']);
    expect(await page.locator('[data-look="block-cache-chart"]').getAttribute('data-testid')).toBe('chart-block-cache');
    expect(session.errors).toEqual([]);
  });

  it("brings a region on another tab into view from the step's Look at list, in English and Chinese", async () => {
    const { page } = session;
    await openFromList(page, 'full-vs-incremental');
    await inPage(session, (api) => api.runUntil('4 s'), null);
    await page.getByTestId('checkpoint-dashboard').getByRole('tab', { name: en['checkpoints.tab.overview'], exact: true }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    const chip = page.locator('[data-testid="lesson-look-at"][data-target="checkpointed-size-column"]');
    await expect(chip.textContent()).resolves.toContain(`${en['checkpoints.field.checkpointedSize']} (${en['checkpoints.title']} › ${en['checkpoints.tab.history']})`);
    await chip.click();
    await expect.poll(() => selectedTab(page)).toBe(en['checkpoints.tab.history']);
    await expect.poll(() => inViewport(page, 'checkpointed-size-column')).toBe(true);
    await expect.poll(() => outlined(page)).toEqual(['checkpointed-size-column', 'full-size-column']);
    expect(await ring(page, 'checkpointed-size-column')).toEqual({ style: 'solid', width: '3px' });
    await session.screenshot('lesson-look-at-history');

    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => chip.textContent()).toContain(`${zhCN['checkpoints.field.checkpointedSize']}（${zhCN['checkpoints.title']} › ${zhCN['checkpoints.tab.history']}）`);
    await expect(page.locator('.look-label').textContent()).resolves.toBe(zhCN['lessons.lookAt']);
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    expect(session.errors).toEqual([]);
  });
});

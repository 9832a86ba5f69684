/**
 * Time travel on the timeline in real Chromium: a TaskManager killed mid-run, the playhead taken
 * back before the kill (the run is as it was then), forward again (the kill replays, the run is
 * the original one), a branch with another action (a different outcome) and the way back to the
 * first branch; a long replay spread over frames and cancelled cleanly; and a checkpoint bar
 * opened into its phases per subtask. Screenshots: test-artifacts/screenshots/timeline-seek-back.png and
 * timeline-subtask-phases.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi, PlaygroundStats } from '../../web/playground/api/playground-api-types.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowserSession, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';
import { CHECKPOINTING_SCENARIO } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
    nextSeek?: Promise<{ time: number; branch: number }>;
  }
}

const api = (page: Page) => page.waitForFunction(() => window.playground !== undefined);

async function stats(page: Page): Promise<PlaygroundStats> {
  return page.evaluate(() => window.playground!.stats());
}

async function status(page: Page) {
  return page.evaluate(() => window.playground!.status());
}

/** Does `action` (a click, a key) and waits for the seek it starts to arrive; resolves where it went. */
async function seekBy(page: Page, action: () => Promise<void>): Promise<{ time: number; branch: number }> {
  await page.evaluate(() => {
    window.nextSeek = new Promise((resolve) => {
      const off = window.playground!.on('seek', (event) => {
        off();
        resolve({ time: event.time, branch: event.branch });
      });
    });
  });
  await action();
  return page.evaluate(() => window.nextSeek!);
}

/** What must match between two looks at the same point of the run (the clock is reported apart). */
function comparable(s: PlaygroundStats) {
  return { checkpoints: s.checkpoints, details: s.checkpointDetails, restores: s.restores, output: s.output, job: s.job, metrics: s.metrics };
}

/** Clicks the timeline's time axis where `time` is drawn: showing the whole run, it spans 0 to the recorded end (at least 10 s). */
async function clickAxisAt(page: Page, time: number): Promise<void> {
  // A mouse click lands only inside the viewport: the axis may sit below it (the lesson panel is on top).
  await page.getByTestId('timeline-scrub').scrollIntoViewIfNeeded();
  const box = (await page.getByTestId('timeline-scrub').boundingBox())!;
  const end = Math.max(10_000, Number(await page.getByTestId('timeline-playhead').getAttribute('aria-valuemax')));
  await page.mouse.click(box.x + (time / end) * box.width, box.y + box.height / 2);
}

describe('time travel on the timeline', () => {
  let session: BrowserSession;
  let page: Page;
  let beforeKill: PlaygroundStats;
  let original: PlaygroundStats;

  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
    await page.goto(`${session.baseUrl}/`);
    await api(page);
    await page.evaluate(async (scenario) => {
      await window.playground!.load({ ...scenario, run: { until: '30 s' } });
    }, CHECKPOINTING_SCENARIO);
    // The whole timeline shows the whole run, so the axis maps time to pixels linearly from 0.
    await page.getByTestId('checkpoint-timeline').locator('select').first().selectOption('all');
  });

  afterAll(async () => {
    await session?.close();
  });

  it('kills a TaskManager, seeks back before the kill, and finds the run as it was then', async () => {
    await page.evaluate(() => window.playground!.runUntil(5000));
    beforeKill = await stats(page);
    await page.evaluate(async () => {
      await window.playground!.runUntil(6000);
      await window.playground!.killTaskManager('tm-1');
      await window.playground!.runUntil(10_000);
    });
    original = await stats(page);
    expect(original.job.restarts).toBe(1);
    expect(original.restores).toHaveLength(1);

    // Back to 4 s by clicking the time axis (anywhere before the kill at 6 s will do).
    const arrived = await seekBy(page, () => clickAxisAt(page, 4000));
    expect(arrived.time).toBeLessThan(6000);
    expect(arrived.time).toBeGreaterThan(2000);
    const back = await status(page);
    expect(back.running).toBe(false);
    const atBack = await stats(page);
    expect(atBack.job).toEqual({ status: 'RUNNING', restarts: 0, failureCause: null });
    expect(atBack.restores).toEqual([]);
    expect(await page.getByTestId('restarts').textContent()).toBe('0');
    // What the branch recorded ahead of the playhead is shown: the span and the kill, hollow.
    expect(await page.getByTestId('future-span').count()).toBe(1);
    expect(await page.getByTestId('future-operation').count()).toBe(1);
    await page.getByTestId('checkpoint-timeline').screenshot({ path: join(SCREENSHOT_DIR, 'timeline-seek-back.png') });

    // Exactly at 5 s, the run is the one seen at 5 s, document for document.
    const result = await page.evaluate(() => window.playground!.seek(5000));
    expect(result).toEqual({ time: 5000, branch: 1 });
    expect(comparable(await stats(page))).toEqual(comparable(beforeKill));
  });

  it('seeks forward with the keyboard: the recorded kill replays and the run is the original one', async () => {
    const playhead = page.getByTestId('timeline-playhead');
    await playhead.focus();
    expect(await seekBy(page, () => page.keyboard.press('End'))).toEqual({ time: 10_000, branch: 1 });
    expect(comparable(await stats(page))).toEqual(comparable(original));
    expect(await page.getByTestId('future-span').count()).toBe(0);

    // Arrow keys step the playhead back by a second.
    expect(await seekBy(page, () => page.keyboard.press('ArrowLeft'))).toEqual({ time: 9000, branch: 1 });
    expect(await playhead.getAttribute('aria-valuenow')).toBe('9000');
  });

  it('branches with another action at a past point and sees a different outcome; the first branch can be returned to', async () => {
    await page.evaluate(async () => {
      await window.playground!.seek(5000);
      await window.playground!.failTask('counts', 0);
      await window.playground!.runUntil(10_000);
    });
    const branched = await stats(page);
    const branches = await page.evaluate(() => window.playground!.branches());
    expect(branches.map((b) => [b.id, b.parentId, b.forkTime, b.current])).toEqual([
      [1, null, 0, false],
      [2, 1, 5000, true],
    ]);
    expect(branches[1]!.operations.map((o) => o.operation)).toEqual([{ type: 'fail-task', vertexId: 'counts', subtask: 0 }]);
    expect(branched.restores).toHaveLength(1);
    expect(branched.restores[0]!.time).not.toBe(original.restores[0]!.time);
    expect(comparable(branched)).not.toEqual(comparable(original));

    // The branch picker appears with both; choosing the first replays it at the same time.
    const select = page.getByTestId('branch-select');
    await expect.poll(() => select.locator('option').count()).toBe(2);
    expect(await seekBy(page, async () => void (await select.selectOption('1')))).toEqual({ time: 10_000, branch: 1 });
    expect((await page.evaluate(() => window.playground!.branches())).find((b) => b.current)?.id).toBe(1);
    expect(comparable(await stats(page))).toEqual(comparable(original));
  });

  it('spreads a long replay over animation frames, shows its progress, and a pause cancels it cleanly', async () => {
    await page.evaluate(() => window.playground!.runUntil(30_000));
    const final = await stats(page);
    const outcome = await page.evaluate(async () => {
      let frames = 0;
      let counting = true;
      const count = () => {
        frames++;
        if (counting) requestAnimationFrame(count);
      };
      requestAnimationFrame(count);
      const seek = window.playground!.seek(29_000);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const progressShown = document.querySelector('[data-testid="seek-progress"]') !== null;
      const framesBeforePause = frames;
      await window.playground!.pause();
      const message = await seek.then(
        () => 'resolved',
        (error: Error) => error.message,
      );
      counting = false;
      return { progressShown, framesBeforePause, message, time: (await window.playground!.status()).time };
    });
    expect(outcome.progressShown).toBe(true);
    expect(outcome.framesBeforePause).toBeGreaterThanOrEqual(1);
    expect(outcome.message).toMatch(/The seek to 29000 ms was cancelled by a pause/);
    expect(outcome.time).toBe(30_000);
    expect(comparable(await stats(page))).toEqual(comparable(final));
    expect(await page.getByTestId('seek-progress').count()).toBe(0);

    // Left to finish, the same replay takes many frames and lands exactly.
    const finished = await page.evaluate(async () => {
      let frames = 0;
      let counting = true;
      const count = () => {
        frames++;
        if (counting) requestAnimationFrame(count);
      };
      requestAnimationFrame(count);
      const result = await window.playground!.seek(29_000);
      counting = false;
      return { result, frames };
    });
    expect(finished.result).toEqual({ time: 29_000, branch: 1 });
    expect(finished.frames).toBeGreaterThan(2);
  });

  it('marks the min-pause after each checkpoint, the fault and the restore on the timeline', async () => {
    const timeline = page.getByTestId('checkpoint-timeline');
    expect(await timeline.locator('rect[fill^="url(#"]').count()).toBeGreaterThan(5);
    expect(await timeline.locator('g.fault').count()).toBe(1);
    expect(await timeline.locator('g.restore').count()).toBe(1);
  });

  it('opens a checkpoint bar into its phases per subtask on hover, and keeps it open on click', async () => {
    // A slowed operator makes the phases differ: start delay behind its backlog, alignment after it.
    await page.evaluate(async () => {
      await window.playground!.seek(15_000);
      await window.playground!.slowOperator('counts', 2000);
      await window.playground!.runUntil(30_000);
    });
    const timeline = page.getByTestId('checkpoint-timeline');
    const bar = timeline.locator('.bar[data-status="COMPLETED"]').last();
    const id = await bar.getAttribute('data-checkpoint-id');
    await bar.hover();
    const phases = page.getByTestId('subtask-phases');
    await expect.poll(() => phases.getAttribute('data-checkpoint-id')).toBe(id);
    // Every subtask of every operator: 2 sources, 3 counts, 3 sinks.
    expect(await phases.locator('.row').count()).toBe(8);
    expect(await phases.locator('.row[data-pending="false"]').count()).toBe(8);
    const phaseNames = new Set(await phases.locator('.segment').evaluateAll((els) => els.map((el) => el.getAttribute('data-phase'))));
    expect([...phaseNames].sort()).toEqual(['alignment', 'async', 'rest', 'startDelay']);
    expect(await phases.locator('.row').first().getAttribute('aria-label')).toMatch(/start delay .*, alignment .*, sync .*, async .*; acknowledged after /);

    // Moving away closes it; a click keeps it open (aria-expanded), Escape closes it again.
    await page.mouse.move(0, 0);
    await expect.poll(() => phases.count()).toBe(0);
    await bar.click();
    expect(await bar.getAttribute('aria-expanded')).toBe('true');
    await page.mouse.move(0, 0);
    expect(await phases.count()).toBe(1);
    await phases.scrollIntoViewIfNeeded();
    await session.screenshot('timeline-subtask-phases');
    await bar.focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => phases.count()).toBe(0);
    expect(session.errors).toEqual([]);
  });

  it('replays a rocksdb (wa-sqlite) run with incremental checkpoints exactly', async () => {
    const yaml = readFileSync('public/scenarios/incremental-checkpoints.yaml', 'utf8');
    const at3 = await page.evaluate(async (text) => {
      await window.playground!.load(text);
      await window.playground!.runUntil(3000);
      return window.playground!.stats();
    }, yaml);
    await page.evaluate(async () => {
      await window.playground!.runUntil(5000);
      await window.playground!.triggerSavepoint();
      await window.playground!.runUntil(8000);
    });
    const at8 = await stats(page);
    expect(at8.restores).toHaveLength(1);
    expect(await page.evaluate(() => window.playground!.seek(3000))).toEqual({ time: 3000, branch: 1 });
    expect(comparable(await stats(page))).toEqual(comparable(at3));
    expect(await page.evaluate(() => window.playground!.seek(8000))).toEqual({ time: 8000, branch: 1 });
    expect(comparable(await stats(page))).toEqual(comparable(at8));
    expect(session.errors).toEqual([]);
  }, 120_000);
});

describe('time travel on a phone, in Chinese', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });
    await session.page.goto(`${session.baseUrl}/`);
    await api(session.page);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('names the playhead and the branch picker in Chinese and fits the phases in 390 px', async () => {
    const page = session.page;
    await page.evaluate(async (scenario) => {
      const p = window.playground!;
      await p.load({ ...scenario, run: { until: '30 s' } });
      await p.runUntil(6000);
      await p.seek(3000);
      await p.failTask('counts', 1);
      await p.runUntil(6000);
    }, CHECKPOINTING_SCENARIO);
    const timeline = page.getByTestId('checkpoint-timeline');
    const playhead = page.getByTestId('timeline-playhead');
    expect(await playhead.getAttribute('aria-label')).toBe(zhCN['timeline.seek.label']);
    expect(await page.getByTestId('branch-select').locator('option').first().textContent()).toContain('分支 1：最初的运行');

    const bar = timeline.locator('.bar[data-status="COMPLETED"]').last();
    await bar.focus();
    await page.keyboard.press('Enter');
    const phases = page.getByTestId('subtask-phases');
    expect(await phases.locator('h3').textContent()).toMatch(/各子任务的阶段/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phases.scrollIntoViewIfNeeded();
    await session.screenshot('timeline-subtask-phases-zh-phone');
    expect(session.errors).toEqual([]);
  });

  it('writes the fault marker on the timeline in Chinese', async () => {
    const page = session.page;
    await page.keyboard.press('Escape');
    const timeline = page.getByTestId('checkpoint-timeline');
    await timeline.locator('select').first().selectOption('all');
    const titles = await timeline.locator('g.fault title').allTextContents();
    expect(titles).toEqual([zhCN['timeline.fault'].replace('{description}', '让任务 counts#1 失败')]);
    expect(session.errors).toEqual([]);
  });
});

/**
 * Steps of a production-scale run on the playground page, shared by its browser test and the
 * bench that counts the page's long tasks meanwhile (tests/bench/scale-runtime-browser.ts).
 */
import type { Page } from 'playwright-core';

export const MINUTE = 60_000;

/** Every main-thread task over 50 ms from the page's start, as [start, duration]; a string so no bundler helper leaks in. */
export const OBSERVE_LONG_TASKS = `
  globalThis.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.__longTasks.push([e.startTime, e.duration]); })
    .observe({ type: 'longtask', buffered: true });`;

export async function longTasksSince(page: Page, since: number): Promise<Array<[number, number]>> {
  return page.evaluate((from) => (globalThis as unknown as { __longTasks: Array<[number, number]> }).__longTasks.filter(([start]) => start >= from), since);
}

/** Runs the loaded scale scenario (started if it is paused) at 1000× until its first checkpoint completed: the run is loaded and going. */
export async function runToFirstCheckpoint(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await window.playground!.setSpeed(1000);
    await window.playground!.start();
  });
  await page.waitForFunction(() => {
    const value = document.querySelector('[data-count="completed"] dd')?.getAttribute('data-value');
    return value !== undefined && value !== null && value !== '0';
  }, undefined, { timeout: 120_000 });
}

/**
 * Runs on until the job clock passed both faults (20 and 40 min). Polled through status(), a few
 * fields: stats() is the whole report (each restore's 3,000 subtasks), and reading it while
 * measuring would measure the test's own reads.
 */
export async function runPastTheHostLoss(page: Page): Promise<void> {
  const deadline = Date.now() + 300_000;
  while ((await page.evaluate(async () => (await window.playground!.status()).time)) < 45 * MINUTE) {
    if (Date.now() > deadline) throw new Error('the scale run did not reach 45 min of job time within 5 min');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}


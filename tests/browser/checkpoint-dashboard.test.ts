/**
 * The checkpoint dashboard in real Chromium: Flink's tabs and fields, a TaskManager killed from
 * the page's own controls showing up as a restore, the timeline, the keyboard shortcuts, and the
 * page at phone width, in dark mode and in Chinese. Screenshots land in test-artifacts/screenshots/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openBrowserSession, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';
import { CHECKPOINTING_SCENARIO } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

async function loadCheckpointingScenario(page: Page, until: number): Promise<void> {
  await page.waitForFunction(() => window.playground !== undefined);
  await page.evaluate(
    async ([scenario, time]) => {
      await window.playground!.load(scenario);
      await window.playground!.runUntil(time);
    },
    [CHECKPOINTING_SCENARIO, until] as const,
  );
}

function dashboard(page: Page) {
  return page.getByTestId('checkpoint-dashboard');
}

async function openTab(page: Page, name: string): Promise<void> {
  await dashboard(page).getByRole('tab', { name, exact: true }).click();
  await expect.poll(() => dashboard(page).getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
  // Every tab but the Overview loads its code when it first opens.
  await expect.poll(() => dashboard(page).getByTestId('tab-loading').count()).toBe(0);
}

async function count(page: Page, key: string): Promise<number> {
  return Number(await page.locator(`[data-count="${key}"] dd`).getAttribute('data-value'));
}

async function columnHeaders(page: Page, testId: string): Promise<string[]> {
  return (await page.getByTestId(testId).first().locator('thead th').allTextContents()).map((text) => text.trim());
}

describe('checkpoint dashboard', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession();
    await session.page.goto(`${session.baseUrl}/`);
    await loadCheckpointingScenario(session.page, 5_000);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows Flink’s Overview: counts and the latest completed checkpoint', async () => {
    const page = session.page;
    await openTab(page, en['checkpoints.tab.overview']);
    const labels = await page.locator('[data-count] dt').allTextContents();
    expect(labels).toEqual([
      en['checkpoints.counts.triggered'],
      en['checkpoints.counts.inProgress'],
      en['checkpoints.counts.completed'],
      en['checkpoints.counts.failed'],
      en['checkpoints.counts.restored'],
    ]);
    const stats = await page.evaluate(() => window.playground!.stats());
    expect(await count(page, 'completed')).toBe(stats.checkpoints.counts.completed);
    expect(await count(page, 'completed')).toBeGreaterThanOrEqual(3);
    expect(await count(page, 'restored')).toBe(0);
    const latest = page.getByTestId('latest-completed');
    for (const field of ['checkpoints.field.id', 'checkpoints.field.completionTime', 'checkpoints.field.endToEnd', 'checkpoints.field.checkpointedSize', 'checkpoints.field.fullSize', 'checkpoints.field.path'] as const) {
      expect(await latest.textContent()).toContain(en[field]);
    }
    expect(await latest.textContent()).toContain(`chk-${stats.checkpoints.latest.completed!.id}`);
    expect(await page.getByTestId('latest-restore').textContent()).toContain(en['checkpoints.latest.noneRestore']);
    await expect(page.getByTestId('checkpoint-phases').isVisible()).resolves.toBe(true);
  });

  it('lists the History with Flink’s columns and drills into operators and subtasks', async () => {
    const page = session.page;
    await openTab(page, en['checkpoints.tab.history']);
    expect(await columnHeaders(page, 'checkpoint-history')).toEqual([
      en['checkpoints.field.id'],
      en['checkpoints.field.status'],
      en['checkpoints.field.acknowledged'],
      en['checkpoints.field.triggerTime'],
      en['checkpoints.field.latestAck'],
      en['checkpoints.field.endToEnd'],
      en['checkpoints.field.checkpointedSize'],
      en['checkpoints.field.fullSize'],
      en['checkpoints.field.inFlight'],
    ]);
    const firstRow = page.locator('[data-testid="checkpoint-history"] tbody tr[data-checkpoint-id]').first();
    const id = await firstRow.getAttribute('data-checkpoint-id');
    expect(await firstRow.textContent()).toContain('8/8');
    await firstRow.getByRole('button', { name: en['checkpoints.history.expand'].replace('{id}', id ?? '') }).click();
    const detail = page.getByTestId('checkpoint-detail');
    await detail.waitFor();
    expect(await detail.textContent()).toContain(en['checkpoints.detail.type.aligned']);
    await detail.getByRole('button', { name: en['checkpoints.detail.subtasksOf'].replace('{name}', 'Count per user') }).click();
    const subtasks = page.getByTestId('subtask-table');
    await subtasks.waitFor();
    const headers = await columnHeaders(page, 'subtask-table');
    for (const field of ['checkpoints.field.syncDuration', 'checkpoints.field.asyncDuration', 'checkpoints.field.alignmentDuration', 'checkpoints.field.startDelay', 'checkpoints.field.unaligned'] as const) {
      expect(headers).toContain(en[field]);
    }
    expect(await subtasks.locator('tbody tr').count()).toBe(3);
    await session.screenshot('dashboard-history-en', { fullPage: true });
  });

  it('summarises completed checkpoints with Min/Avg/Max and percentiles', async () => {
    const page = session.page;
    await openTab(page, en['checkpoints.tab.summary']);
    const rows = await page.getByTestId('checkpoint-summary').locator('tbody th').allTextContents();
    expect(rows).toEqual([en['checkpoints.summary.min'], en['checkpoints.summary.avg'], en['checkpoints.summary.max']]);
    const percentiles = await page.getByTestId('checkpoint-percentiles').locator('tbody th').allTextContents();
    expect(percentiles).toEqual(['50th percentile', '90th percentile', '99th percentile', '99.9th percentile']);
    expect(await columnHeaders(page, 'checkpoint-summary')).toEqual([
      '',
      en['checkpoints.field.endToEnd'],
      en['checkpoints.field.checkpointedSize'],
      en['checkpoints.field.fullSize'],
      en['checkpoints.field.inFlight'],
    ]);
  });

  it('shows the checkpoint Configuration from Flink’s config document', async () => {
    const page = session.page;
    await openTab(page, en['checkpoints.tab.configuration']);
    const value = (key: string) => page.locator(`[data-testid="checkpoint-configuration"] tr[data-config="${key}"] td`).textContent();
    await expect(value('mode')).resolves.toBe(en['config.mode.exactlyOnce']);
    await expect(value('interval')).resolves.toBe('1s');
    await expect(value('min-pause')).resolves.toBe('300ms');
    await expect(value('max-concurrent')).resolves.toBe('1');
    await expect(value('unaligned')).resolves.toBe(en['common.disabled']);
    const options = await page.getByTestId('scenario-options').textContent();
    expect(options).toContain('execution.checkpointing.min-pause');
    expect(options).toContain('300 ms');
  });

  it('kills a TaskManager from the Break things panel: the dashboard shows the restore and the job runs again', async () => {
    const page = session.page;
    await openTab(page, en['checkpoints.tab.overview']);
    const panel = page.getByTestId('break-things');
    await panel.getByLabel(en['break.taskManager'], { exact: true }).selectOption('tm-1');
    await panel.getByRole('button', { name: en['break.killTm'], exact: true }).click();
    await expect.poll(() => page.getByTestId('action-feedback').textContent()).toContain('Killed TaskManager tm-1');
    await expect.poll(() => page.getByTestId('job-status').textContent()).toContain('RESTARTING');

    await page.evaluate(() => window.playground!.setSpeed(10));
    await page.getByRole('button', { name: en['controls.run'], exact: true }).click();
    await expect.poll(() => count(page, 'restored'), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 20_000 }).toContain('RUNNING');
    const restore = page.getByTestId('latest-restore');
    expect(await restore.textContent()).toContain(en['checkpoints.field.restoreTime']);
    await expect(page.getByTestId('latest-restore-type').textContent()).resolves.toBe(en['checkpoints.type.checkpoint']);
    const stats = await page.evaluate(() => window.playground!.stats());
    await expect(page.getByTestId('latest-restore-id').textContent()).resolves.toBe(String(stats.checkpoints.latest.restored!.id));
    await expect.poll(() => page.getByTestId('restarts').textContent()).toBe('1');

    // The timeline marks the fault and the restore.
    await expect.poll(() => page.locator('[data-testid="checkpoint-timeline"] .restore').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('[data-testid="checkpoint-timeline"] .fault').count()).toBeGreaterThanOrEqual(1);
    await page.getByRole('button', { name: en['controls.pause'], exact: true }).click();
    // The TaskManager restarted on its host with the same resource ID, so it is still drawn there.
    expect(await page.locator('[data-testid="cluster-view"] [data-task-manager="tm-1"]').count()).toBe(1);
    await session.screenshot('dashboard-restore-en', { fullPage: true });
  });

  it('draws each checkpoint on the timeline with the gaps between them', async () => {
    const page = session.page;
    const timeline = page.getByTestId('checkpoint-timeline');
    const stats = await page.evaluate(() => window.playground!.stats());
    const completedBars = await timeline.locator('.bar[data-status="COMPLETED"]').count();
    expect(completedBars).toBe(stats.checkpoints.counts.completed);
    expect(await timeline.locator('.gap').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('shortest-gap').textContent()).toMatch(/ms|s/);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await timeline.screenshot({ path: join(SCREENSHOT_DIR, 'timeline-en.png') });
  });

  it('answers keyboard shortcuts and lists them in the ? help', async () => {
    const page = session.page;
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    const help = page.getByTestId('shortcut-help');
    await expect.poll(() => help.isVisible()).toBe(true);
    expect(await help.getByRole('heading').textContent()).toBe(en['shortcuts.title']);
    expect(await help.locator('tbody tr').count()).toBeGreaterThanOrEqual(10);
    await session.screenshot('shortcut-help-en');
    await page.keyboard.press('Escape');
    await expect.poll(() => help.isVisible()).toBe(false);

    await page.keyboard.press('2');
    await expect.poll(() => dashboard(page).getByRole('tab', { name: en['checkpoints.tab.history'] }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('1');
    await expect.poll(() => dashboard(page).getByRole('tab', { name: en['checkpoints.tab.overview'] }).getAttribute('aria-selected')).toBe('true');

    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press(' ');
    await expect.poll(() => page.evaluate(() => window.playground!.status().then((s) => s.running))).toBe(true);
    await page.keyboard.press(' ');
    await expect.poll(() => page.evaluate(() => window.playground!.status().then((s) => s.running))).toBe(false);
    const before = await page.evaluate(() => window.playground!.status().then((s) => s.speed));
    await page.keyboard.press('+');
    await expect.poll(() => page.evaluate(() => window.playground!.status().then((s) => s.speed))).toBe(before * 2);
  });

  it('reaches every control by keyboard with an accessible name', async () => {
    const unnamed = await session.page.evaluate(() =>
      [...document.querySelectorAll('button, select, input, [role="tab"]')]
        .filter((element) => !(element as HTMLElement).closest('dialog'))
        .filter((element) => {
          const labelled = element.getAttribute('aria-label') || element.getAttribute('aria-labelledby') || (element as HTMLInputElement).labels?.length;
          return !labelled && !(element.textContent ?? '').trim();
        })
        .map((element) => element.outerHTML.slice(0, 120)),
    );
    expect(unnamed).toEqual([]);
  });

  it('fits a phone screen without sideways scrolling of the page', async () => {
    const page = session.page;
    await page.setViewportSize({ width: 390, height: 844 });
    // The page lays itself out again at the new width (charts resize on their observers' callbacks).
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await session.screenshot('playground-dashboard-narrow', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('follows a dark colour scheme', async () => {
    const page = session.page;
    await page.emulateMedia({ colorScheme: 'dark' });
    await session.screenshot('playground-dashboard-dark', { fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the dashboard in Simplified Chinese', async () => {
    const page = session.page;
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => dashboard(page).getByRole('heading', { level: 2 }).first().textContent()).toBe(zhCN['checkpoints.title']);
    await expect.poll(() => dashboard(page).getByRole('tab', { name: zhCN['checkpoints.tab.overview'] }).isVisible()).toBe(true);
    expect(await page.getByTestId('latest-restore').textContent()).toContain(zhCN['checkpoints.latest.restore']);
    await session.screenshot('playground-dashboard-zh', { fullPage: true });
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
  });

  it('lists a trigger refused while the job restarts, with its reason, so Failed adds up (en and zh-CN)', async () => {
    const page = session.page;
    const scenario = readFileSync('public/scenarios/at-least-once-duplicates.yaml', 'utf8');
    await page.evaluate(async (text) => {
      await window.playground!.load(text);
      await window.playground!.runUntil(5_000);
    }, scenario);
    await openTab(page, en['checkpoints.tab.overview']);
    const stats = await page.evaluate(() => window.playground!.stats());
    const failedInHistory = stats.checkpoints.history.filter((e) => e.status === 'FAILED').length;
    const refused = page.getByTestId('trigger-failures').locator('li[data-reason]');
    await expect.poll(() => refused.count()).toBe(stats.checkpoints.counts.failed - failedInHistory);
    expect(await count(page, 'failed')).toBe(stats.checkpoints.counts.failed);
    expect(await count(page, 'triggered')).toBe(stats.checkpoints.history.length + (await refused.count()));
    const line = await refused.first().textContent();
    expect(line).toContain('NOT_ALL_REQUIRED_TASKS_RUNNING');
    expect(line).toContain(en['checkpoints.triggerFailures.why.NOT_ALL_REQUIRED_TASKS_RUNNING']);
    await openTab(page, en['checkpoints.tab.history']);
    await expect.poll(() => refused.count()).toBe(stats.checkpoints.counts.failed - failedInHistory);
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => refused.first().textContent()).toContain(zhCN['checkpoints.triggerFailures.why.NOT_ALL_REQUIRED_TASKS_RUNNING']);
    await session.screenshot('dashboard-trigger-failures-zh', { fullPage: true });
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
  });

  it('logs no console errors or page errors', () => {
    expect(session.errors).toEqual([]);
  });
});

/**
 * The dashboard's Doctor tab in real Chromium: an always-checkpointing run gets the min-pause
 * finding with its figures and a link that opens the lesson, in English and Simplified Chinese.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { openPlaygroundSession, type BrowserSession } from './browser-session.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

const dashboard = (page: Page) => page.getByTestId('checkpoint-dashboard');
const finding = (page: Page) => dashboard(page).locator('[data-code="always-checkpointing"]');

/** The lesson the page has open; null while it loads (the link reloads the page). */
async function openLesson(page: Page): Promise<string | null> {
  try {
    return await page.evaluate(async () => (await window.playground?.lessonProgress())?.id ?? null);
  } catch {
    return null; // the old page's context went away mid-call
  }
}

describe('the Doctor tab', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openPlaygroundSession();
    const page = session.page;
    const scenario = readFileSync('public/scenarios/always-checkpointing.yaml', 'utf8');
    await page.evaluate(async (text) => {
      await window.playground!.load(text);
      await window.playground!.runUntil(10_000);
    }, scenario);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lists the always-checkpointing finding with its figures and a link to the lesson, in en and zh-CN', async () => {
    const page = session.page;
    await dashboard(page).getByRole('tab', { name: en['checkpoints.tab.doctor'], exact: true }).click();
    await expect.poll(() => finding(page).count()).toBe(1);
    expect(await finding(page).textContent()).toMatch(/against an interval of 1\.0 s.*always checkpointing.*execution\.checkpointing\.min-pause/);
    expect(await finding(page).getByRole('link').getAttribute('href')).toBe('?lesson=interval-and-min-pause');
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => finding(page).textContent()).toMatch(/作业一直处于 checkpoint 状态/);
    expect(await dashboard(page).getByRole('tab', { name: zhCN['checkpoints.tab.doctor'], exact: true }).getAttribute('aria-selected')).toBe('true');
    await session.screenshot('playground-doctor-zh');
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    await finding(page).getByRole('link').click();
    await page.waitForURL(/\?lesson=interval-and-min-pause$/);
    await expect.poll(() => openLesson(page)).toBe('interval-and-min-pause');
    expect(session.errors).toEqual([]);
  });
});

/**
 * A stalled TaskManager on the timeline in real Chromium, in sim through `window.playground`: a
 * scheduled stall-task-manager draws a thin amber band in the fault row from the stall, open
 * while the TaskManager is silent and closed where the JobManager declared it lost (exactly
 * heartbeat.timeout later), with its tooltip and legend entry in English and Chinese.
 * Screenshots: test-artifacts/screenshots/timeline-unresponsive-{open-en,en,zh}.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { openBrowserSession, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';
import { openPlayground, setLocale } from './channel-view-helpers.ts';
import { healthScenario } from './health-scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

const STALL_AT_MS = 3000;
const TIMEOUT_MS = 3000;

/** The health scenario with heartbeat.timeout 3 s and tm-1 stalled at 3 s. */
function stallScenario(): Record<string, unknown> {
  const scenario = healthScenario('Stall tm-1', [{ at: `${STALL_AT_MS} ms`, type: 'stall-task-manager', task_manager: 'tm-1' }]);
  return { ...scenario, config: { ...(scenario['config'] as object), 'heartbeat.timeout': `${TIMEOUT_MS} ms` } };
}

describe('an unresponsive TaskManager on the timeline', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = session.page;
    await openPlayground(session);
  }, 60_000);

  afterAll(async () => {
    await session?.close();
  });

  const timeline = () => page.getByTestId('checkpoint-timeline');
  const band = () => timeline().locator('[data-testid="unresponsive-band"]');

  it('draws the silence as an amber band, open until heartbeat.timeout and then declared lost, in en and zh-CN', async () => {
    await page.evaluate((s) => window.playground!.load(s), stallScenario());
    await page.evaluate((ms) => window.playground!.runUntil(ms), STALL_AT_MS + 1500);

    await expect.poll(() => band().count()).toBe(1);
    expect(await band().getAttribute('data-task-manager')).toBe('tm-1');
    expect(await band().getAttribute('data-open')).toBe('true');
    expect(await band().locator('title').textContent()).toBe('tm-1: no heartbeat (heartbeat.timeout 3s)');
    await timeline().scrollIntoViewIfNeeded();
    await timeline().screenshot({ path: join(SCREENSHOT_DIR, 'timeline-unresponsive-open-en.png') });

    // Past heartbeat.timeout: the JobManager declared tm-1 lost, the band ends there.
    await page.evaluate((ms) => window.playground!.runUntil(ms), STALL_AT_MS + TIMEOUT_MS + 3000);
    await expect.poll(() => band().getAttribute('data-open')).toBe('false');
    expect(await band().count()).toBe(1);
    expect(await band().locator('title').textContent()).toBe('tm-1: no heartbeat (heartbeat.timeout 3s); declared lost after 3s');
    expect(await band().evaluate((el) => getComputedStyle(el).fill)).toBe('rgb(250, 173, 20)');
    // It sits in the fault row (above the checkpoint lanes), from the stall's fault mark on.
    const faultMark = (await timeline().locator('g.fault path').first().boundingBox())!;
    const bandBox = (await band().boundingBox())!;
    const lanes = (await timeline().locator('rect.lane-bg').boundingBox())!;
    expect(bandBox.y + bandBox.height).toBeLessThanOrEqual(lanes.y);
    expect(Math.abs(bandBox.x - (faultMark.x + faultMark.width / 2))).toBeLessThan(2);
    expect(bandBox.width).toBeGreaterThan(20);
    expect(await timeline().locator('.legend').textContent()).toContain(en['timeline.legend.unresponsive']);
    await timeline().screenshot({ path: join(SCREENSHOT_DIR, 'timeline-unresponsive-en.png') });

    await setLocale(page, '中文');
    await expect.poll(() => band().locator('title').textContent()).toBe('tm-1：无心跳（heartbeat.timeout 3s），3s 后被判定丢失');
    expect(await timeline().locator('.legend').textContent()).toContain(zhCN['timeline.legend.unresponsive']);
    expect(zhCN['timeline.legend.unresponsive']).toBe('TaskManager 无响应');
    await timeline().screenshot({ path: join(SCREENSHOT_DIR, 'timeline-unresponsive-zh.png') });
    await setLocale(page, 'English');
  }, 60_000);

  it('logs no errors', () => {
    expect(session.errors).toEqual([]);
  });
});

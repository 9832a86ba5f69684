/**
 * Helpers for tests of the channel view and the views around it: open the page, load a scenario
 * through the Playground API and run it to a time, read the channel layer's counts, and click an
 * item the layer draws (it tells where through `locateChannelItem`).
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { BrowserSession } from './browser-session.ts';

export type ChannelItemKind = 'data' | 'records' | 'persisted' | 'barrier' | 'priority-barrier' | 'blocked-lane';

export interface ChannelCounts {
  buffers: number;
  barriers: number;
  priorityBarriers: number;
  persisted: number;
  blocked: number;
  watermarks: number;
}

/** Opens the playground and waits until it drew its first job graph and the dev server settled. */
export async function openPlayground(session: BrowserSession, path = '/'): Promise<void> {
  const page = session.page;
  await page.goto(`${session.baseUrl}${path}`);
  await page.waitForLoadState('networkidle');
  await page.locator('[data-testid="job-graph"] [data-vertex-id]').first().waitFor();
}

/** Switches the page's language with its picker, and waits until the page says it is in that language. */
export async function setLocale(page: Page, label: 'English' | '中文'): Promise<void> {
  await page.getByTestId('locale-select').selectOption({ label });
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(label === 'English' ? 'en' : 'zh-CN');
}

/** Loads a scenario through the API and runs it (as fast as it goes) to `untilMs`, paused there. */
export async function loadAndRunUntil(session: BrowserSession, scenario: object | string, untilMs: number): Promise<void> {
  await session.page.evaluate(
    async ([s, until]) => {
      await window.playground!.load(s);
      await window.playground!.runUntil(until);
    },
    [scenario, untilMs] as const,
  );
  await untilChannelLayerSleeps(session);
}

/**
 * Waits until the layer drew the paused state and the buffers settled into place: it asks for no
 * more frames. (A page-side wait, not expect.poll: this runs in beforeAll too, where vitest has no
 * test to poll in.)
 */
export async function untilChannelLayerSleeps(session: BrowserSession): Promise<void> {
  await session.page.waitForFunction(
    () => (document.querySelector('[data-testid="channel-layer"]') as (HTMLCanvasElement & { isAsleep?(): boolean }) | null)?.isAsleep?.() === true,
    undefined,
    { polling: 50, timeout: 30_000 },
  );
}

export async function channelCounts(session: BrowserSession): Promise<ChannelCounts> {
  return session.page.getByTestId('channel-layer').evaluate((element) => {
    const data = (element as HTMLElement).dataset;
    return {
      buffers: Number(data.buffers),
      barriers: Number(data.barriers),
      priorityBarriers: Number(data.priorityBarriers),
      persisted: Number(data.persisted),
      blocked: Number(data.blocked),
      watermarks: Number(data.watermarks),
    };
  });
}

/** Clicks the first drawn item of this kind; fails when none is drawn. */
export async function clickChannelItem(session: BrowserSession, kind: ChannelItemKind): Promise<void> {
  const layer = session.page.getByTestId('channel-layer');
  await layer.scrollIntoViewIfNeeded();
  const at = await layer.evaluate(
    (element, k) => (element as HTMLCanvasElement & { locateChannelItem(kind: string): { x: number; y: number } | null }).locateChannelItem(k),
    kind,
  );
  if (!at) throw new Error(`the channel layer draws no ${kind} now`);
  await session.page.mouse.click(at.x, at.y);
}

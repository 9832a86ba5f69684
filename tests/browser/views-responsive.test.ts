/**
 * The new views (channels, inspector, cluster and storage, charts, configuration) at a laptop's
 * 1280×800 and a phone's 390 px, in light and dark, in English and Chinese: no sideways page
 * scrolling, every control named for assistive technology, no console errors. Screenshots land
 * in test-artifacts/screenshots/.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { zhCN } from '../../web/i18n/messages.ts';
import { openBrowserSession, REPO_ROOT, type BrowserSession, type BrowserSessionOptions } from './browser-session.ts';
import { twoWideSlow } from './channel-scenarios.ts';
import { loadAndRunUntil, openPlayground } from './channel-view-helpers.ts';

const PANELS = {
  graph: '.graph-panel',
  cluster: '.cluster-panel',
  charts: '[data-testid="charts"]',
  config: '[data-testid="config-panel"]',
} as const;

/** Controls in the new views that have no accessible name (text, label, aria-label or aria-labelledby). */
async function unnamedControls(session: BrowserSession): Promise<string[]> {
  return session.page.evaluate((selectors) => {
    const scope = selectors.map((s) => document.querySelector(s)).filter((e): e is Element => e !== null);
    const inspector = document.querySelector('[data-testid="inspector"]');
    if (inspector) scope.push(inspector);
    const unnamed: string[] = [];
    for (const root of scope) {
      for (const control of root.querySelectorAll<HTMLElement>('button, input, select, textarea, [role="button"], summary')) {
        const labelled = control.getAttribute('aria-labelledby')?.split(' ').some((id) => document.getElementById(id)?.textContent?.trim());
        const labels = (control as HTMLInputElement).labels;
        const named =
          control.getAttribute('aria-label')?.trim() ||
          labelled ||
          (labels && [...labels].some((l) => l.textContent?.trim())) ||
          (control.tagName !== 'INPUT' && control.tagName !== 'SELECT' && control.tagName !== 'TEXTAREA' && control.textContent?.trim());
        if (!named) unnamed.push(control.outerHTML.slice(0, 120));
      }
    }
    return unnamed;
  }, Object.values(PANELS));
}

async function pageOverflow(session: BrowserSession): Promise<number> {
  return session.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

async function localRecoveryText(): Promise<string> {
  return readFile(join(REPO_ROOT, 'public', 'scenarios', 'local-recovery.yaml'), 'utf8');
}

describe('new views at every size, scheme and language', () => {
  let session: BrowserSession | undefined;

  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function open(options: BrowserSessionOptions): Promise<BrowserSession> {
    session = await openBrowserSession(options);
    await openPlayground(session);
    return session;
  }

  async function shoot(s: BrowserSession, prefix: string): Promise<void> {
    for (const [name, selector] of Object.entries(PANELS)) {
      await s.page.locator(selector).screenshot({ path: join(REPO_ROOT, 'test-artifacts', 'screenshots', `${prefix}-${name}.png`) });
    }
  }

  it('fits a 390 px phone: graph top-down, panels stacked, the inspector as a bottom sheet', async () => {
    const s = await open({ viewport: { width: 390, height: 800 } });
    await loadAndRunUntil(s, twoWideSlow({ unaligned: true }), 3050);
    expect(await pageOverflow(s)).toBeLessThanOrEqual(0);
    await s.page.locator('[data-vertex-id="agg"] [data-subtask="1"]').click();
    const sheet = await s.page.getByTestId('inspector').boundingBox();
    expect(sheet!.width).toBeGreaterThan(350);
    await s.screenshot('views-390-inspector');
    expect(await unnamedControls(s)).toEqual([]);
    await s.page.getByTestId('inspector-close').click();
    await loadAndRunUntil(s, await localRecoveryText(), 9000);
    expect(await pageOverflow(s)).toBeLessThanOrEqual(0);
    await shoot(s, 'views-390');
    expect(s.errors).toEqual([]);
  });

  it('follows a dark colour scheme at 1280×800', async () => {
    const s = await open({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    await loadAndRunUntil(s, await localRecoveryText(), 9000);
    const background = await s.page.locator('.graph-panel').evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(background).toBe('rgb(22, 27, 34)');
    const lane = await s.page.getByTestId('channel-layer').evaluate((e) => getComputedStyle(e).getPropertyValue('--channel-lane').trim());
    expect(lane).toBe('#3d444d');
    await shoot(s, 'views-dark');
    await loadAndRunUntil(s, twoWideSlow(), 3050);
    await s.page.locator('.graph-panel').screenshot({ path: join(REPO_ROOT, 'test-artifacts', 'screenshots', 'views-dark-channels.png') });
    expect(await unnamedControls(s)).toEqual([]);
    expect(s.errors).toEqual([]);
  });

  it('speaks Chinese in every new view', async () => {
    const s = await open({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    await loadAndRunUntil(s, await localRecoveryText(), 9000);
    await expect(s.page.locator('.cluster-panel h2').textContent()).resolves.toBe(zhCN['storage.panelTitle']);
    await expect(s.page.getByTestId('charts').locator('h2').textContent()).resolves.toBe(zhCN['charts.title']);
    await expect(s.page.getByTestId('config-panel').locator('h2').textContent()).resolves.toBe(zhCN['config.editor.title']);
    await expect(s.page.getByTestId('toggle-channels').locator('xpath=..').textContent()).resolves.toContain(zhCN['channels.show']);
    await s.page.locator('[data-vertex-id="count"] [data-subtask="0"]').click();
    await expect(s.page.getByTestId('inspector').locator('h2').textContent()).resolves.toBe(zhCN['inspector.title']);
    await s.screenshot('views-zh-inspector');
    await shoot(s, 'views-zh');
    expect(s.errors).toEqual([]);
  });
});

/**
 * The cluster's health in real Chromium, in sim through `window.playground`: a stalled
 * TaskManager's chip turns amber with how long it has been silent and green again once
 * heartbeat.timeout replaced it; a lost host is greyed and marked lost, without a Lose-host
 * button, and gone from the Break-things picker (whose Lose host is disabled on the last host
 * left); a scheduled fail-task that falls in a restart shows as not applied on the timeline. In
 * English and Chinese; screenshots land in test-artifacts/screenshots/cluster-health-*.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { openBrowserSession, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';
import { openPlayground, setLocale } from './channel-view-helpers.ts';
import { FAIL_TASK_DURING_RESTART, HEALTH_HEARTBEAT_TIMEOUT_MS, healthScenario } from './health-scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

function api<T>(page: Page, body: string): Promise<T> {
  return page.evaluate(`(async (api) => { ${body} })(window.playground)`) as Promise<T>;
}

async function load(page: Page, scenario: object): Promise<void> {
  await page.evaluate((s) => window.playground!.load(s), scenario);
}

const runUntil = (page: Page, ms: number) => api(page, `await api.runUntil(${ms});`);

describe('cluster health in sim', () => {
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

  const cluster = () => page.getByTestId('cluster-view');
  const chip = (tm: string) => cluster().locator(`[data-task-manager="${tm}"] [data-testid="tm-health"]`);
  const host = (name: string) => cluster().locator(`section.host[data-host="${name}"]`);
  const breakPanel = () => page.getByTestId('break-things');

  it('shows a stalled TaskManager amber with how long it has been silent, and green again after heartbeat.timeout', async () => {
    await load(page, healthScenario('Stall'));
    await runUntil(page, 3000);
    await expect.poll(() => chip('tm-1').getAttribute('data-state')).toBe('registered');
    expect(await chip('tm-1').textContent()).toBe(en['cluster.tm.registered']);

    await api(page, `await api.stallTaskManager('tm-1');`);
    await runUntil(page, 4200);
    await expect.poll(() => chip('tm-1').getAttribute('data-state')).toBe('unresponsive');
    expect(await chip('tm-1').textContent()).toBe('no heartbeat for 1s 200ms');
    expect(await chip('tm-1').getAttribute('title')).toContain('after heartbeat.timeout the JobManager declares it lost');
    // The others go on answering.
    expect(await cluster().locator('[data-testid="tm-health"][data-state="registered"]').count()).toBe(2);
    expect(await chip('tm-1').evaluate((el) => getComputedStyle(el).borderColor)).toBe('rgb(250, 173, 20)');
    await page.locator('.cluster-panel').scrollIntoViewIfNeeded();
    await page.locator('.cluster-panel').screenshot({ path: join(SCREENSHOT_DIR, 'cluster-health-stalled-en.png') });

    await setLocale(page, '中文');
    await expect.poll(() => chip('tm-1').textContent()).toBe('1s 200ms 无心跳');
    expect(await chip('tm-0').textContent()).toBe(zhCN['cluster.tm.registered']);
    await page.locator('.cluster-panel').screenshot({ path: join(SCREENSHOT_DIR, 'cluster-health-stalled-zh.png') });
    await setLocale(page, 'English');

    // Still silent just before the timeout; replaced by a fresh, registered process at it.
    await runUntil(page, 3000 + HEALTH_HEARTBEAT_TIMEOUT_MS - 200);
    await expect.poll(() => chip('tm-1').textContent()).toBe('no heartbeat for 4s 800ms');
    await runUntil(page, 3000 + HEALTH_HEARTBEAT_TIMEOUT_MS + 500);
    await expect.poll(() => chip('tm-1').getAttribute('data-state')).toBe('registered');
    expect(await chip('tm-1').textContent()).toBe(en['cluster.tm.registered']);
    expect(await chip('tm-1').evaluate((el) => getComputedStyle(el).borderColor)).toBe('rgb(56, 158, 13)');
  }, 60_000);

  it('greys a lost host out, marked lost and without a Lose-host button, and leaves it out of the picker', async () => {
    await load(page, healthScenario('Lose host'));
    await runUntil(page, 2000);
    const hostOptions = () => breakPanel().getByLabel(en['break.host'], { exact: true }).locator('option').allTextContents();
    expect(await hostOptions()).toEqual(['host-0', 'host-1', 'host-2']);

    await api(page, `await api.loseHost('host-2');`);
    await expect.poll(() => host('host-2').getAttribute('data-lost')).toBe('true');
    expect(await host('host-2').getByTestId('host-lost').textContent()).toBe(en['cluster.host.lost']);
    expect(await host('host-2').getByRole('button', { name: 'Lose host host-2' }).count()).toBe(0);
    expect(await host('host-2').evaluate((el) => Number(getComputedStyle(el).opacity))).toBeLessThan(1);
    expect(await host('host-2').locator('[data-task-manager]').count()).toBe(0);
    await expect.poll(hostOptions).toEqual(['host-0', 'host-1']);
    expect(await host('host-1').getByRole('button', { name: 'Lose host host-1' }).isEnabled()).toBe(true);

    // The other one through the cluster view's own button: host-0 is the last one left.
    await host('host-1').getByRole('button', { name: 'Lose host host-1' }).click();
    await expect.poll(() => host('host-1').getAttribute('data-lost')).toBe('true');
    await expect.poll(hostOptions).toEqual(['host-0']);
    const why = 'host-0 is the last host left: its TaskManagers would have nowhere to come back';
    const panelButton = breakPanel().getByTestId('lose-host-button');
    expect(await panelButton.isDisabled()).toBe(true);
    expect(await panelButton.getAttribute('title')).toBe(why);
    const clusterButton = host('host-0').getByRole('button', { name: 'Lose host host-0' });
    expect(await clusterButton.isDisabled()).toBe(true);
    expect(await clusterButton.getAttribute('title')).toBe(why);
    // Every TaskManager came back on host-0, each with its chip.
    expect(await host('host-0').locator('[data-testid="tm-health"][data-state="registered"]').count()).toBe(3);
    await page.locator('.cluster-panel').scrollIntoViewIfNeeded();
    await page.locator('.cluster-panel').screenshot({ path: join(SCREENSHOT_DIR, 'cluster-health-lost-hosts-en.png') });
    await breakPanel().screenshot({ path: join(SCREENSHOT_DIR, 'cluster-health-break-things-en.png') });

    await setLocale(page, '中文');
    await expect.poll(() => host('host-2').getByTestId('host-lost').textContent()).toBe('已丢失');
    expect(await panelButton.getAttribute('title')).toBe('host-0 是仅剩的主机：它的 TaskManager 将无处重启');
    await page.locator('.cluster-panel').screenshot({ path: join(SCREENSHOT_DIR, 'cluster-health-lost-hosts-zh.png') });
    await setLocale(page, 'English');
  }, 60_000);

  it('shows a scheduled fail-task that fell in a restart as not applied, with the engine’s reason', async () => {
    await load(page, FAIL_TASK_DURING_RESTART);
    await runUntil(page, 5000);
    const reason = 'the job is RESTARTING; no task of count#0 runs to fail';
    const timeline = page.getByTestId('checkpoint-timeline');
    const entry = timeline.locator('[data-testid="faults-not-applied"] li');
    await expect.poll(() => entry.count()).toBe(1);
    expect(await entry.getAttribute('data-fault-type')).toBe('fail-task');
    expect(await entry.textContent()).toContain(`fail task not applied: ${reason}`);
    expect(await entry.textContent()).toContain('0:03.300');
    expect(await timeline.locator('[data-testid="not-applied-mark"] title').allTextContents()).toEqual([`fail task not applied: ${reason}`]);
    // The kill before it is a fault mark of its own; the refused fail-task is not.
    expect(await timeline.locator('g.fault title').allTextContents()).toEqual(['Fault: kill TaskManager tm-1 on host-1; it restarts on host-1']);
    expect(await timeline.locator('.legend').textContent()).toContain(en['timeline.legend.notApplied']);
    await timeline.scrollIntoViewIfNeeded();
    await timeline.screenshot({ path: join(SCREENSHOT_DIR, 'cluster-health-not-applied-en.png') });

    // In Chinese the reason too is rendered from the engine's message code.
    await setLocale(page, '中文');
    const reasonZh = '作业处于 RESTARTING 状态；count#0 没有正在运行的 task 可以让它失败';
    await expect.poll(() => entry.textContent()).toContain(`“让任务失败”未执行：${reasonZh}`);
    expect(await timeline.locator('[data-testid="not-applied-mark"] title').allTextContents()).toEqual([`“让任务失败”未执行：${reasonZh}`]);
    await timeline.screenshot({ path: join(SCREENSHOT_DIR, 'cluster-health-not-applied-zh.png') });
    await setLocale(page, 'English');
  }, 60_000);

  it('logs no errors', () => {
    expect(session.errors).toEqual([]);
  });
});

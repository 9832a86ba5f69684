/**
 * Each subtask's restore on the page, in real Chromium (sim driver): the bundled task-local
 * recovery scenario restores once from local copies (tm-1 killed at 4 s); then count#1's local
 * copy is corrupted and the subtask failed, so the next restore reads count#0 locally and count#1
 * remotely because of the bad checksum. The Overview's Latest Restore lists both, with the reason,
 * in English and Chinese, and so does the subtask inspector's Last restore. A wider job shows the
 * collapsed table and its "show all" toggle. Screenshots land in test-artifacts/screenshots/.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi, PlaygroundStats } from '../../web/playground/api/playground-api-types.ts';
import { openPlaygroundSession, REPO_ROOT, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

const SCENARIO_FILE = join(REPO_ROOT, 'public', 'scenarios', 'local-recovery.yaml');
const shot = (name: string) => join(SCREENSHOT_DIR, `${name}.png`);

function api<T>(page: Page, body: string): Promise<T> {
  return page.evaluate(`(async (api) => { ${body} })(window.playground)`) as Promise<T>;
}

const stats = (page: Page) => api<PlaygroundStats>(page, 'return api.stats();');

function dashboard(page: Page) {
  return page.getByTestId('checkpoint-dashboard');
}

async function openOverview(page: Page, name: string): Promise<void> {
  await dashboard(page).getByRole('tab', { name, exact: true }).click();
  await expect.poll(() => dashboard(page).getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
}

const row = (page: Page, subtask: string) => page.getByTestId('latest-restore').locator(`[data-testid="restore-row"][data-subtask="${subtask}"]`);
const rowText = async (page: Page, subtask: string) => ((await row(page, subtask).textContent({ timeout: 2_000 }).catch(() => '')) ?? '').replace(/\s+/g, ' ');

describe('the restore of each subtask, in the Overview and the inspector', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    session = await openPlaygroundSession({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lists count#0 as local and count#1 as remote because its local copy is corrupt, in English and Chinese', async () => {
    const text = await readFile(SCENARIO_FILE, 'utf8');
    await page.evaluate((scenario) => window.playground!.load(scenario).then(() => undefined), text);
    // tm-1 is killed at 4 s: the first restore reads every keyed subtask's local copy.
    await api(page, `await api.runUntil(6600);`);
    expect((await stats(page)).restores).toHaveLength(1);
    const host = await api<string>(page, `return (await api.topology()).subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 1).host;`);
    await api(page, `await api.corruptLocalCopy(${JSON.stringify(host)}, 'count', 1); await api.failTask('count', 1);`);
    await api(page, `await api.runUntil(7600);`);
    const restore = (await stats(page)).restores.at(-1)!;
    const count = restore.subtasks.filter((s) => s.vertexId === 'count');
    expect(count.map((s) => [s.subtaskIndex, s.source, s.reason])).toEqual([
      [0, 'local', undefined],
      [1, 'remote', 'corrupt'],
    ]);

    await openOverview(page, en['checkpoints.tab.overview']);
    await expect.poll(() => page.getByTestId('latest-restore-id').textContent()).toBe(String(restore.checkpointId));
    // The summary line stays above the table.
    expect(await page.getByTestId('latest-restore').textContent()).toContain('5 from remote storage, 1 from a local copy');
    await expect.poll(() => page.getByTestId('latest-restore').getByTestId('restore-row').count()).toBe(6);
    await expect.poll(() => row(page, 'count#0').getAttribute('data-source')).toBe('local');
    const local = await rowText(page, 'count#0');
    expect(local).toContain(en['restore.source.local']);
    expect(local).not.toContain(en['restore.source.remote']);
    expect(local).toMatch(/\d+ KB/);
    const corrupt = await rowText(page, 'count#1');
    expect(corrupt).toContain(en['restore.source.remote']);
    expect(corrupt).toContain(en['restore.reason.corrupt']);
    expect(corrupt).toMatch(/\d+ms/);
    // A source keeps offsets, not keyed state: no local copy is ever written for it.
    expect(await rowText(page, 'source#0')).toContain(en['restore.reason.not-keyed']);
    // Grouped by vertex, in graph order.
    const groups = await page.getByTestId('latest-restore').locator('tbody[data-vertex-id]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-vertex-id')));
    expect(groups).toEqual(['source', 'count', 'sink']);
    expect(await page.getByTestId('restore-toggle').count()).toBe(0);

    await page.getByTestId('latest-restore').screenshot({ path: shot('restore-subtasks-card-en') });

    // The subtask inspector says the same for count#1.
    await page.getByTestId('job-graph').locator('[data-vertex-id="count"] [data-subtask="1"]').click();
    const inspector = page.getByTestId('inspector');
    await expect.poll(() => inspector.getByTestId('inspect-last-restore').getAttribute('data-reason')).toBe('corrupt');
    expect(await inspector.getByTestId('inspect-restore-source').textContent()).toBe(en['restore.source.remote']);
    expect(await inspector.getByTestId('inspect-restore-reason').textContent()).toBe(en['restore.reason.corrupt']);
    expect(await inspector.getByTestId('inspect-last-restore').textContent()).toContain(`checkpoint ${restore.checkpointId} at`);
    await session.screenshot('restore-subtasks-en', { fullPage: true });
    await inspector.screenshot({ path: shot('restore-subtasks-inspector-en') });

    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => rowText(page, 'count#1')).toContain(zhCN['restore.reason.corrupt']);
    expect(await rowText(page, 'count#1')).toContain(zhCN['restore.source.remote']);
    expect(await rowText(page, 'count#0')).toContain(zhCN['restore.source.local']);
    expect(await page.getByTestId('latest-restore').textContent()).toContain(zhCN['restore.col.reason']);
    await expect.poll(() => inspector.getByTestId('inspect-restore-reason').textContent()).toBe('本地副本已损坏（校验和不符）');
    await inspector.screenshot({ path: shot('restore-subtasks-inspector-zh') });
    // The inspector floats over the page: closed, it leaves the card whole for its screenshot.
    await page.getByTestId('inspector-close').click();
    await expect.poll(() => page.getByTestId('inspector').count()).toBe(0);
    await page.getByTestId('latest-restore').screenshot({ path: shot('restore-subtasks-card-zh') });
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    await expect.poll(() => rowText(page, 'count#1')).toContain(en['restore.reason.corrupt']);
  }, 90_000);

  it('collapses a long table to 8 rows with a "show all" toggle, and fits a phone', async () => {
    const scenario = parse(await readFile(SCENARIO_FILE, 'utf8')) as { config: Record<string, unknown>; cluster: Record<string, number>; faults: unknown[] };
    scenario.config['parallelism.default'] = 5;
    scenario.cluster.slots_per_task_manager = 3;
    scenario.faults = [{ at: '4 s', type: 'kill-task-manager', task_manager: 'tm-1' }];
    await page.evaluate((s) => window.playground!.load(s).then(() => undefined), scenario);
    await api(page, `await api.runUntil(6000);`);
    expect((await stats(page)).restores).toHaveLength(1);

    const card = page.getByTestId('latest-restore');
    const toggle = page.getByTestId('restore-toggle');
    await expect.poll(() => toggle.textContent()).toBe(en['restore.showAll'].replace('{n}', '15'));
    expect(await card.getByTestId('restore-row').count()).toBe(8);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await card.screenshot({ path: shot('restore-subtasks-collapsed-en') });
    await toggle.click();
    await expect.poll(() => card.getByTestId('restore-row').count()).toBe(15);
    expect(await toggle.textContent()).toBe(en['restore.showFewer']);
    await toggle.click();
    await expect.poll(() => card.getByTestId('restore-row').count()).toBe(8);

    // On a phone the table scrolls sideways inside its card, never the page.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await card.screenshot({ path: shot('restore-subtasks-narrow-en') });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(session.errors).toEqual([]);
  }, 90_000);

  it('shows each state handle under its subtask with how long its read took, in English and Chinese', async () => {
    await page.evaluate((scenario) => window.playground!.load(scenario).then(() => undefined), await readFile(SCENARIO_FILE, 'utf8'));
    await api(page, `await api.runUntil(6600);`);
    const restore = (await stats(page)).restores.at(-1)!;
    const count0 = restore.subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 0)!;
    expect(count0.source).toBe('local');
    expect(count0.handles!.every((h) => h.source === 'local' && typeof h.durationMs === 'number')).toBe(true);

    await openOverview(page, en['checkpoints.tab.overview']);
    const card = page.getByTestId('latest-restore');
    const handleRows = card.locator('[data-testid="restore-handle-row"][data-subtask="count#0"]');
    expect(await handleRows.count()).toBe(0);
    const toggle = card.getByTestId('restore-handles-toggle');
    await expect.poll(() => toggle.textContent()).toBe(en['restore.handles.show']);
    await toggle.click();
    await expect.poll(() => handleRows.count()).toBe(count0.handles!.length);
    const first = ((await handleRows.first().textContent()) ?? '').replace(/\s+/g, ' ');
    expect(first).toContain('KeyGroupsStateHandle');
    expect(first).toContain(en['restore.handle.source.local']);
    expect(await handleRows.first().getByTestId('restore-handle-duration').textContent()).toMatch(/^\d+(\.\d+)?ms$/);
    expect(await toggle.textContent()).toBe(en['restore.handles.hide']);
    await card.screenshot({ path: shot('restore-subtasks-handles-en') });

    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => toggle.textContent()).toBe(zhCN['restore.handles.hide']);
    expect(await handleRows.first().textContent()).toContain(zhCN['restore.handle.source.local']);
    await card.screenshot({ path: shot('restore-subtasks-handles-zh') });
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    await toggle.click();
    await expect.poll(() => handleRows.count()).toBe(0);
    expect(session.errors).toEqual([]);
  }, 90_000);
});

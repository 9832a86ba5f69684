/**
 * An imported Flink job in the same dashboard and timeline as a playground run, in real Chromium:
 * the shared Flink 1.15 sample pasted into the Gantt tab's importer, then (after clearing it) the
 * Flink 1.9 sample; each tab (Overview, History, Summary, Configuration, Doctor, Gantt) and the
 * timeline show the imported documents, with what Flink 1.9 did not report said so, in English and
 * Chinese; and the dashboard-wide switch goes back to the run. Screenshots:
 * test-artifacts/screenshots/imported-overview-115-en, imported-timeline-115-en, imported-overview-19-zh,
 * imported-summary-19-zh, imported-timeline-19-zh (.png).
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { openBrowserSession, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';
import { inPage } from './playground-in-page.ts';

const FLINK_115 = readFileSync('tests/flink-samples/01-checkpoints-flink-kubernetes-operator-flink115-history10.json', 'utf8');
const FLINK_19 = readFileSync('tests/flink-samples/08-checkpoints-soojae-study-flink191-38completed.json', 'utf8');

const dashboard = (page: Page) => page.getByTestId('checkpoint-dashboard');
const timeline = (page: Page) => page.getByTestId('checkpoint-timeline');
const panel = (page: Page) => dashboard(page).locator('[role="tabpanel"]');
/** A PNG of one panel (the dashboard or the timeline) in test-artifacts/screenshots. */
async function screenshot(panelOf: Locator, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await panelOf.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}
const count = (page: Page, key: string) => panel(page).locator(`[data-count="${key}"] dd`).getAttribute('data-value');

async function openTab(page: Page, label: string): Promise<void> {
  await dashboard(page).getByRole('tab', { name: label, exact: true }).click();
  // Every tab but the Overview loads its code when it first opens.
  await expect.poll(() => dashboard(page).getByTestId('tab-loading').count()).toBe(0);
}

/** Pastes one response into the Gantt tab's importer (clearing what was imported first, when asked). */
async function importInGantt(page: Page, text: string, clearFirst: boolean): Promise<void> {
  await openTab(page, en['checkpoints.tab.gantt']);
  const importer = page.getByTestId('gantt-tab').getByTestId('flink-import');
  await importer.evaluate((details) => ((details as HTMLDetailsElement).open = true));
  if (clearFirst) await importer.getByTestId('flink-import-clear').click();
  await importer.getByTestId('flink-import-text').fill(text);
  await importer.getByTestId('flink-import-add').click();
  await expect.poll(() => dashboard(page).getAttribute('data-source')).toBe('imported');
}

describe('an imported Flink job in the dashboard and the timeline', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 1000 } });
    await session.page.goto(`${session.baseUrl}/`);
    // a run of its own, to switch back to
    await inPage(
      session,
      async (api, scenario) => {
        await api.load(scenario);
        await api.runUntil(3_000);
      },
      readFileSync('public/scenarios/word-count.yaml', 'utf8'),
    );
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows the Flink 1.15 sample in every tab: counts, latest cards, history, percentiles, what the import lacks, the doctor and the Gantt strip', async () => {
    const page = session.page;
    expect(await dashboard(page).getByTestId('dashboard-source').count()).toBe(0); // nothing imported yet
    await importInGantt(page, FLINK_115, false);
    expect(await page.getByTestId('gantt-tab').getByTestId('gantt-strip').locator('rect[data-checkpoint-id]').count()).toBe(10);
    expect(await dashboard(page).getByTestId('dashboard-imported-note').textContent()).toContain('1.15');

    await openTab(page, en['checkpoints.tab.overview']);
    expect([await count(page, 'triggered'), await count(page, 'completed'), await count(page, 'failed'), await count(page, 'restored')]).toEqual(['79', '69', '10', '1']);
    expect(await panel(page).getByTestId('latest-completed').textContent()).toContain('96');
    expect(await panel(page).getByTestId('latest-completed').textContent()).toContain('2022-05-22 09:47:17.621');
    expect(await panel(page).getByTestId('latest-savepoint').textContent()).toContain('savepoint-000000-e8ea2482ce4f');
    // The sample counts 10 failed checkpoints and names no latest one: the card says so, not "none failed".
    expect(await panel(page).getByTestId('latest-failed').textContent()).toContain(en['checkpoints.latest.failedNotNamed'].replace('{count, plural, one {# failed checkpoint} other {# failed checkpoints}}', '10 failed checkpoints'));
    expect(await panel(page).getByTestId('latest-restore-id').textContent()).toBe('27');
    await screenshot(dashboard(page), 'imported-overview-115-en');

    await openTab(page, en['checkpoints.tab.history']);
    const rows = panel(page).locator('[data-testid="checkpoint-history"] tbody tr[data-checkpoint-id]');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-checkpoint-id')))).toEqual(['96', '95', '94', '93', '92', '91', '90', '89', '88', '87']);
    await rows.first().getByRole('button').click();
    expect(await panel(page).getByTestId('imported-no-tasks').textContent()).toContain('/jobs/:jobid/checkpoints/details/96');

    await openTab(page, en['checkpoints.tab.summary']);
    expect(await panel(page).getByTestId('checkpoint-summary').locator('tbody tr').first().textContent()).toContain('14ms');
    expect(await panel(page).getByTestId('checkpoint-percentiles').locator('tbody tr').first().textContent()).toContain('22ms');

    await openTab(page, en['checkpoints.tab.configuration']);
    expect(await panel(page).getByTestId('imported-missing').textContent()).toBe(en['imported.noConfig']);

    await openTab(page, en['checkpoints.tab.doctor']);
    await expect.poll(() => panel(page).locator('[data-testid="doctor-none"], [data-testid="doctor-findings"]').count()).toBe(1);
    expect(session.errors).toEqual([]);
  });

  it('draws the imported history on the timeline, trigger to end with status colours, without the playhead, saying why', async () => {
    const page = session.page;
    await expect.poll(() => timeline(page).getAttribute('data-source')).toBe('imported');
    const bars = timeline(page).locator('.bar[data-checkpoint-id]');
    expect(await bars.count()).toBe(10);
    expect(new Set(await bars.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-status'))))).toEqual(new Set(['COMPLETED']));
    expect(await timeline(page).getByTestId('timeline-playhead').count()).toBe(0);
    expect(await timeline(page).getByTestId('timeline-scrub').count()).toBe(0);
    expect(await timeline(page).getByTestId('timeline-imported-note').textContent()).toBe(en['imported.timeline.note']);
    await screenshot(timeline(page), 'imported-timeline-115-en');

    // a bar opens its checkpoint in the dashboard's history
    await timeline(page).locator('.bar[data-checkpoint-id="90"]').click();
    await expect.poll(() => panel(page).getAttribute('data-tab')).toBe('history');
    await expect.poll(() => panel(page).locator('[data-testid="checkpoint-detail"][data-checkpoint-id="90"]').count()).toBe(1);
  });

  it('says what Flink 1.9 did not report, in Chinese, and draws its history', async () => {
    const page = session.page;
    await importInGantt(page, FLINK_19, true);
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await openTab(page, zhCN['checkpoints.tab.overview']);
    await expect.poll(() => count(page, 'completed')).toBe('38');
    expect(await dashboard(page).getByTestId('dashboard-imported-note').textContent()).toContain('1.9–1.11');
    await screenshot(dashboard(page), 'imported-overview-19-zh');

    await openTab(page, zhCN['checkpoints.tab.summary']);
    const notReported = zhCN['imported.notReported'].replace('{versions}', '1.9–1.11');
    expect(await panel(page).getByTestId('percentiles-not-reported').textContent()).toBe(zhCN['imported.summary.percentiles'].replace('{versions}', '1.9–1.11'));
    expect(await panel(page).getByTestId('checkpoint-percentiles').count()).toBe(0);
    expect(await panel(page).getByTestId('checkpoint-summary').locator('tbody tr').first().locator('td').nth(1).textContent()).toBe(notReported);
    await screenshot(dashboard(page), 'imported-summary-19-zh');

    expect(await timeline(page).locator('.bar[data-checkpoint-id]').count()).toBe(10);
    expect(await timeline(page).getByTestId('timeline-imported-note').textContent()).toBe(zhCN['imported.timeline.note']);
    await screenshot(timeline(page), 'imported-timeline-19-zh');
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    expect(session.errors).toEqual([]);
  });

  it('goes back to the run with the dashboard’s switch: its counts, and the timeline with its playhead', async () => {
    const page = session.page;
    await dashboard(page).getByTestId('dashboard-source').selectOption('run');
    await expect.poll(() => dashboard(page).getAttribute('data-source')).toBe('run');
    expect(await timeline(page).getAttribute('data-source')).toBe('run');
    expect(await timeline(page).getByTestId('timeline-playhead').count()).toBe(1);
    expect(await dashboard(page).getByTestId('dashboard-imported-note').count()).toBe(0);
    await openTab(page, en['checkpoints.tab.overview']);
    const stats = await inPage(session, async (api) => (await api.stats()) as { checkpoints: { counts: { completed: number } } }, null);
    const runCompleted = stats.checkpoints.counts.completed;
    expect(await count(page, 'completed')).toBe(String(runCompleted));
    expect(session.errors).toEqual([]);
  });
});

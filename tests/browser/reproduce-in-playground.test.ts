/**
 * "Reproduce in the playground" in real Chromium: a real Flink 1.15 /checkpoints response is
 * chosen as a file in the page's importer (the one the Gantt tab offers too), the button builds
 * the model and the sim runs it; once the model has completed checkpoints, the table shows each imported figure beside the model's with how far it is off,
 * in English and Simplified Chinese.
 */
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

const SAMPLE = 'tests/flink-samples/01-checkpoints-flink-kubernetes-operator-flink115-history10.json';
const panel = (page: Page) => page.getByTestId('reproduce-panel');
const table = (page: Page) => panel(page).getByTestId('reproduce-comparison');

async function completedCheckpoints(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const stats = (await window.playground!.stats()) as { checkpoints: { counts: { completed: number } } };
    return stats.checkpoints.counts.completed;
  });
}

describe('Reproduce in the playground', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openPlaygroundSession();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('builds a model of an imported job, runs it, and shows imported vs model figures with how far each is off', async () => {
    const page = session.page;
    await panel(page).getByTestId('flink-import-file').setInputFiles(SAMPLE);
    await expect.poll(() => panel(page).getByTestId('reproduce-imported').textContent()).toMatch(/1 response read: 10 completed checkpoints in the history/);
    await panel(page).getByRole('button', { name: en['reproduce.button'] }).click();

    // the sim runs the model: wait until it has completed a few checkpoints of its own
    await expect.poll(() => completedCheckpoints(page), { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(3);
    const name = await page.evaluate(async () => ((await window.playground!.stats()) as { scenario: { name: string } }).scenario.name);
    expect(name).toBe('Model of an imported Flink job');

    await expect.poll(() => table(page).count(), { timeout: 30_000 }).toBe(1);
    const median = table(page).locator('tr[data-figure="median-duration"]');
    expect(await median.locator('td').nth(0).textContent()).toBe('18 ms');
    expect(await median.locator('td').nth(2).textContent()).toMatch(/^(the same|\d+% (higher|lower) \(×\d\.\d\d\))$/);
    const size = table(page).locator('tr[data-figure="checkpointed-size"]');
    expect(await size.locator('td').nth(0).textContent()).toBe('27.6 KB');
    expect(await size.locator('td').nth(1).textContent()).toMatch(/^2\d\.\d KB$/);
    expect(await table(page).locator('tr[data-figure="async-duration"] td').nth(0).textContent()).toBe(en['reproduce.notImported']);
    await table(page).scrollIntoViewIfNeeded();
    await session.screenshot('reproduce-en');

    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => table(page).locator('caption').textContent()).toBe(zhCN['reproduce.table']);
    expect(await median.locator('th').textContent()).toBe('端到端耗时（中位数）');
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    expect(session.errors).toEqual([]);
  });

  it('says why statistics without a completed checkpoint cannot be modelled, naming the field', async () => {
    const page = session.page;
    const empty = {
      counts: { restored: 0, total: 0, in_progress: 0, completed: 0, failed: 0 },
      summary: { state_size: { min: 0, max: 0, avg: 0 }, end_to_end_duration: { min: 0, max: 0, avg: 0 }, alignment_buffered: { min: 0, max: 0, avg: 0 } },
      latest: { completed: null, savepoint: null, failed: null, restored: null },
      history: [],
    };
    await panel(page).getByTestId('flink-import-text').fill(JSON.stringify(empty));
    await panel(page).getByTestId('flink-import-add').click();
    await panel(page).getByRole('button', { name: en['reproduce.button'] }).click();
    await expect.poll(() => panel(page).getByTestId('reproduce-problem').textContent()).toMatch(/Cannot build a model: `\$\.history`: the statistics hold no completed checkpoint/);
  });
});

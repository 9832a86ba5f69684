/**
 * The dashboard's Gantt tab (FLINK-39566) in real Chromium: on a running sim of a job with a hot
 * key (rows per subtask, the hot subtask outlined, hover figures, pin and follow newest, PNG
 * export), and on imported Flink statistics (the shared Flink 1.15 sample's strip with its slow
 * checkpoint outlined, then a History Server archive with subtask responses), in English and
 * Chinese. Screenshots: test-artifacts/screenshots/gantt-en.png, gantt-zh.png, gantt-imported-zh.png.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { openPlaygroundSession, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

const SKEWED = readFileSync('tests/doctor/scenarios/skewed-subtask.yaml', 'utf8');
const FLINK_115_SAMPLE = readFileSync('/work/shared/flink-samples/01-checkpoints-flink-kubernetes-operator-flink115-history10.json', 'utf8');

const dashboard = (page: Page) => page.getByTestId('checkpoint-dashboard');
const tab = (page: Page) => page.getByTestId('gantt-tab');
const rows = (page: Page) => tab(page).getByTestId('gantt-row');
const outliers = (page: Page) => tab(page).getByTestId('gantt-outlier');
const stripBars = (page: Page) => tab(page).getByTestId('gantt-strip').locator('rect[data-checkpoint-id]');

/** Pastes one response body (or archive) into the importer, opening it first. */
async function importText(page: Page, text: string): Promise<void> {
  const panel = tab(page).getByTestId('flink-import');
  await panel.evaluate((details) => ((details as HTMLDetailsElement).open = true));
  await panel.getByTestId('flink-import-text').fill(text);
  await panel.getByTestId('flink-import-add').click();
}

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await tab(page).screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

/**
 * A History Server archive of the skewed job's checkpoints, as a real job's archive lays them out:
 * the `/checkpoints` response and each operator's subtasks response of one checkpoint, each under
 * its REST path. The documents are the engine's, run in Node with the page's seed.
 */
async function skewedJobArchive(): Promise<{ text: string; checkpointId: number }> {
  const parsed = parseScenarioText(SKEWED);
  if (!parsed.ok) throw new Error('the skewed scenario is not YAML');
  const valid = validateScenario(parsed.value);
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  const simulation = new Simulation(valid.scenario, { lsmStorage: await nodeLsmStorage() });
  simulation.runToEnd();
  const stats = simulation.coordinator.stats;
  const checkpoints = stats.checkpointingStatistics();
  const checkpointId = checkpoints.history.find((c) => c.status === 'COMPLETED')!.id;
  const entry = (path: string, document: unknown) => ({ path: `/jobs/5f0c0ffee/${path}`, json: JSON.stringify(document) });
  const archive = [
    entry('checkpoints', checkpoints),
    ...valid.scenario.job.vertices.map((v) => entry(`checkpoints/details/${checkpointId}/subtasks/${v.id}`, stats.taskCheckpointStatistics(checkpointId, v.id))),
  ];
  return { text: JSON.stringify({ archive }), checkpointId };
}

describe('the Gantt tab', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openPlaygroundSession({ viewport: { width: 1280, height: 1000 } });
    const page = session.page;
    // the scenario's own 8 s would end the job while the test reads it: run it longer
    const running = SKEWED.replace('run: { until: 8 s }', 'run: { until: 120 s }');
    await page.evaluate(async (text) => {
      await window.playground!.load(text);
      await window.playground!.runUntil(3_000);
      await window.playground!.start();
    }, running);
    await dashboard(page).getByRole('tab', { name: en['checkpoints.tab.gantt'], exact: true }).click();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows one row per subtask of a running job, the hot-key subtask outlined first in its operator', async () => {
    const page = session.page;
    // running: completed checkpoints keep coming; then paused, so the strip holds still to be read
    await expect.poll(() => tab(page).locator('[data-testid="gantt-strip"] rect[data-color="completed"]').count(), { timeout: 45_000 }).toBeGreaterThanOrEqual(2);
    await page.evaluate(() => window.playground!.pause());
    expect(await tab(page).getByTestId('gantt-follow').isChecked()).toBe(true);
    const newest = await stripBars(page).last().getAttribute('data-checkpoint-id');
    await expect.poll(() => tab(page).getByTestId('gantt-chart').getAttribute('data-checkpoint-id')).toBe(newest);

    const completed = tab(page).locator('[data-testid="gantt-strip"] rect[data-color="completed"]').last();
    const completedId = await completed.getAttribute('data-checkpoint-id');
    await completed.click();
    await expect.poll(() => tab(page).getByTestId('gantt-chart').getAttribute('data-checkpoint-id')).toBe(completedId);
    // the scenario runs 2 subtasks of each of its 3 operators
    expect(await rows(page).count()).toBe(6);
    const count = tab(page).locator('[data-testid="gantt-row"][data-vertex-id="count"]');
    expect(await count.first().getAttribute('data-outlier')).toBe('true');
    expect(await count.nth(1).getAttribute('data-outlier')).toBe('false');
    expect(await outliers(page).count()).toBeGreaterThan(0);

    await count.first().hover();
    await expect.poll(() => tab(page).getByTestId('gantt-hover').textContent()).toContain(en['checkpoints.field.asyncDuration']);
    expect(await tab(page).getByTestId('gantt-hover').textContent()).toMatch(/Count per key, subtask \d/);
    await screenshot(page, 'gantt-en');
    expect(session.errors).toEqual([]);
  });

  it('pins a checkpoint picked in the strip and follows the newest again when asked', async () => {
    const page = session.page;
    const first = stripBars(page).first();
    const firstId = await first.getAttribute('data-checkpoint-id');
    await first.click();
    await expect.poll(() => tab(page).getByTestId('gantt-chart').getAttribute('data-checkpoint-id')).toBe(firstId);
    expect(await tab(page).getByTestId('gantt-follow').isChecked()).toBe(false);
    await tab(page).getByTestId('gantt-follow').check();
    const newest = await stripBars(page).last().getAttribute('data-checkpoint-id');
    await expect.poll(() => tab(page).getByTestId('gantt-chart').getAttribute('data-checkpoint-id')).toBe(newest);
  });

  it('exports what it shows as a PNG file', async () => {
    const page = session.page;
    const [download] = await Promise.all([page.waitForEvent('download'), tab(page).getByTestId('gantt-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^checkpoint-\d+-gantt\.png$/);
    const path = await download.path();
    const bytes = readFileSync(path!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // width and height from the IHDR chunk: the chart, drawn at twice the CSS pixels
    expect(bytes.readUInt32BE(16)).toBeGreaterThan(700);
    expect(bytes.readUInt32BE(20)).toBeGreaterThan(200);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await download.saveAs(join(SCREENSHOT_DIR, 'gantt-export-en.png'));
  });

  it('speaks Chinese', async () => {
    const page = session.page;
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => dashboard(page).getByRole('tab', { name: zhCN['checkpoints.tab.gantt'], exact: true }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => tab(page).textContent()).toContain(zhCN['gantt.follow']);
    await tab(page).locator('[data-testid="gantt-row"][data-state="acknowledged"]').first().hover();
    await expect.poll(() => tab(page).getByTestId('gantt-hover').textContent()).toContain(zhCN['checkpoints.field.asyncDuration']);
    await screenshot(page, 'gantt-zh');
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
  });

  it('names every control for assistive technology and fits a phone screen without sideways page scrolling', async () => {
    const page = session.page;
    const unnamed = await tab(page).evaluate((root) =>
      [...root.querySelectorAll('button, select, input, textarea, [role="button"]')]
        .filter((element) => {
          const labelled = element.getAttribute('aria-label') || element.getAttribute('aria-labelledby') || (element as HTMLInputElement).labels?.length;
          return !labelled && !(element.textContent ?? '').trim();
        })
        .map((element) => element.outerHTML.slice(0, 120)),
    );
    expect(unnamed).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 1000 });
  });

  it('shows an imported Flink 1.15 job: its strip with the slow checkpoint outlined, and which responses would add the subtasks', async () => {
    const page = session.page;
    await importText(page, FLINK_115_SAMPLE);
    await expect.poll(() => tab(page).getAttribute('data-source')).toBe('imported');
    expect(await tab(page).getByTestId('flink-import-loaded').textContent()).toContain('/jobs/:jobid/checkpoints');
    expect(await stripBars(page).evaluateAll((bars) => bars.map((b) => b.getAttribute('data-checkpoint-id')))).toEqual(['87', '88', '89', '90', '91', '92', '93', '94', '95', '96']);
    expect(await tab(page).locator('rect[data-outlier="true"]').evaluateAll((bars) => bars.map((b) => b.getAttribute('data-checkpoint-id')))).toEqual(['90']);
    expect(await tab(page).getByTestId('gantt-no-subtasks').textContent()).toContain('/jobs/:jobid/checkpoints/details/96/subtasks/:vertexid');
    expect(await rows(page).count()).toBe(0);
  });

  it('shows an imported archive’s subtasks with the outlier outlined, refuses foreign JSON naming where, and goes back to the run', async () => {
    const page = session.page;
    const { text, checkpointId } = await skewedJobArchive();
    await importText(page, text);
    await tab(page).locator(`[data-testid="gantt-strip"] rect[data-checkpoint-id="${checkpointId}"]`).click();
    await expect.poll(() => rows(page).count()).toBe(6);
    expect(await tab(page).getByTestId('flink-import-loaded').textContent()).toContain(`/jobs/:jobid/checkpoints, ${en['import.archive']}`);
    expect(await outliers(page).count()).toBeGreaterThan(0);
    expect(await tab(page).locator('[data-testid="gantt-row"][data-vertex-id="count"]').first().getAttribute('data-outlier')).toBe('true');

    await importText(page, '{"jobs": [{"id": "5f0c0ffee", "status": "RUNNING"}]}');
    await expect.poll(() => tab(page).getByTestId('flink-import-problems').textContent()).toMatch(/`\$`.*jobs/);
    expect(await rows(page).count()).toBe(6); // what was imported before stays

    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => tab(page).textContent()).toContain(zhCN['gantt.source.imported']);
    await screenshot(page, 'gantt-imported-zh');
    await page.getByTestId('locale-select').selectOption({ label: 'English' });

    await tab(page).getByTestId('gantt-source').selectOption('run');
    await expect.poll(() => tab(page).getAttribute('data-source')).toBe('run');
    await expect.poll(() => rows(page).count()).toBe(6);
    expect(session.errors).toEqual([]);
  });
});

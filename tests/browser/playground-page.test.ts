/**
 * The playground page in real Chromium: it loads, draws the default scenario's job graph, runs,
 * switches language, and logs no errors. Screenshots land in test-artifacts/screenshots/.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { openBrowserSession, REPO_ROOT, type BrowserSession } from './browser-session.ts';

interface ScenarioEntry {
  file: string;
  name: string;
}

/** The default scenario (the first in the index), read and validated in Node, independently of the page. */
async function defaultScenarioVertexIds(): Promise<string[]> {
  const scenarioDir = join(REPO_ROOT, 'public', 'scenarios');
  const index = JSON.parse(await readFile(join(scenarioDir, 'index.json'), 'utf8')) as ScenarioEntry[];
  const first = index[0];
  if (!first) throw new Error('public/scenarios/index.json lists no scenarios');
  const parsed = parseScenarioText(await readFile(join(scenarioDir, first.file), 'utf8'));
  if (!parsed.ok) throw new Error(`${first.file} does not parse: ${JSON.stringify(parsed.errors)}`);
  const validated = validateScenario(parsed.value);
  if (!validated.ok) throw new Error(`${first.file} is invalid: ${JSON.stringify(validated.errors)}`);
  return validated.scenario.job.vertices.map((vertex) => vertex.id);
}

async function readCount(session: BrowserSession, testId: string): Promise<number> {
  const value = await session.page.getByTestId(testId).getAttribute('data-value');
  return Number(value);
}

describe('playground page', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await session.page.goto(`${session.baseUrl}/`);
    await session.page.locator('[data-testid="job-graph"] [data-vertex-id]').first().waitFor();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows the title in English for an English browser', async () => {
    expect(await session.page.title()).toBe(en['app.title']);
    await expect(session.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(en['app.title']);
  });

  it('lists the example scenarios and selects the first one', async () => {
    const options = await session.page.getByTestId('scenario-select').locator('option').allTextContents();
    // The index grows as scenarios are added; the first three are the original examples.
    expect(options.slice(0, 3)).toEqual(['Word count', 'Click counts', 'Two-stream join']);
    await expect(session.page.getByTestId('scenario-select').inputValue()).resolves.toBe('word-count.yaml');
  });

  it('draws one job graph node per vertex of the default scenario', async () => {
    const expected = await defaultScenarioVertexIds();
    const drawn = await session.page
      .locator('[data-testid="job-graph"] [data-vertex-id]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-vertex-id')));
    expect(drawn.sort()).toEqual([...expected].sort());
  });

  it('counts processed records up while running and holds them while paused', async () => {
    const page = session.page;
    // From virtual time 0, so a bounded scenario cannot have finished before the measurement.
    await page.getByRole('button', { name: en['controls.reset'], exact: true }).click();
    await expect(page.getByRole('button', { name: en['controls.pause'], exact: true }).isEnabled()).resolves.toBe(true);

    const sourceBefore = await readCount(session, 'source-records-out');
    const clockBefore = await readCount(session, 'virtual-clock');
    await page.waitForTimeout(1_000);
    const sourceAfter = await readCount(session, 'source-records-out');
    const clockAfter = await readCount(session, 'virtual-clock');
    expect(clockAfter).toBeGreaterThan(clockBefore);
    expect(sourceAfter).toBeGreaterThan(sourceBefore);
    await expect.poll(() => readCount(session, 'sink-records-in'), { timeout: 10_000 }).toBeGreaterThan(0);

    await page.getByRole('button', { name: en['controls.pause'], exact: true }).click();
    const pausedAt = await readCount(session, 'source-records-out');
    await page.waitForTimeout(300);
    expect(await readCount(session, 'source-records-out')).toBe(pausedAt);

    await page.getByRole('button', { name: en['controls.run'], exact: true }).click();
    await expect.poll(() => readCount(session, 'source-records-out'), { timeout: 5_000 }).toBeGreaterThan(pausedAt);
    await session.screenshot('playground-en');
  });

  it('switches the UI to Simplified Chinese from the language menu', async () => {
    const page = session.page;
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.textContent()).toBe(zhCN['app.title']);
    expect(zhCN['app.title']).not.toBe(en['app.title']);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('zh-CN');
    await expect(page.getByRole('button', { name: zhCN['controls.pause'] }).isVisible()).resolves.toBe(true);
    await session.screenshot('playground-zh');

    await page.reload();
    await expect.poll(() => heading.textContent()).toBe(zhCN['app.title']);
  });

  it('lays out at phone width without horizontal page overflow', async () => {
    const page = session.page;
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    await page.setViewportSize({ width: 390, height: 844 });
    // The job graph may scroll inside its own box; the page itself must not.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await session.screenshot('playground-en-narrow', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('follows a dark colour scheme', async () => {
    const page = session.page;
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).not.toBe(light);
    await session.screenshot('playground-en-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows why an invalid scenario was rejected and runs nothing', async () => {
    const page = session.page;
    const invalid = 'version: 1\nname: Broken\njob:\n  vertices:\n    - { id: only, type: sourse }\n';
    await page.route('**/scenarios/click-counts.yaml', (route) =>
      route.fulfill({ status: 200, contentType: 'text/yaml', body: invalid }),
    );
    await page.getByTestId('scenario-select').selectOption('click-counts.yaml');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('click-counts.yaml');
    expect(await alert.textContent()).toContain('job.vertices[0]');
    expect(await page.locator('[data-testid="job-graph"]').count()).toBe(0);
    await expect(page.getByRole('button', { name: en['controls.run'], exact: true }).isDisabled()).resolves.toBe(true);
    await page.unroute('**/scenarios/click-counts.yaml');
  });

  it('logs no console errors or page errors', () => {
    expect(session.errors).toEqual([]);
  });
});

describe('playground page in a Chinese browser', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ locale: 'zh-CN' });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('starts in Simplified Chinese when navigator.language is zh-CN', async () => {
    await session.page.goto(`${session.baseUrl}/`);
    const heading = session.page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.textContent()).toBe(zhCN['app.title']);
    await expect(session.page.getByTestId('locale-select').inputValue()).resolves.toBe('zh-CN');
    expect(session.errors).toEqual([]);
  });
});

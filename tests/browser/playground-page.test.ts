/**
 * The playground page in real Chromium: a first page (no lesson, scenario or share link in its
 * URL) opens lesson 1 with its scenario running, draws that scenario's job graph, runs, loads a
 * share link pasted over its hash, switches language, and logs no errors. Screenshots land in
 * test-artifacts/screenshots/.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { encodeScenario } from '../../web/embed/share-link.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { openBrowserSession, REPO_ROOT, type BrowserSession } from './browser-session.ts';
import { animationFrames } from './animation-frames.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

const FIRST_LESSON = LESSONS[0]!;

/** A scenario the site ships (path under public/), read and validated in Node, independently of the page. */
async function shippedScenario(path: string): Promise<Scenario> {
  const file = join(REPO_ROOT, 'public', path);
  const parsed = parseScenarioText(await readFile(file, 'utf8'));
  if (!parsed.ok) throw new Error(`${file} does not parse: ${JSON.stringify(parsed.errors)}`);
  const validated = validateScenario(parsed.value);
  if (!validated.ok) throw new Error(`${file} is invalid: ${JSON.stringify(validated.errors)}`);
  return validated.scenario;
}

/** The first page's scenario (lesson 1's). */
async function firstPageScenario(): Promise<{ name: string; vertexIds: string[] }> {
  const scenario = await shippedScenario(FIRST_LESSON.scenario);
  return { name: scenario.name, vertexIds: scenario.job.vertices.map((vertex) => vertex.id) };
}

/** The description the page shows under the controls, as a reader sees it. */
async function shownDescription(session: BrowserSession): Promise<string | undefined> {
  const description = session.page.getByTestId('scenario-description');
  return (await description.count()) === 0 ? undefined : (await description.textContent())?.trim();
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

  it('opens lesson 1 on a first page with its scenario running, and a checkpoint completes', async () => {
    const page = session.page;
    await expect(page.getByTestId('lesson-title').textContent()).resolves.toBe(FIRST_LESSON.title.en);
    await expect(page.getByTestId('lesson-list-button').isVisible()).resolves.toBe(true);
    const { name } = await firstPageScenario();
    await expect.poll(() => page.evaluate(() => window.playground!.status().then((s) => [s.scenario?.name, s.running]))).toEqual([name, true]);
    // lesson 1 checkpoints every second: the first completes within seconds of virtual time
    await expect
      .poll(() => page.evaluate(() => window.playground!.stats().then((s) => s.checkpoints.counts.completed)), { timeout: 30_000 })
      .toBeGreaterThan(0);
    const url = new URL(page.url());
    expect(url.searchParams.get('lesson')).toBe(FIRST_LESSON.id);
  });

  it('lists the example scenarios and names the lesson scenario of the first page in the picker', async () => {
    const { name } = await firstPageScenario();
    const options = await session.page.getByTestId('scenario-select').locator('option').allTextContents();
    // The lesson's scenario is not a bundled one: the picker names it first, then the examples
    // (the index grows as scenarios are added; the first three are the original examples).
    expect(options.slice(0, 4)).toEqual([en['scenario.fromLesson'].replace('{name}', name), 'Word count', 'Click counts', 'Two-stream join']);
    await expect(session.page.getByTestId('scenario-select').inputValue()).resolves.toBe('');
  });

  it('draws one job graph node per vertex of the scenario of the first page', async () => {
    const { vertexIds: expected } = await firstPageScenario();
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
    await expect.poll(() => readCount(session, 'virtual-clock'), { timeout: 10_000 }).toBeGreaterThan(clockBefore);
    await expect.poll(() => readCount(session, 'source-records-out'), { timeout: 10_000 }).toBeGreaterThan(sourceBefore);
    await expect.poll(() => readCount(session, 'sink-records-in'), { timeout: 10_000 }).toBeGreaterThan(0);

    await page.getByRole('button', { name: en['controls.pause'], exact: true }).click();
    const pausedAt = await readCount(session, 'source-records-out');
    // Ten frames, in each of which a running sim would have emitted records.
    await animationFrames(page, 10);
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
    // The job graph may scroll inside its own box; the page itself must not. The views take their
    // new width from ResizeObservers, which report after the layout that follows the resize.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
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

  it('loads the scenario of a share link pasted over the hash of the open page', async () => {
    const page = session.page;
    const text = await readFile(join(REPO_ROOT, 'public', 'scenarios', 'click-counts.yaml'), 'utf8');
    const { name } = await shippedScenario('scenarios/click-counts.yaml');
    await page.evaluate((hash) => (location.hash = hash), `#scenario=${encodeScenario(text)}`);
    await expect.poll(() => page.evaluate(() => window.playground!.status().then((s) => [s.scenario?.name, s.running]))).toEqual([name, true]);
    const picked = await page.getByTestId('scenario-select').locator('option').first().textContent();
    expect(picked).toBe(en['scenario.fromLink'].replace('{name}', name));
    // the lesson gave the page back: its list shows again
    await expect(page.getByTestId('lesson-open').first().isVisible()).resolves.toBe(true);
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

  it("shows a scenario picked from the list with its English name and description", async () => {
    const page = session.page;
    const scenario = await shippedScenario('scenarios/two-stream-join.yaml');
    await page.getByTestId('scenario-select').selectOption('two-stream-join.yaml');
    await expect.poll(() => shownDescription(session)).toBe(scenario.description.trim());
    const picked = page.getByTestId('scenario-select').locator('option[value="two-stream-join.yaml"]');
    await expect(picked.textContent()).resolves.toBe(scenario.name);
  });

  it('logs no console errors or page errors', () => {
    expect(session.errors).toEqual([]);
  });
});

/** What the views below the first screen load: each its own module (dev server) or chunk (build). */
const LOWER_VIEW_CODE = /(BreakThings|ClusterView|MetricsCharts|CheckpointDashboard|SinkOutput|ReproducePanel|ConfigPanel)[.-]/;

describe('playground page start-up', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  });

  afterAll(async () => {
    await session?.close();
  });

  it("requests none of the code of the views below the first screen before its run's first checkpoint", async () => {
    // Before any of the page's scripts: every request the page makes is kept, and the moment of the first checkpoint.
    await session.page.addInitScript(() => {
      performance.setResourceTimingBufferSize(100_000);
      const marks = window as unknown as { __firstCheckpointAt?: number; playground?: PlaygroundApi };
      let api: PlaygroundApi | undefined;
      Object.defineProperty(window, 'playground', {
        configurable: true,
        get: () => api,
        set(value: PlaygroundApi) {
          api = value;
          value.on('checkpoint-completed', () => (marks.__firstCheckpointAt ??= performance.now()));
        },
      });
    });
    await session.page.goto(`${session.baseUrl}/`);
    await session.page.waitForFunction(() => (window as unknown as { __firstCheckpointAt?: number }).__firstCheckpointAt !== undefined, undefined, { timeout: 30_000 });
    // On a loaded machine the page's wait for a first checkpoint (2.5 s) may run out first: then the
    // views are released by it, and nothing of theirs may be fetched before that either.
    const requestedBefore = await session.page.evaluate((released) => {
      const releasedAt = performance.getEntriesByName(released, 'mark')[0]?.startTime ?? Infinity;
      const at = Math.min((window as unknown as { __firstCheckpointAt: number }).__firstCheckpointAt, releasedAt);
      return performance.getEntriesByType('resource').filter((entry) => entry.startTime < at).map((entry) => entry.name);
    }, 'lower-views-released');
    expect(requestedBefore.length).toBeGreaterThan(0);
    expect(requestedBefore.filter((url) => LOWER_VIEW_CODE.test(url))).toEqual([]);
    // and they do load after it
    await expect
      .poll(() => session.page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name)), { timeout: 30_000 })
      .toContainEqual(expect.stringMatching(LOWER_VIEW_CODE));
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

  it('shows its header in Chinese from the first text it renders: no English while the Chinese chunk loads', async () => {
    // Every header text the page ever holds, recorded as it changes (before any of the page's scripts runs).
    await session.page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __headerTexts: string[] }).__headerTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('.app-header h1')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await session.page.goto(`${session.baseUrl}/`);
    await expect.poll(() => session.page.getByRole('heading', { level: 1 }).textContent()).toBe(zhCN['app.title']);
    expect(await session.page.evaluate(() => (window as unknown as { __headerTexts: string[] }).__headerTexts)).toEqual([zhCN['app.title']]);
    expect(session.errors).toEqual([]);
  });

  it("names the first page's lesson scenario in Chinese, from its own file", async () => {
    const page = session.page;
    const chinese = (await shippedScenario(FIRST_LESSON.scenario)).translations?.['zh-CN'];
    const first = page.getByTestId('scenario-select').locator('option').first();
    await expect.poll(() => first.textContent()).toBe(zhCN['scenario.fromLesson'].replace('{name}', chinese!.name!));
    await expect.poll(() => shownDescription(session)).toBe(chinese!.description!.trim());
  });

  it('shows a scenario picked from the list with its Chinese name and description, and English once the reader switches', async () => {
    const page = session.page;
    const scenario = await shippedScenario('scenarios/two-stream-join.yaml');
    const chinese = scenario.translations!['zh-CN']!;
    const picked = page.getByTestId('scenario-select').locator('option[value="two-stream-join.yaml"]');
    await expect.poll(() => picked.textContent()).toBe(chinese.name);
    await page.getByTestId('scenario-select').selectOption('two-stream-join.yaml');
    await expect.poll(() => shownDescription(session)).toBe(chinese.description!.trim());
    expect(chinese.description).not.toBe(scenario.description);

    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    await expect.poll(() => shownDescription(session)).toBe(scenario.description.trim());
    await expect(picked.textContent()).resolves.toBe(scenario.name);
    expect(session.errors).toEqual([]);
  });

  it('opens lesson 1 in Chinese on a first page: its title, paragraphs and step, and every lesson’s title in the list', async () => {
    const page = session.page;
    // the browser's language, not the English an earlier test chose
    await page.evaluate(() => localStorage.removeItem('checkpoint-playground.locale'));
    await page.goto(`${session.baseUrl}/`);
    await expect.poll(() => page.getByTestId('lesson-title').textContent()).toBe(FIRST_LESSON.title['zh-CN']);
    expect(await lessonPanelText(session)).toEqual(chineseOfLessonOne());
    await page.getByTestId('lesson-list-button').click();
    await expect(page.getByTestId('lesson-open').allTextContents()).resolves.toEqual(LESSONS.map((lesson) => lesson.title['zh-CN']));
    expect(session.errors).toEqual([]);
  });

  it('shows lesson 1 in Chinese once a reader of the English page switches, its Chinese loaded with the page’s', async () => {
    const page = session.page;
    await page.evaluate(() => localStorage.setItem('checkpoint-playground.locale', 'en'));
    await page.goto(`${session.baseUrl}/`);
    await expect.poll(() => page.getByTestId('lesson-title').textContent()).toBe(FIRST_LESSON.title.en);
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => page.getByTestId('lesson-title').textContent()).toBe(FIRST_LESSON.title['zh-CN']);
    expect(await lessonPanelText(session)).toEqual(chineseOfLessonOne());
    expect(session.errors).toEqual([]);
  });

  it('says in Chinese that a share link holds no readable scenario, naming the link and why, and in English once switched', async () => {
    const page = session.page;
    await page.evaluate(() => (location.hash = '#scenario=%%%'));
    const alert = page.getByRole('alert');
    const expected = (messages: typeof en) => messages['scenario.loadFailed'].replace('{file}', messages['scenario.fromShareLink']).replace('{reason}', messages['shareLink.notBase64']);
    await expect.poll(() => alert.textContent().then((text) => text?.trim())).toBe(expected(zhCN));
    expect(zhCN['scenario.fromShareLink']).not.toBe(en['scenario.fromShareLink']);
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    await expect.poll(() => alert.textContent().then((text) => text?.trim())).toBe(expected(en));
    expect(session.errors).toEqual([]);
  });
});

/** The open lesson's paragraphs and its current step's body, as the panel shows them. */
async function lessonPanelText(session: BrowserSession): Promise<{ paragraphs: string[]; step: string | null }> {
  const panel = session.page.getByTestId('lesson-panel');
  return { paragraphs: await panel.locator('.paragraph').allTextContents(), step: await panel.locator('.step-body').textContent() };
}

function chineseOfLessonOne(): { paragraphs: string[]; step: string } {
  return { paragraphs: FIRST_LESSON.paragraphs.map((p) => p['zh-CN']), step: FIRST_LESSON.steps[0]!.body['zh-CN'] };
}

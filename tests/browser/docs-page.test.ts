/**
 * The docs page for authors (/docs/, issue 12) in real Chromium: prose in en and zh-CN around
 * three embedded demos that really run — an iframe of a lesson's scenario, the
 * <checkpoint-playground> element with its scenario inline, and an iframe the page's own script
 * drives over postMessage — each with the code that runs it. And the share dialog's iframe
 * snippet carries the allowed origins, so a docs page on such an origin can drive it.
 */
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { formatMessage } from '../../web/i18n/message-format.ts';
import { openBrowserSession, REPO_ROOT, type BrowserSession } from './browser-session.ts';
import { hostPage, servePages } from './embed-host-pages.ts';
import { CHECKPOINTING_SCENARIO_YAML } from './scenarios.ts';
import { loadScenarioFile } from '../support/shipped-scenarios.ts';

/** A lesson scenario's English name (its YAML carries the name in both languages). */
const lessonName = (id: string) => loadScenarioFile(join(REPO_ROOT, 'public', 'lessons', `${id}.yaml`)).name;
/** The same name in Chinese. */
const lessonNameZh = (id: string) => loadScenarioFile(join(REPO_ROOT, 'public', 'lessons', `${id}.yaml`)).translations?.['zh-CN']?.name;

describe('the docs page', () => {
  let session: BrowserSession;
  let HOST: string;
  let pastedEmbedUrl = '';
  const servers: Server[] = [];

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 900 } });
    const host = await servePages((path) => (path === '/docs.html' ? hostPage(pastedEmbedUrl) : undefined));
    HOST = host.origin;
    servers.push(host.server);
  });

  afterAll(async () => {
    await session?.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it('runs three embedded demos inside its prose: an iframe of a lesson, the element with an inline scenario, and an iframe its script drives', async () => {
    const page = session.page;
    await page.goto(`${session.baseUrl}/docs/`);
    await expect(page.getByTestId('docs-title').textContent()).resolves.toBe(en['docs.title']);
    await expect(page.title()).resolves.toBe(`${en['docs.title']} — ${en['app.title']}`);

    // 1. The iframe shows lesson 1's scenario, paused, as its address says.
    const lessonFrame = page.frameLocator('[data-testid="docs-demo-iframe"] iframe');
    await expect
      .poll(() => lessonFrame.getByTestId('scenario-name').textContent().catch(() => null), { timeout: 60_000 })
      .toBe(lessonName('interval-and-min-pause'));
    expect(await lessonFrame.getByTestId('embed-bar').getAttribute('data-view')).toBe('dashboard');
    // Its code sample is the markup that runs, with the lesson in the playground a click away.
    const iframeCode = await page.locator('[data-testid="docs-demo-iframe"] pre').textContent();
    expect(iframeCode).toContain('/embed.html?view=dashboard&amp;scenario=/lessons/interval-and-min-pause.yaml&amp;autostart=0');
    expect(new URL((await page.getByTestId('docs-lesson-link').getAttribute('href'))!).searchParams.get('lesson')).toBe('interval-and-min-pause');

    // 2. The element reads its inline scenario and answers through element.playground.
    const element = await page.evaluate(async () => {
      const api = document.querySelector('checkpoint-playground')!.playground;
      const ready = await api.ready;
      const status = (await api.status()) as { scenario: { name: string } | null };
      await api.runUntil('3 s');
      const stats = (await api.stats()) as { checkpoints: { counts: { completed: number } }; output: { duplicates: number } };
      return { view: ready.view, name: status.scenario?.name, completed: stats.checkpoints.counts.completed, duplicates: stats.output.duplicates };
    });
    expect(element).toMatchObject({ view: 'graph', name: 'Clicks counted exactly once', duplicates: 0 });
    // A checkpoint every 500 ms over 3 s of job time.
    expect(element.completed).toBeGreaterThanOrEqual(4);
    expect(await page.locator('[data-testid="docs-demo-element"] pre').textContent()).toContain('<script type="text/yaml">');

    // 3. The page's buttons call the playground over postMessage and show what it answered.
    const drivenFrame = page.frameLocator('[data-testid="docs-demo-driven"] iframe');
    await expect
      .poll(() => drivenFrame.getByTestId('scenario-name').textContent().catch(() => null), { timeout: 60_000 })
      .toBe(lessonName('task-local-recovery'));
    const run = page.getByTestId('docs-drive-run');
    await expect.poll(() => run.isEnabled(), { timeout: 60_000 }).toBe(true);
    await run.click();
    await page.getByTestId('docs-drive-summary').waitFor({ timeout: 60_000 });
    const firstSummary = await page.getByTestId('docs-drive-summary').textContent();
    expect(firstSummary).toMatch(/^Job time 0:05\.000 · \d+ checkpoints completed · no restore yet$/);

    await page.getByTestId('docs-drive-kill').click();
    await page.getByTestId('docs-drive-restore').waitFor({ timeout: 60_000 });
    const status = await page.frames().find((f) => f.url().includes('task-local-recovery'))!.evaluate(() => window.playground!.stats());
    const restore = (status as { restores: { subtasks: { vertexId: string; source: string }[] }[] }).restores.at(-1)!;
    const local = restore.subtasks.filter((s) => s.source === 'local').length;
    // Lesson 8's point, as the prose says it: after the kill both Count subtasks read their local copies.
    expect(restore.subtasks.filter((s) => s.vertexId === 'count').map((s) => s.source)).toEqual(['local', 'local']);
    await expect(page.getByTestId('docs-drive-restore').textContent().then((text) => text?.trim())).resolves.toBe(
      formatMessage(en['docs.drive.lastRestore'], { local, remote: restore.subtasks.length - local }, 'en'),
    );
    expect(await page.getByTestId('docs-drive-summary').textContent()).toMatch(/· 1 restore$/);
    await session.screenshot('docs-page-en', { fullPage: true });

    // The prose goes through the i18n layer.
    await page.getByTestId('locale-select').selectOption('zh-CN');
    await expect.poll(() => page.getByTestId('docs-title').textContent()).toBe(zhCN['docs.title']);
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    expect(await page.getByTestId('docs-drive-summary').textContent()).toMatch(/^作业时间 0:08\.000 · 已完成 \d+ 个 checkpoint · 已恢复 1 次$/);
    await session.screenshot('docs-page-zh-CN');
    await page.getByTestId('locale-select').selectOption('en');
  });

  it('switches its three running demos to Chinese in place when the reader switches the page, and its code shows the lang', async () => {
    const page = session.page;
    await page.goto(`${session.baseUrl}/docs/`);
    const demo = (section: string) => page.frameLocator(`[data-testid="${section}"] iframe`);
    const names = () => Promise.all(['docs-demo-iframe', 'docs-demo-element', 'docs-demo-driven'].map((s) => demo(s).getByTestId('scenario-name').textContent().catch(() => null)));
    await expect.poll(names, { timeout: 60_000 }).toEqual([lessonName('interval-and-min-pause'), 'Clicks counted exactly once', lessonName('task-local-recovery')]);
    // Something to keep: the driven demo runs to 5 s.
    const run = page.getByTestId('docs-drive-run');
    await expect.poll(() => run.isEnabled(), { timeout: 60_000 }).toBe(true);
    await run.click();
    await page.getByTestId('docs-drive-summary').waitFor({ timeout: 60_000 });
    const addresses = page.frames().map((f) => f.url());

    await page.getByTestId('locale-select').selectOption('zh-CN');
    await expect.poll(names, { timeout: 30_000 }).toEqual([lessonNameZh('interval-and-min-pause'), '按用户统计点击，精确一次', lessonNameZh('task-local-recovery')]);
    for (const section of ['docs-demo-iframe', 'docs-demo-element', 'docs-demo-driven']) {
      expect((await demo(section).getByTestId('run-button').textContent())?.replace('▶', '').trim(), section).toBe(zhCN['controls.run']);
    }
    // In place: no frame was reloaded, and the driven demo's run is where it was.
    expect(page.frames().map((f) => f.url())).toEqual(addresses);
    const driven = page.frames().find((f) => f.url().includes('task-local-recovery'))!;
    expect(await driven.evaluate(() => window.playground!.status().then((s) => s.time))).toBe(5000);
    // The code an author copies for a Chinese page names the language.
    await expect(page.locator('[data-testid="docs-demo-iframe"] pre').textContent()).resolves.toContain('&amp;lang=zh-CN');
    await expect(page.locator('[data-testid="docs-demo-element"] pre').textContent()).resolves.toContain('lang="zh-CN"');
    await expect(page.locator('[data-testid="docs-demo-driven"] pre').textContent()).resolves.toContain("playground.call('setLanguage', 'zh-CN')");
    await session.screenshot('docs-page-demos-zh-CN');

    await page.getByTestId('locale-select').selectOption('en');
    await expect.poll(names, { timeout: 30_000 }).toEqual([lessonName('interval-and-min-pause'), 'Clicks counted exactly once', lessonName('task-local-recovery')]);
  });

  it('writes the allowed origins into the share dialog’s iframe snippet, so a docs page on such an origin can drive the embed', async () => {
    const page = session.page;
    await page.goto(`${session.baseUrl}/`);
    await page.locator('[data-testid="job-graph"] [data-vertex-id]').first().waitFor({ timeout: 60_000 });
    await page.evaluate((yaml) => window.playground!.load(yaml), CHECKPOINTING_SCENARIO_YAML);
    await page.getByTestId('share-button').click();
    const origins = page.getByTestId('share-allowed-origins');
    const snippetSrc = async () => new URL(/src="([^"]+)"/.exec(await page.getByTestId('share-iframe').inputValue())![1]!);

    // Without origins the snippet lets no other page call it.
    expect((await snippetSrc()).searchParams.has('allowed-origins')).toBe(false);

    // A page address is not an origin: the dialog names the entry and the origin it stands for.
    await origins.fill(`${HOST} https://docs.example.org/guide/embed.html`);
    await expect(page.getByTestId('share-origins-problems').textContent()).resolves.toBe(
      formatMessage(en['share.origin.hasPath'], { entry: 'https://docs.example.org/guide/embed.html', origin: 'https://docs.example.org' }, 'en'),
    );
    expect((await snippetSrc()).searchParams.get('allowed-origins')).toBe(HOST);
    await session.screenshot('share-dialog-allowed-origins');

    await origins.fill(`${HOST}, https://docs.example.org/`);
    expect(await page.getByTestId('share-origins-problems').count()).toBe(0);
    const src = await snippetSrc();
    expect(src.searchParams.get('allowed-origins')).toBe(`${HOST},https://docs.example.org`);
    expect(src.hash).toMatch(/^#scenario=[\w-]+$/);
    await page.keyboard.press('Escape');

    // A docs page on HOST pastes the snippet's address and drives the playground.
    pastedEmbedUrl = src.href;
    await page.goto(`${HOST}/docs.html`);
    await page.waitForFunction(() => (window as unknown as { readyMessages: unknown[] }).readyMessages.length > 0, null, { timeout: 60_000 });
    const answer = await page.evaluate(() => (window as unknown as { call(m: string): Promise<{ ok: boolean; value: { scenario: { name: string } } }> }).call('status'));
    expect(answer).toMatchObject({ ok: true, value: { scenario: { name: 'Checkpointed word count' } } });
  });

  it('logs no errors', () => {
    expect(session.errors).toEqual([]);
  });
});

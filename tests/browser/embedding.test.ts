/**
 * Embedding (DESIGN.md contract 4) in real Chromium: a host page on another origin embeds the
 * playground in an iframe and drives it over postMessage (load, start, stats, events); a page on
 * an origin that is not allowed is refused and changes nothing; `<checkpoint-playground>` shows
 * a chosen part and offers the API as `element.playground`; a share link carries a scenario.
 *
 * The host pages come from two small HTTP servers of their own (embed-host-pages.ts), same-site
 * with the dev server, so the iframe keeps its storage.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../web/i18n/messages.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { hostPage, servePages } from './embed-host-pages.ts';
import { CHECKPOINTING_SCENARIO, CHECKPOINTING_SCENARIO_YAML } from './scenarios.ts';

interface Result {
  ok: boolean;
  value?: unknown;
  error?: string;
  refused?: boolean;
}

describe('embedding', () => {
  let session: BrowserSession;
  let embedBase: string;
  let HOST: string;
  let EVIL: string;
  const servers: Server[] = [];

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 800 } });
    embedBase = `${session.baseUrl}/embed.html`;
    const host = await servePages((path) => {
      if (path === '/host.html') return hostPage(`${embedBase}?view=graph&autostart=0&allowed-origins=${encodeURIComponent(HOST)}`);
      if (path === '/element.html') {
        return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Element page</title>
<script type="module" src="${session.baseUrl}/embed/checkpoint-playground-element.ts"></script></head>
<body><h1>Embedded with an element</h1>
<checkpoint-playground view="dashboard" scenario="word-count.yaml" autostart="false" height="700px"></checkpoint-playground></body></html>`;
      }
      return undefined;
    });
    // The attacker's page embeds the same playground, which only trusts HOST.
    const evil = await servePages(() => hostPage(`${embedBase}?view=graph&autostart=0&allowed-origins=${encodeURIComponent(HOST)}`));
    HOST = host.origin;
    EVIL = evil.origin;
    servers.push(host.server, evil.server);
  });

  afterAll(async () => {
    await session?.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it('takes Playground API calls over postMessage from an allowed origin: load, start, stats', async () => {
    const page = session.page;
    await page.goto(`${HOST}/host.html`);
    await page.waitForFunction(() => (window as unknown as { readyMessages: unknown[] }).readyMessages.length > 0, null, { timeout: 30_000 });
    const ready = await page.evaluate(() => (window as unknown as { readyMessages: { view: string; version: number }[] }).readyMessages[0]);
    expect(ready).toMatchObject({ version: 1, view: 'graph' });

    const call = (method: string, ...args: unknown[]) =>
      page.evaluate(([m, a]) => (window as unknown as { call(method: string, ...args: unknown[]): Promise<Result> }).call(m as string, ...(a as unknown[])), [method, args] as const);

    const loaded = await call('load', CHECKPOINTING_SCENARIO);
    expect(loaded).toMatchObject({ ok: true, value: { name: CHECKPOINTING_SCENARIO.name, seed: CHECKPOINTING_SCENARIO.seed } });
    const subscribed = await page.evaluate(() => (window as unknown as { send(r: object): Promise<Result> }).send({ type: 'subscribe', event: 'checkpoint-completed' }));
    expect(subscribed.ok).toBe(true);
    await call('setSpeed', 20);
    expect(await call('start')).toMatchObject({ ok: true });
    await expect
      .poll(async () => ((await call('status')).value as { time: number }).time, { timeout: 20_000 })
      .toBeGreaterThan(3000);
    await call('pause');
    const stats = await call('stats');
    expect(stats.ok).toBe(true);
    const document = stats.value as { scenario: { name: string; virtual_time_ms: number }; checkpoints: { counts: { completed: number } } };
    expect(document.scenario.name).toBe(CHECKPOINTING_SCENARIO.name);
    expect(document.scenario.virtual_time_ms).toBeGreaterThan(3000);
    expect(document.checkpoints.counts.completed).toBeGreaterThan(0);
    const events = await page.evaluate(() => (window as unknown as { events: { type: string }[] }).events);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.type === 'checkpoint-completed')).toBe(true);
    // A failing call comes back as an error with the API's message.
    const bad = await call('killTaskManager', 'tm-99');
    expect(bad).toMatchObject({ ok: false });
    expect(bad.error).toMatch(/tm-99/);
    // The embedded page shows the chosen part: the job graph, not the dashboard.
    const frame = page.frameLocator('#playground');
    // The layout runs in a worker: the graph appears once it is done.
    await frame.locator('[data-testid="job-graph"] [data-vertex-id]').first().waitFor();
    expect(await frame.locator('[data-testid="job-graph"]').count()).toBe(1);
    expect(await frame.locator('[data-testid="checkpoint-dashboard"], .dashboard').count()).toBe(0);
    await session.screenshot('embed-iframe-host');
  });

  it('refuses calls from an origin that is not allowed, and does nothing for them', async () => {
    const page = session.page;
    await page.goto(`${EVIL}/evil.html`);
    const frame = page.frames().find((f) => f.url().startsWith(embedBase))!;
    // The frame has posted its `ready` (to the allowed origin only) ...
    await frame.waitForFunction(() => performance.getEntriesByName('playground-ready-announced').length > 0);
    const call = (method: string, ...args: unknown[]) =>
      page.evaluate(([m, a]) => (window as unknown as { call(method: string, ...args: unknown[]): Promise<Result> }).call(m as string, ...(a as unknown[])), [method, args] as const);
    const refused = await call('load', CHECKPOINTING_SCENARIO);
    expect(refused).toMatchObject({ ok: false, refused: true });
    // ... and a reply the frame posted after it has arrived (messages from one window arrive in
    // order): no `ready` reached a page whose origin is not allowed.
    expect(await page.evaluate(() => (window as unknown as { readyMessages: unknown[] }).readyMessages.length)).toBe(0);
    expect(refused.error).toContain(EVIL);
    expect(await call('status')).toMatchObject({ ok: false, refused: true });
    // Inside the iframe nothing was loaded.
    const status = await frame.evaluate(() => window.playground!.status());
    expect(status.scenario).toBeNull();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await call('start');
    await expect.poll(() => warnings.some((w) => w.includes('refused'))).toBe(true);
  });

  it('shows the dashboard part through <checkpoint-playground> and offers the API as element.playground', async () => {
    const page = session.page;
    await page.goto(`${HOST}/element.html`);
    const result = await page.evaluate(async (yaml) => {
      await customElements.whenDefined('checkpoint-playground');
      const element = document.querySelector('checkpoint-playground')!;
      const api = element.playground;
      const ready = await api.ready;
      const loaded = (await api.load(yaml)) as { name: string };
      await api.runUntil('3 s');
      const stats = (await api.stats()) as { scenario: { name: string; virtual_time_ms: number } };
      let refusedMessage = '';
      try {
        await api.failTask('nope', 0);
      } catch (error) {
        refusedMessage = (error as Error).message;
      }
      return { ready, loaded: loaded.name, stats: stats.scenario, src: element.querySelector('iframe')!.src, failMessage: refusedMessage };
    }, CHECKPOINTING_SCENARIO_YAML);
    expect(result.ready.view).toBe('dashboard');
    expect(result.loaded).toBe('Checkpointed word count');
    expect(result.stats).toMatchObject({ name: 'Checkpointed word count', virtual_time_ms: 3000 });
    expect(result.failMessage).toMatch(/nope/);
    expect(new URL(result.src).searchParams.get('allowed-origins')).toBe(HOST);
    const frame = page.frameLocator('checkpoint-playground iframe');
    await expect(frame.locator('[data-testid="embed-bar"]').getAttribute('data-view')).resolves.toBe('dashboard');
    expect(await frame.locator('[data-testid="job-graph"]').count()).toBe(0);
    await frame.getByRole('tab', { name: en['checkpoints.tab.history'] }).waitFor();
    await session.screenshot('embed-element-dashboard');
  });

  it('carries a scenario in a share link, to the playground and to the embed page', async () => {
    const page = session.page;
    await page.goto(`${session.baseUrl}/`);
    await page.waitForLoadState('networkidle');
    await page.locator('[data-testid="job-graph"] [data-vertex-id]').first().waitFor();
    await page.evaluate((yaml) => window.playground!.load(yaml), CHECKPOINTING_SCENARIO_YAML);
    await page.getByTestId('share-button').click();
    const link = await page.getByTestId('share-link').inputValue();
    const iframe = await page.getByTestId('share-iframe').inputValue();
    expect(link).toMatch(/#scenario=[\w-]+$/);
    expect(iframe).toContain('/embed.html?view=graph#scenario=');
    await session.screenshot('share-dialog');
    await page.keyboard.press('Escape');

    const shared = await session.context.newPage();
    await shared.goto(link);
    await shared.locator('[data-testid="job-graph"] [data-vertex-id]').first().waitFor();
    await expect(shared.evaluate(() => window.playground!.status().then((s) => s.scenario?.name))).resolves.toBe('Checkpointed word count');
    const embedUrl = /src="([^"]+)"/.exec(iframe)![1]!;
    await shared.goto(embedUrl);
    await shared.locator('[data-testid="job-graph"] [data-vertex-id]').first().waitFor();
    await expect(shared.getByTestId('scenario-name').textContent()).resolves.toBe('Checkpointed word count');
    await shared.close();
  });

  it('logs no errors', () => {
    expect(session.errors).toEqual([]);
  });
});

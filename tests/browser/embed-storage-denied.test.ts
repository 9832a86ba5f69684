/**
 * A docs page on another site embeds the playground: Chromium denies storage (IndexedDB, OPFS,
 * Web Locks) to that third-party iframe, as it blocks third-party cookies. The host page is served
 * as `localhost`, the playground as `127.0.0.1`: two sites (embed-host-pages.ts). Where storage is
 * denied the page says so in one sentence, refuses the live runtime, and the sim runs on where it
 * was, its checkpoints in memory, without an error. A same-site embed keeps its storage.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { hostPage, servePages } from './embed-host-pages.ts';
import { CHECKPOINTING_SCENARIO } from './scenarios.ts';

interface Result {
  ok: boolean;
  value?: unknown;
  error?: string;
}

interface Status {
  driver: string;
  time: number;
  running: boolean;
  jobStatus: string;
}

describe('an embedded playground the browser denies storage', () => {
  let session: BrowserSession;
  let crossSite: string;
  let sameSite: string;
  const servers: Server[] = [];

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 900 } });
    const embedFor = (origin: string) =>
      `${session.baseUrl}/embed.html?view=all&autostart=0&scenario=word-count.yaml&allowed-origins=${encodeURIComponent(origin)}`;
    let crossSiteEmbed = '';
    let sameSiteEmbed = '';
    const other = await servePages((path) => (path === '/docs.html' ? hostPage(crossSiteEmbed) : undefined), 'localhost');
    const same = await servePages((path) => (path === '/docs.html' ? hostPage(sameSiteEmbed) : undefined), '127.0.0.1');
    crossSite = other.origin;
    sameSite = same.origin;
    crossSiteEmbed = embedFor(crossSite);
    sameSiteEmbed = embedFor(sameSite);
    servers.push(other.server, same.server);
  });

  afterAll(async () => {
    await session?.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  async function openDocsPage(origin: string) {
    const page = session.page;
    await page.goto(`${origin}/docs.html`);
    await page.waitForFunction(() => (window as unknown as { readyMessages: unknown[] }).readyMessages.length > 0, null, { timeout: 60_000 });
    const call = (method: string, ...args: unknown[]) =>
      page.evaluate(([m, a]) => (window as unknown as { call(method: string, ...args: unknown[]): Promise<Result> }).call(m as string, ...(a as unknown[])), [method, args] as const);
    const frame = page.frames().find((f) => f.url().startsWith(`${session.baseUrl}/embed.html`))!;
    const openDatabase = () =>
      frame.evaluate(
        () =>
          new Promise<string>((resolve) => {
            const request = indexedDB.open('storage-denied-test');
            request.onsuccess = () => (request.result.close(), resolve('opened'));
            request.onerror = (event) => (event.preventDefault(), resolve(`${request.error?.name}: ${request.error?.message}`));
          }),
      );
    return { page, call, frame, frameLocator: page.frameLocator('#playground'), openDatabase };
  }

  it('says so in one sentence, refuses live, and the sim runs on where it was with its checkpoints in memory', async () => {
    const { page, call, frameLocator, openDatabase } = await openDocsPage(crossSite);
    // The browser really denies it: the page's own IndexedDB request fails.
    expect(await openDatabase()).toMatch(/denied/i);

    expect(await call('load', CHECKPOINTING_SCENARIO)).toMatchObject({ ok: true });
    await call('setSpeed', 10);
    expect(await call('start')).toMatchObject({ ok: true });
    await expect.poll(async () => ((await call('status')).value as Status).time, { timeout: 30_000 }).toBeGreaterThan(2500);

    const before = (await call('status')).value as Status;
    const refused = await call('setDriver', 'live');
    expect(refused.ok).toBe(false);
    expect(refused.error).toContain('The live runtime cannot run here: the browser denies this page storage');
    const after = (await call('status')).value as Status;
    expect(after).toMatchObject({ driver: 'sim', running: true, jobStatus: 'RUNNING' });
    // Not restarted from 0: the run goes on from where it was.
    expect(after.time).toBeGreaterThanOrEqual(before.time);
    await expect.poll(async () => ((await call('status')).value as Status).time, { timeout: 30_000 }).toBeGreaterThan(after.time + 1000);

    // Checkpoints still complete, held in memory.
    const stats = (await call('stats')).value as { checkpoints: { counts: { completed: number; failed: number } } };
    expect(stats.checkpoints.counts.completed).toBeGreaterThan(1);
    expect(stats.checkpoints.counts.failed).toBe(0);

    const note = frameLocator.getByTestId('storage-denied');
    await expect(note.textContent().then((text) => text?.trim())).resolves.toBe(en['driver.storageDeniedEmbedded']);
    expect(await frameLocator.getByTestId('driver-live').isDisabled()).toBe(true);
    expect(await frameLocator.getByTestId('driver-sim').isChecked()).toBe(true);
    await session.screenshot('embed-storage-denied');

    // The sentence goes through the i18n layer: it follows the embedded page's language.
    await frameLocator.getByTestId('locale-select').selectOption('zh-CN');
    await expect.poll(() => note.textContent().then((text) => text?.trim())).toBe(zhCN['driver.storageDeniedEmbedded']);
    await session.screenshot('embed-storage-denied-zh-CN');
    await page.evaluate(() => (window as unknown as { call(m: string): Promise<unknown> }).call('pause'));
  });

  it('says nothing and offers live where the embedding page is of the same site', async () => {
    const { call, frameLocator, openDatabase } = await openDocsPage(sameSite);
    expect(await openDatabase()).toBe('opened');
    expect(((await call('status')).value as Status).driver).toBe('sim');
    expect(await frameLocator.getByTestId('storage-denied').count()).toBe(0);
    expect(await frameLocator.getByTestId('driver-live').isDisabled()).toBe(false);
  });

  it('logs no errors', () => {
    expect(session.errors).toEqual([]);
  });
});

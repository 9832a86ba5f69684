/**
 * Importing Flink statistics by URL from the page, in real Chromium, against two real HTTP servers
 * on other ports (other origins): one that sends no Access-Control-Allow-Origin (the page gets the
 * CORS message and the curl line to use instead) and one that allows any origin, as Flink's REST
 * API does by default (the response is imported and shown in the Gantt tab). Also: a URL that is not http(s), and an HTTP error status.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

const FLINK_115_SAMPLE = readFileSync('/work/shared/flink-samples/01-checkpoints-flink-kubernetes-operator-flink115-history10.json', 'utf8');
const CHECKPOINTS_PATH = '/jobs/a1b2c3d4e5f6/checkpoints';

/** Serves the sample at CHECKPOINTS_PATH (404 elsewhere), with or without a CORS header. */
async function flinkLikeServer(allowOrigin: string | null): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (allowOrigin !== null) headers['Access-Control-Allow-Origin'] = allowOrigin;
    if (request.url !== CHECKPOINTS_PATH) {
      response.writeHead(404, headers).end('{"errors":["Not found: /jobs/none"]}');
      return;
    }
    response.writeHead(200, headers).end(FLINK_115_SAMPLE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const tab = (page: Page) => page.getByTestId('gantt-tab');
const panel = (page: Page) => tab(page).getByTestId('flink-import');

async function fetchUrl(page: Page, url: string): Promise<void> {
  await panel(page).evaluate((details) => ((details as HTMLDetailsElement).open = true));
  await panel(page).getByTestId('flink-import-url').fill(url);
  await panel(page).getByTestId('flink-import-fetch').click();
}

describe('importing Flink statistics by URL', () => {
  let session: BrowserSession;
  let refusing: { server: Server; base: string };
  let allowing: { server: Server; base: string };

  beforeAll(async () => {
    refusing = await flinkLikeServer(null);
    allowing = await flinkLikeServer('*');
    session = await openPlaygroundSession();
    const page = session.page;
    await page.evaluate(async (scenario) => {
      await window.playground!.load(scenario);
      await window.playground!.runUntil(3_000);
    }, readFileSync('public/scenarios/word-count.yaml', 'utf8'));
    await page.getByTestId('checkpoint-dashboard').getByRole('tab', { name: en['checkpoints.tab.gantt'], exact: true }).click();
  });

  afterAll(async () => {
    await session?.close();
    refusing?.server.close();
    allowing?.server.close();
  });

  it('says CORS refused it and gives the curl line when the server sends no Access-Control-Allow-Origin', async () => {
    const page = session.page;
    const url = `${refusing.base}${CHECKPOINTS_PATH}`;
    await fetchUrl(page, url);
    await expect.poll(() => panel(page).getByTestId('flink-import-refused').textContent()).toContain('CORS');
    expect(await panel(page).getByTestId('flink-import-refused').textContent()).toContain(url);
    expect(await panel(page).getByTestId('flink-import-curl').textContent()).toBe(`curl -sS -o flink-response.json '${url}'`);
    expect(await tab(page).getAttribute('data-source')).toBe('run');

    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => panel(page).getByTestId('flink-import-refused').textContent()).toContain('浏览器无法读取');
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    // Chromium reports the refusal on the console itself; nothing else may be there
    expect(session.errors.filter((e) => !/CORS|Failed to fetch|ERR_FAILED/.test(e))).toEqual([]);
  });

  it('names the field and what is allowed for a URL that is not http(s), and the status for an error response', async () => {
    const page = session.page;
    await fetchUrl(page, 'file:///etc/passwd');
    await expect.poll(() => panel(page).getByTestId('flink-import-refused').textContent()).toContain('URL: “file:///etc/passwd” is not an http:// or https:// address');
    expect(await panel(page).getByTestId('flink-import-curl').count()).toBe(0);

    await fetchUrl(page, `${allowing.base}/jobs/none/checkpoints`);
    await expect.poll(() => panel(page).getByTestId('flink-import-refused').textContent()).toContain('HTTP 404');
    expect(await panel(page).getByTestId('flink-import-curl').textContent()).toContain(`${allowing.base}/jobs/none/checkpoints`);
  });

  it('imports the response of a server that allows any origin and shows it in the Gantt tab', async () => {
    const page = session.page;
    await fetchUrl(page, `${allowing.base}${CHECKPOINTS_PATH}`);
    await expect.poll(() => tab(page).getAttribute('data-source')).toBe('imported');
    expect(await panel(page).getByTestId('flink-import-refused').count()).toBe(0);
    expect(await panel(page).getByTestId('flink-import-loaded').textContent()).toContain('1.15');
    expect(await tab(page).getByTestId('gantt-strip').locator('rect[data-checkpoint-id]').count()).toBe(10);
    expect(await tab(page).getByTestId('gantt-strip').locator('rect[data-outlier="true"]').getAttribute('data-checkpoint-id')).toBe('90');
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => tab(page).textContent()).toContain(zhCN['gantt.source.imported']);
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
  });
});

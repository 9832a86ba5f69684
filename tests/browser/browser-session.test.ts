/**
 * Browser sessions in a vitest run open their pages on the run's one app dev server
 * (tests/support/shared-app-dev-server.ts), each in a Chromium profile of its own: a session's
 * close leaves the server to the next session, and what one session's page stores another's
 * does not see.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';

/** A static file of the app's: the origin's storage without booting the playground. */
const STATIC_PAGE = '/scenarios/index.json';

const opened: BrowserSession[] = [];
afterEach(async () => {
  for (const session of opened.splice(0)) await session.close();
});

async function open(): Promise<BrowserSession> {
  const session = await openBrowserSession();
  opened.push(session);
  return session;
}

describe('openBrowserSession in a vitest run', () => {
  it('opens pages on the run’s shared dev server, which outlives a closed session', async () => {
    const shared = inject('appDevServerUrl');
    expect(shared).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const first = await open();
    expect(first.baseUrl).toBe(shared);
    await first.close();
    const second = await open();
    expect(second.baseUrl).toBe(shared);
    const response = await second.page.goto(`${second.baseUrl}${STATIC_PAGE}`);
    expect(response?.status()).toBe(200);
  });

  it('gives each session a profile of its own: storage one page writes, the next session’s page does not see', async () => {
    const writer = await open();
    await writer.page.goto(`${writer.baseUrl}${STATIC_PAGE}`);
    await writer.page.evaluate(() => localStorage.setItem('browser-session-probe', 'written'));
    expect(await writer.page.evaluate(() => localStorage.getItem('browser-session-probe'))).toBe('written');
    const reader = await open();
    await reader.page.goto(`${reader.baseUrl}${STATIC_PAGE}`);
    expect(await reader.page.evaluate(() => localStorage.getItem('browser-session-probe'))).toBeNull();
  });
});

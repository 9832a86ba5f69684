/**
 * A real-Chromium session for browser tests that run in vitest's node environment.
 *
 * `openBrowserSession()` uses the vitest run's app dev server (tests/support/shared-app-dev-server.ts)
 * or, outside vitest (`npm run bench`), starts one on 127.0.0.1 (a free port); it launches the
 * system Chromium through playwright-core with a fresh persistent profile (a non-persistent,
 * incognito context makes OPFS ~30x slower; see the toolchain notes), and records every console
 * error and uncaught page error so a test can assert there were none.
 *
 *   const session = await openBrowserSession();
 *   await session.page.goto(session.baseUrl);
 *   ...
 *   expect(session.errors).toEqual([]);
 *   await session.screenshot('playground-en');   // test-artifacts/screenshots/playground-en.png
 *   await session.close();
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from './chromium-path.ts';
import { CHROMIUM_ARGS, startAppDevServer } from '../../node/app-dev-server.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-artifacts', 'screenshots');

export { CHROMIUM_ARGS } from '../../node/app-dev-server.ts';

export interface BrowserSessionOptions {
  /** Default 1280×800. */
  viewport?: { width: number; height: number };
  /** `navigator.language` in the page. Default 'en-US', so tests do not depend on the machine. */
  locale?: string;
  /** `prefers-color-scheme`. Default 'light'. */
  colorScheme?: 'light' | 'dark';
}

export interface BrowserSession {
  /** The first page of the context. */
  readonly page: Page;
  readonly context: BrowserContext;
  /** `http://127.0.0.1:<port>` of the dev server, no trailing slash. */
  readonly baseUrl: string;
  /** Console errors and uncaught page errors, in order. Tests assert this stays empty. */
  readonly errors: string[];
  /** Svelte's dev-mode warnings (`[svelte] …` on the console), in order. */
  readonly svelteWarnings: string[];
  /** Saves a PNG of `page` (default: the session's page) to test-artifacts/screenshots/<name>.png; returns the path. */
  screenshot(name: string, options?: { page?: Page; fullPage?: boolean }): Promise<string>;
  /** Closes the browser, deletes the profile directory and stops the dev server if the session started it. Safe to call twice. */
  close(): Promise<void>;
}


function attachErrorCollector(page: Page, errors: string[], svelteWarnings: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'warning' && message.text().includes('[svelte]')) svelteWarnings.push(message.text());
    if (message.type() !== 'error') return;
    const { url, lineNumber } = message.location();
    errors.push(`console.error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
  });
  page.on('pageerror', (error) => {
    errors.push(`pageerror: ${error.stack ?? error.message}`);
  });
}

/** The app dev server a session opens pages on, and how the session lets go of it. */
interface SessionDevServer {
  baseUrl: string;
  release(): Promise<void>;
}

/** The run's shared server when vitest provides one; otherwise a server of the session's own. */
async function sessionDevServer(): Promise<SessionDevServer> {
  const shared = await sharedAppDevServerUrl();
  if (shared !== undefined) return { baseUrl: shared, release: async () => {} };
  // vite loads only here: a test file on the shared server does not pay for importing it.
  const { createServer } = await import('vite');
  const { server, baseUrl } = await startAppDevServer(createServer, 'warn');
  return { baseUrl, release: () => server.close() };
}

/** Benches and scripts import this module outside vitest, where `inject` has no run to ask. */
async function sharedAppDevServerUrl(): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject('appDevServerUrl');
}

export async function openBrowserSession(options: BrowserSessionOptions = {}): Promise<BrowserSession> {
  const executablePath = findChromium();
  const server = await sessionDevServer();
  const baseUrl = server.baseUrl;
  let profileDir: string | undefined;
  let context: BrowserContext | undefined;
  try {
    profileDir = await mkdtemp(join(tmpdir(), 'ckpt-playground-chromium-'));
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: options.viewport ?? { width: 1280, height: 800 },
      locale: options.locale ?? 'en-US',
      colorScheme: options.colorScheme ?? 'light',
    });
  } catch (error) {
    await context?.close().catch(() => {});
    if (profileDir) await rm(profileDir, { recursive: true, force: true });
    await server.release();
    throw error;
  }

  const errors: string[] = [];
  const svelteWarnings: string[] = [];
  for (const existing of context.pages()) attachErrorCollector(existing, errors, svelteWarnings);
  // Pages opened later (popups, new tabs, newPage()) report into the same list.
  context.on('page', (opened) => attachErrorCollector(opened, errors, svelteWarnings));
  const page = context.pages()[0] ?? (await context.newPage());

  const openContext = context;
  const openProfileDir = profileDir;
  let closed = false;
  return {
    page,
    context: openContext,
    baseUrl,
    errors,
    svelteWarnings,
    async screenshot(name, { page: target = page, fullPage = false } = {}) {
      await mkdir(SCREENSHOT_DIR, { recursive: true });
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await target.screenshot({ path, fullPage });
      return path;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await openContext.close();
      } finally {
        await rm(openProfileDir, { recursive: true, force: true });
        await server.release();
      }
    },
  };
}

/** A session on the playground page (`path`: with a query, e.g. `/?driver=live`), once `window.playground` (the Playground API) is there. */
export async function openPlaygroundSession(options: BrowserSessionOptions = {}, path = '/'): Promise<BrowserSession> {
  const session = await openBrowserSession(options);
  await session.page.goto(`${session.baseUrl}${path}`);
  await session.page.waitForFunction(() => window.playground !== undefined);
  return session;
}

/**
 * The app as users get it, for the bench: `vite build` into dist/, served by `vite preview`, and
 * opened in headless Chromium with a fresh profile (an empty cache: a first visit).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { CHROMIUM_ARGS, REPO_ROOT } from '../browser/browser-session.ts';
import { findChromium } from '../browser/chromium-path.ts';

/**
 * Builds the app into dist/ as `npm run build` does and serves it on a free port; the caller
 * closes the server. The build runs in its own process: a dev server started earlier in this one
 * (another bench) sets NODE_ENV=development, which would make a development build.
 */
export async function buildAndServe(): Promise<{ server: PreviewServer; baseUrl: string }> {
  const configFile = join(REPO_ROOT, 'vite.config.ts');
  const { NODE_ENV: _, ...env } = process.env;
  execFileSync(join(REPO_ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const server = await preview({ configFile, root: join(REPO_ROOT, 'web'), logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: true } });
  const address = server.httpServer.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${address.port}` };
}

/** A page in a new Chromium with a new profile; `errors` collects uncaught page errors. */
export async function openFreshPage(): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'ckpt-bench-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    page,
    errors,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Adds `script` to run in every document before its own scripts. tsx compiles the bench with
 * esbuild's keepNames, which wraps inner functions in a `__name(…)` helper the page lacks.
 */
export async function addPageScript(page: Page, script: () => void): Promise<void> {
  await page.addInitScript({ content: `globalThis.__name ??= (f) => f;\n(${script.toString()})();` });
}

/** Runs in the page: every main-thread task over 50 ms, as [start, duration] (ms since navigation start). */
export function observeLongTasks(): void {
  const tasks: Array<[number, number]> = [];
  (globalThis as unknown as { __longTasks: typeof tasks }).__longTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
}

/** The long tasks `observeLongTasks` saw from `since` (page ms) on. */
export async function longTasksSince(page: Page, since: number): Promise<Array<[number, number]>> {
  const all = await page.evaluate(() => (globalThis as unknown as { __longTasks?: Array<[number, number]> }).__longTasks ?? []);
  return all.filter(([start]) => start >= since);
}

/**
 * One app dev server for every browser test file of a vitest run (a `globalSetup` of the browser
 * project in vite.config.ts). A server per file cost each file a Vite start and a cold first page
 * (~5 s of module transforms against ~2 s on a warm server), ~70 times a run. Files still get a
 * fresh Chromium profile each (`openBrowserSession`), so nothing a page stores leaks between them.
 *
 * The URL reaches the test files through vitest's provide/inject; outside vitest (`npm run bench`,
 * `ckpt-lab check --live`) a session or the CLI starts a server of its own, as before.
 */
import type { TestProject } from 'vitest/node';
import { createServer, type ViteDevServer } from 'vite';
import { startAppDevServer } from '../../node/app-dev-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the run's app dev server, no trailing slash. */
    appDevServerUrl: string;
  }
}

/** The scripts of the pages browser tests open (web/index.html, live/live-test.html, embed.html). */
const PAGE_ENTRIES = ['/main.ts', '/live/live-test.ts', '/embed/embed-main.ts'];

/**
 * Transforms the pages' static module graphs before the first test, and lets the dependency
 * optimizer commit its cache (in a clean clone it has none yet): a server started meanwhile by a
 * Node test or `check --live` then finds the cache written instead of racing to write it.
 */
async function warmUp(server: ViteDevServer): Promise<void> {
  await Promise.all(PAGE_ENTRIES.map((url) => server.warmupRequest(url)));
  await server.waitForRequestsIdle();
}

export default async function startSharedAppDevServer(project: TestProject): Promise<() => Promise<void>> {
  const { server, baseUrl } = await startAppDevServer(createServer, 'warn');
  try {
    await warmUp(server);
  } catch (error) {
    await server.close();
    throw error;
  }
  project.provide('appDevServerUrl', baseUrl);
  return () => server.close();
}

/**
 * The app's Vite dev server on 127.0.0.1 (a free port), and the Chromium flags, for whatever
 * opens the app in headless Chromium from Node: the browser tests and `ckpt-lab check --live`.
 * `createServer` is passed in: the CLI imports vite only when a live check runs.
 */
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { createServer as viteCreateServer, LogLevel, ViteDevServer } from 'vite';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Quiet, no GPU, no background traffic, no sandbox (CI runs as root): the toolchain probe's flags.
 * No `--disable-features` here: Chromium reads only the last one, and playwright-core passes its
 * own (ThirdPartyStoragePartitioning among them, which tests/browser/embed-storage-denied relies on).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function startAppDevServer(createServer: typeof viteCreateServer, logLevel: LogLevel): Promise<{ server: ViteDevServer; baseUrl: string }> {
  const server = await createServer({
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    // The config's relative `root: 'web'` would resolve against the cwd; pin it to the repo.
    root: join(REPO_ROOT, 'web'),
    logLevel,
    clearScreen: false,
    server: { host: '127.0.0.1', port: 0, strictPort: true },
  });
  await server.listen();
  const address = server.httpServer?.address() as AddressInfo | null;
  if (!address || typeof address === 'string') {
    await server.close();
    throw new Error('The Vite dev server did not report a TCP address.');
  }
  return { server, baseUrl: `http://127.0.0.1:${address.port}` };
}

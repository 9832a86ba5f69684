/**
 * The page's simulator with `state.backend.type: rocksdb`: the LSM backend on real wa-sqlite
 * (loaded in Chromium from the bundled wasm), incremental checkpoints, and a TaskManager kill
 * restored from shared runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { PlaygroundApi } from '../../web/playground/playground-api-types.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

describe('the rocksdb backend in the page', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession();
    await session.page.goto(`${session.baseUrl}/`);
    await session.page.waitForFunction(() => window.playground !== undefined);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('runs the incremental-checkpoints scenario on wa-sqlite and restores after the kill', async () => {
    const yaml = readFileSync('public/scenarios/incremental-checkpoints.yaml', 'utf8');
    const stats = await session.page.evaluate(async (text) => {
      const p = window.playground!;
      await p.load(text);
      await p.runUntil('15 s');
      return p.stats();
    }, yaml);
    const history = stats.checkpoints.history as Array<{ status: string; checkpointed_size: number; state_size: number }>;
    expect(stats.job.status).toBe('FINISHED');
    expect(stats.restores.length).toBe(1);
    expect(history.filter((h) => h.status === 'COMPLETED').some((h) => h.checkpointed_size < h.state_size)).toBe(true);
    expect(session.errors).toEqual([]);
  }, 120_000);
});

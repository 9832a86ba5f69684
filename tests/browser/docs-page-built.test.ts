/**
 * The docs page as `npm run build` emits it (dist/docs/index.html), served by `vite preview`: its
 * three demos load the built playground. The element's embed.html address is resolved at run time
 * from the built module's own address (a literal `new URL('../embed.html', import.meta.url)` made
 * Vite emit a hashed copy of embed.html's source as an asset, and the element framed a 404).
 */
import type { PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndServe, openFreshPage } from '../bench/built-app.ts';

describe('the built docs page', () => {
  let server: PreviewServer;
  let baseUrl: string;

  beforeAll(async () => {
    ({ server, baseUrl } = await buildAndServe());
  }, 300_000);

  afterAll(async () => {
    await server?.close();
  });

  it('is served at /docs/ and its three demos, the element included, load the built embed page', async () => {
    const { page, errors, close } = await openFreshPage();
    try {
      const failed: string[] = [];
      page.on('response', (response) => response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`));
      await page.goto(`${baseUrl}/docs/`);
      const scenarioNames = () =>
        Promise.all(
          page
            .frames()
            .filter((frame) => frame !== page.mainFrame())
            .map((frame) => frame.evaluate(() => window.playground?.status().then((s) => s.scenario?.name ?? null) ?? null).catch(() => null)),
        );
      await expect
        .poll(async () => (await scenarioNames()).sort(), { timeout: 90_000, interval: 500 })
        .toEqual(['Clicks counted exactly once', 'Interval shorter than the checkpoint', 'Task-local recovery']);
      const framePaths = page.frames().slice(1).map((frame) => new URL(frame.url()).pathname);
      expect(framePaths).toEqual(['/embed.html', '/embed.html', '/embed.html']);
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);
});

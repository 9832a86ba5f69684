/**
 * Waits until the page has drawn `count` more animation frames: a condition on the page's own
 * rendering loop (the sim's clock advances and the channel layer redraws once per frame), so a
 * test that checks nothing moved gives the page that many chances to move, without a sleep.
 */
import type { Frame, Page } from 'playwright-core';

export async function animationFrames(page: Page | Frame, count: number): Promise<void> {
  await page.evaluate(
    (n) =>
      new Promise<void>((resolve) => {
        let left = n;
        const next = () => (--left <= 0 ? resolve() : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
    count,
  );
}

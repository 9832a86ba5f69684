import { wallNow } from './job-clock.ts';
import type { JobClock } from './protocol.ts';

/** Wall ms a sleep waits at most before it looks at the job clock's speed again. */
const SPEED_CHECK_MS = 50;

/**
 * Sleeps `jobMs` of job time (a modelled storage cost) on the wall clock, following the speed as
 * it changes: the page's pause holds the job clock at a crawl, and a sleep begun during the pause
 * must not go on crawling after it (nor one begun before it rush through the pause). Between two
 * looks the speed is taken as constant.
 */
export async function sleepJobTime(jobMs: number, clock: () => JobClock): Promise<void> {
  let remaining = jobMs;
  while (remaining > 1e-6) {
    const speed = clock().speed;
    const start = wallNow();
    await new Promise((resolve) => setTimeout(resolve, Math.min(remaining / speed, SPEED_CHECK_MS)));
    remaining -= (wallNow() - start) * speed;
  }
}

/**
 * The channel view in the live driver, in real Chromium: the subtasks run in TaskManager Web
 * Workers, which send snapshots of their channel queues to the page about ten times a second;
 * the view draws them as it draws the sim's queues. Data buffers fill the queues of a slowed
 * operator (backpressure), a triggered checkpoint's barriers travel with the data and block the
 * inputs they arrive on while aligning, and unaligned barriers overtake the queues and mark the
 * in-flight data they persist. Screenshots land in test-artifacts/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationFrames } from './animation-frames.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { twoWideSlow } from './channel-scenarios.ts';
import { channelCounts, clickChannelItem, openPlayground, type ChannelCounts } from './channel-view-helpers.ts';

/**
 * Two sources into two keyed counters that keep up (20 µs a record) until slowed; checkpoints
 * only when the test triggers one, so nothing else puts barriers in the queues.
 */
function triggeredOnly(options: { unaligned?: boolean }) {
  const scenario = twoWideSlow(options);
  const vertices = scenario.job.vertices.map((v) => (v.id === 'agg' ? { ...v, record_cost_us: 20 } : v));
  return { ...scenario, job: { ...scenario.job, vertices }, config: { ...scenario.config, 'execution.checkpointing.interval': '10 min' } };
}

/** Slows the counters 100×: 2 ms a record, far below the sources' rate, so their inputs back up. */
async function slowCounters(session: BrowserSession): Promise<void> {
  await session.page.evaluate(() => window.playground!.slowOperator('agg', 100));
}

async function startLive(session: BrowserSession, scenario: object): Promise<void> {
  await session.page.evaluate(async (s) => {
    await window.playground!.load(s);
    await window.playground!.setDriver('live');
    await window.playground!.start();
  }, scenario);
}

/** The largest value of `key` the channel layer shows over `samples` polls, six drawn frames apart (the queues move between them). */
async function peak(session: BrowserSession, key: keyof ChannelCounts, samples: number): Promise<number> {
  let best = 0;
  for (let i = 0; i < samples; i++) {
    best = Math.max(best, (await channelCounts(session))[key]);
    await animationFrames(session.page, 6);
  }
  return best;
}

/** One of the layer's counts now; when no barrier is queued anywhere, a checkpoint is triggered (one at a time: a refused trigger is fine). */
async function countDuringCheckpoints(session: BrowserSession, key: keyof ChannelCounts): Promise<number> {
  const counts = await channelCounts(session);
  if (counts.barriers === 0) await session.page.evaluate(() => window.playground!.triggerCheckpoint().catch(() => undefined));
  return counts[key];
}

describe('channel view in the live driver', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 800 } });
    await openPlayground(session);
  });

  afterAll(async () => {
    await session?.page.evaluate(() => window.playground!.setDriver('sim')).catch(() => undefined);
    await session?.close();
  });

  it('draws the data buffers queued in the TaskManager workers, and fills the queues of a slowed operator', async () => {
    await startLive(session, triggeredOnly({}));
    await expect.poll(() => peak(session, 'buffers', 5), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await peak(session, 'barriers', 5)).toBe(0);
    const before = await peak(session, 'buffers', 10);
    await slowCounters(session);
    // Backpressure: the slowed counters' inputs and their senders' backlogs fill up to their credit.
    await expect.poll(async () => (await channelCounts(session)).buffers, { timeout: 30_000 }).toBeGreaterThan(Math.max(16, 2 * before));
    await session.page.locator('.graph-panel').scrollIntoViewIfNeeded();
    await session.screenshot('channels-live-backpressure');
    // A queued buffer in the inspector: its records counted, the first of them shown (they stay in the worker).
    const records = session.page.getByTestId('inspector').getByTestId('inspect-records');
    // Paused, the queues stand still for the click (running, a buffer read between locating it and
    // the click moves the queue under the pointer: ten such misses in a row on a loaded machine).
    let inspected = false;
    for (let round = 0; round < 10 && !inspected; round++) {
      await session.page.evaluate(() => window.playground!.pause());
      await animationFrames(session.page, 10);
      await clickChannelItem(session, 'data').catch(() => undefined);
      inspected = Number((await records.textContent({ timeout: 2_000 }).catch(() => '0')) ?? '0') > 0;
      if (!inspected) await session.page.evaluate(() => window.playground!.start());
    }
    expect(inspected).toBe(true);
    await expect(session.page.getByTestId('inspector').getByTestId('inspect-first-record').textContent()).resolves.toMatch(/\S/);
    await session.page.evaluate(() => window.playground!.start());
  }, 90_000);

  it('shows a triggered checkpoint barrier travelling with the data and the inputs it blocks while aligning', async () => {
    await session.page.evaluate(() => window.playground!.triggerCheckpoint());
    await expect.poll(async () => (await channelCounts(session)).barriers, { timeout: 30_000 }).toBeGreaterThan(0);
    expect((await channelCounts(session)).priorityBarriers).toBe(0);
    // An input stays blocked from its barrier until the other input's barrier is read: often
    // shorter than the ~100 ms between two snapshots, so checkpoints go on until one is caught.
    await expect.poll(() => countDuringCheckpoints(session, 'blocked'), { timeout: 60_000 }).toBeGreaterThan(0);
    // Paused (the job clock held), the queues stand still for the click and the inspector; a
    // barrier read meanwhile is replaced by the next checkpoint's.
    const page = session.page;
    const inspector = page.getByTestId('inspector');
    // A snapshot sent just before the pause may still move the queues under the pointer: the
    // click counts once the inspector shows what was aimed at.
    const inspectedKind = () => inspector.getByTestId('inspect-buffer').getAttribute('data-buffer-kind', { timeout: 2_000 }).catch(() => null);
    let clicked = false;
    for (let round = 0; round < 20 && !clicked; round++) {
      await expect.poll(() => countDuringCheckpoints(session, 'barriers'), { timeout: 30_000 }).toBeGreaterThan(0);
      await page.evaluate(() => window.playground!.pause());
      // The layer drew the held queues (and any snapshot that was on its way).
      await animationFrames(page, 10);
      clicked = await clickChannelItem(session, 'barrier').then(async () => (await inspectedKind()) === 'barrier', () => false);
      if (!clicked) await page.evaluate(() => window.playground!.start());
    }
    expect(clicked).toBe(true);
    await expect(inspector.getByTestId('inspect-buffer').getAttribute('data-buffer-kind')).resolves.toBe('barrier');
    await expect(inspector.getByTestId('inspect-where').getAttribute('data-side')).resolves.toMatch(/sender|receiver/);
    await session.screenshot('channels-live-aligned');
    // A live run's past cannot be replayed: the timeline offers no time travel.
    expect(await page.getByTestId('time-travel').count()).toBe(0);
  }, 120_000);

  it('shows unaligned barriers overtaking the queues and the in-flight data they persist', async () => {
    await expect(session.page.getByTestId('inspector').getAttribute('data-kind')).resolves.toBe('buffer');
    await startLive(session, triggeredOnly({ unaligned: true }));
    // The barrier inspected in the run before belongs to that run: the inspector lets go of it.
    await expect.poll(() => session.page.getByTestId('inspector').count(), { timeout: 10_000 }).toBe(0);
    await slowCounters(session);
    await expect.poll(async () => (await channelCounts(session)).buffers, { timeout: 30_000 }).toBeGreaterThan(16);
    // A priority barrier is read as soon as its subtask polls again: a checkpoint whose barriers
    // all went between two snapshots is followed by another one.
    await expect.poll(() => countDuringCheckpoints(session, 'priorityBarriers'), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => countDuringCheckpoints(session, 'persisted'), { timeout: 60_000 }).toBeGreaterThan(0);
    await session.screenshot('channels-live-unaligned');
    expect(session.errors).toEqual([]);
  }, 90_000);
});

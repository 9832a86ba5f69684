/**
 * The charts over time (uPlot): one sample per simulated second for throughput and
 * backpressure, one point per completed checkpoint, one per restore, with local and remote
 * restore durations as the run's own `restores` report them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDuration } from '../../web/dashboard/flink-format.ts';
import { en } from '../../web/i18n/messages.ts';
import { formatMessage } from '../../web/i18n/message-format.ts';
import { openBrowserSession, REPO_ROOT, type BrowserSession } from './browser-session.ts';
import { loadAndRunUntil, openPlayground } from './channel-view-helpers.ts';

async function scenarioText(file: string): Promise<string> {
  return readFile(join(REPO_ROOT, 'public', 'scenarios', file), 'utf8');
}

async function points(session: BrowserSession, testId: string): Promise<number> {
  return Number(await session.page.getByTestId(testId).getAttribute('data-points'));
}

describe('metrics charts', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 800 } });
    await openPlayground(session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('samples throughput and backpressure once per simulated second', async () => {
    await loadAndRunUntil(session, await scenarioText('local-recovery.yaml'), 10_000);
    await expect.poll(() => points(session, 'chart-throughput')).toBe(10);
    expect(await points(session, 'chart-backpressure')).toBe(10);
    // The hashmap backend has no RocksDB to chart.
    expect(await session.page.getByTestId('chart-rocksdb').count()).toBe(0);
    expect(await session.page.getByTestId('chart-block-cache').count()).toBe(0);
    // uPlot draws into a canvas inside each chart
    expect(await session.page.getByTestId('chart-throughput').locator('canvas').count()).toBe(1);
  });

  it("samples the sources' pendingRecords once per simulated second, as the run's metrics report it", async () => {
    expect(await points(session, 'chart-backlog')).toBe(10);
    const stats = await session.page.evaluate(() => window.playground!.stats());
    const pending = Object.values(stats.metrics.vertices).reduce((n, v) => n + (v.pendingRecords ?? 0), 0);
    const summary = await session.page.getByTestId('chart-backlog').locator('.visually-hidden').textContent();
    expect(summary).toContain(`${pending.toLocaleString('en-US')} records were available to the sources`);
  });

  it('plots one point per completed checkpoint and one per restore, local against remote', async () => {
    const page = session.page;
    const stats = await page.evaluate(() => window.playground!.stats());
    const completedCheckpoints = Object.values(stats.checkpointDetails).filter((d) => d.status === 'COMPLETED' && !d.is_savepoint).length;
    expect(await points(session, 'chart-duration')).toBe(completedCheckpoints);
    expect(await points(session, 'chart-size')).toBe(completedCheckpoints);
    expect(await points(session, 'chart-alignment')).toBe(completedCheckpoints);
    expect(stats.restores.length).toBe(2);
    expect(await points(session, 'chart-restore')).toBe(2);
    // The last restore (host-1 lost): host-0's subtasks read local copies, host-1's read remote storage.
    const last = stats.restores.at(-1)!;
    const slowest = (source: 'local' | 'remote') => Math.max(...last.subtasks.filter((s) => s.source === source && s.bytes > 0).map((s) => s.durationMs));
    const summary = await page.getByTestId('chart-restore').locator('.visually-hidden').textContent();
    expect(summary).toContain(formatDuration(slowest('local')));
    expect(summary).toContain(formatDuration(slowest('remote')));
    expect(slowest('local')).toBeLessThan(slowest('remote'));
    await page.getByTestId('charts').scrollIntoViewIfNeeded();
    await session.screenshot('charts-local-recovery');
  });

  it("says in the dashboard's latest restore when the sources caught up, as stats() reports it", async () => {
    const page = session.page;
    const last = (await page.evaluate(() => window.playground!.stats())).restores.at(-1)!;
    const expected =
      last.catchUpMs === null ? en['checkpoints.restore.notCaughtUp'] : en['checkpoints.restore.caughtUp'].replace('{duration}', formatDuration(last.catchUpMs));
    await expect.poll(() => page.getByTestId('latest-restore-catch-up').textContent()).toContain(expected);
  });

  it('shows incremental checkpoints writing less than their full size', async () => {
    const page = session.page;
    await loadAndRunUntil(session, await scenarioText('incremental-checkpoints.yaml'), 6000);
    const stats = await page.evaluate(() => window.playground!.stats());
    const completed = Object.values(stats.checkpointDetails).filter((d) => d.status === 'COMPLETED');
    expect(completed.some((d) => d.checkpointed_size < d.state_size)).toBe(true);
    expect(await points(session, 'chart-size')).toBe(completed.length);
    // The rocksdb backend: its flushes, compactions and write stalls, one sample per simulated second.
    await expect.poll(() => points(session, 'chart-rocksdb')).toBe(6);
    await expect(page.getByTestId('chart-rocksdb').locator('.visually-hidden').textContent()).resolves.toMatch(/flushes, .* compactions, .* write stalls/);
    // Its block cache misses, on a chart of their own (thousands a second where flushes are a few).
    expect(await points(session, 'chart-block-cache')).toBe(6);
    await expect(page.getByTestId('chart-block-cache').locator('.visually-hidden').textContent()).resolves.toMatch(/^Last second: [\d,]+ block cache misses\.$/);
    await page.getByTestId('charts').scrollIntoViewIfNeeded();
    await session.screenshot('charts-incremental');
  });

  it('labels the y-axis with distinct whole figures, an all-zero chart too (not "1, 1, 0")', async () => {
    // Just loaded: every chart is empty; after 3 s the restore chart still has no point.
    for (const until of [0, 3000]) {
      await loadAndRunUntil(session, await scenarioText('local-recovery.yaml'), until);
      await expectDistinctTicks(['chart-throughput', 'chart-backpressure', 'chart-duration', 'chart-size', 'chart-alignment', 'chart-restore']);
    }
  });

  async function expectDistinctTicks(charts: string[]): Promise<void> {
    for (const chart of charts) {
      await expect.poll(() => session.page.getByTestId(chart).locator('.plot').getAttribute('data-y-ticks')).toBeTruthy();
      const ticks = (await session.page.getByTestId(chart).locator('.plot').getAttribute('data-y-ticks'))!.split('|');
      expect(new Set(ticks).size, `${chart}: ${ticks.join(', ')}`).toBe(ticks.length);
    }
  }

  it('marks on the backlog chart the failure and when the sources caught up, with the catch-up time stats() reports', async () => {
    const page = session.page;
    // Lesson 10's scenario (about 10 % spare capacity) with tm-1 killed at 4 s.
    const lesson = await readFile(join(REPO_ROOT, 'public', 'lessons', 'capacity-planning.yaml'), 'utf8');
    await loadAndRunUntil(session, `${lesson}\nfaults:\n  - { at: 4 s, type: kill-task-manager, task_manager: tm-1 }\n`, 45_000);
    const [restore] = (await page.evaluate(() => window.playground!.stats())).restores;
    expect(restore!.catchUpMs).toBeGreaterThan(20_000);
    const seconds = (restore!.catchUpMs! / 1000).toFixed(1);
    const labels = page.getByTestId('chart-backlog').getByTestId('chart-span-label');
    await expect.poll(() => labels.allTextContents()).toEqual([en['charts.mark.failure'], formatMessage(en['charts.mark.catchUp'], { seconds }, 'en')]);
    expect(await labels.evaluateAll((spans) => spans.map((s) => [Number((s as HTMLElement).dataset.from), Number((s as HTMLElement).dataset.to)]))).toEqual([
      [4, restore!.time / 1000],
      [restore!.time / 1000, (restore!.time + restore!.catchUpMs!) / 1000],
    ]);
    // Each label stands inside the plot, at its span's start: left of its line once past the plot's middle.
    const placed = await labels.evaluateAll((spans) =>
      spans.map((s) => {
        const plot = s.closest('.u-over')!.getBoundingClientRect();
        const box = s.getBoundingClientRect();
        const at = plot.left + parseFloat((s as HTMLElement).style.left);
        return { inside: box.left >= plot.left - 1 && box.right <= plot.right + 1, hangsLeft: Math.abs(box.right - at) <= 1, startsAt: Math.abs(box.left - at) <= 1, pastMiddle: at > plot.left + plot.width / 2 };
      }),
    );
    for (const p of placed) expect(p).toEqual({ inside: true, hangsLeft: p.pastMiddle, startsAt: !p.pastMiddle, pastMiddle: p.pastMiddle });
    const summary = await page.getByTestId('chart-backlog').locator('.visually-hidden').textContent();
    expect(summary).toContain(formatMessage(en['charts.summary.caughtUp'], { failed: '4.0', restored: (restore!.time / 1000).toFixed(1), seconds }, 'en'));
    await page.getByTestId('chart-backlog').scrollIntoViewIfNeeded();
    await session.screenshot('charts-backlog-catch-up');
  });

  it('logs no errors', () => {
    expect(session.errors).toEqual([]);
  });
});

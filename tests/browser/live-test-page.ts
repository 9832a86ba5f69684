/**
 * Helpers for browser tests of the live runtime's test page (web/live/live-test.html): open it in
 * real Chromium, start a scenario on Web Worker TaskManagers, read the page's status, wait for a
 * condition on it, and compare the sink's output with a failure-free sim run (the oracle).
 */
import type { JobEvent } from '../../engine/run/job-events.ts';
import type { LiveTestStatus, OutputAgainstSim, StorageCheck } from '../../web/live/live-test.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { keyedCountsJob } from './scenarios.ts';

export async function openLiveTestPage(): Promise<BrowserSession> {
  const session = await openBrowserSession();
  await session.page.goto(`${session.baseUrl}/live/live-test.html`);
  await session.page.waitForFunction(() => window.liveTest !== undefined);
  return session;
}

export async function closeLiveTestPage(session: BrowserSession | undefined): Promise<void> {
  await session?.page.evaluate(() => window.liveTest?.dispose()).catch(() => {});
  await session?.close();
}

/** Starts `scenario` on the page; heartbeats run at 1/20 of the configured times unless `heartbeatScale` says otherwise. */
export async function startLive(session: BrowserSession, scenario: object, options: { heartbeatScale?: number; speed?: number } = {}): Promise<void> {
  await session.page.evaluate(([s, o]) => window.liveTest!.start(s, o).then(() => undefined), [scenario, { heartbeatScale: 1 / 20, ...options }] as const);
}

export function liveStatus(session: BrowserSession): Promise<LiveTestStatus> {
  return session.page.evaluate(() => window.liveTest!.status());
}

/** Waits until `predicate` (an expression over the page's status `s`) holds; returns that status. */
export async function waitForLive(session: BrowserSession, predicate: string, timeout = 60_000): Promise<LiveTestStatus> {
  await session.page.waitForFunction(`(() => { const s = window.liveTest.status(); return ${predicate}; })()`, null, { timeout, polling: 50 });
  return liveStatus(session);
}

/**
 * Plays the rest of the input at `speed` job ms per wall-clock ms: once a test's faults are past,
 * the job reaches its end sooner, and nothing it is asked at the end depends on the pace.
 */
export async function playRestFast(session: BrowserSession, speed = 5): Promise<void> {
  const problem = await session.page.evaluate((factor) => window.liveDriver!.setSpeed(factor), speed);
  if (problem !== undefined) throw new Error(`setSpeed(${speed}): ${problem}`);
}

export function compareLiveWithSim(session: BrowserSession): Promise<OutputAgainstSim> {
  return session.page.evaluate(() => window.liveTest!.compareWithSim());
}

export function checkLiveStorage(session: BrowserSession, settleMs = 500): Promise<StorageCheck> {
  return session.page.evaluate((ms) => window.liveTest!.checkStorage(ms), settleMs);
}

export function eventsOfType<T extends JobEvent['type']>(events: JobEvent[], type: T): Extract<JobEvent, { type: T }>[] {
  return events.filter((e): e is Extract<JobEvent, { type: T }> => e.type === type);
}

/**
 * Keyed counts with a two-phase-commit sink on four single-slot TaskManagers over two hosts, with
 * task-local recovery; heartbeats of 2 s / 20 s (100 ms / 1 s on the wall clock at 1/20).
 */
export function keyedCounts(overrides: { name: string; count?: number; rate?: number; parallelism?: number; config?: Record<string, unknown>; sinkEdge?: 'forward' | 'hash' }): object {
  return {
    version: 1,
    name: overrides.name,
    seed: 5,
    job: keyedCountsJob({ keys: 24, rate: overrides.rate ?? 2000, count: overrides.count ?? 16_000 }, overrides.sinkEdge),
    config: {
      'parallelism.default': overrides.parallelism ?? 4,
      'execution.checkpointing.interval': '400 ms',
      'execution.checkpointing.min-pause': '100 ms',
      'execution.state-recovery.from-local': true,
      'heartbeat.interval': '2 s',
      'heartbeat.timeout': '20 s',
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 5,
      'restart-strategy.fixed-delay.delay': '200 ms',
      ...overrides.config,
    },
    cluster: { hosts: 2, task_managers_per_host: 2, slots_per_task_manager: 1 },
  };
}

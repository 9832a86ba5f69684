/**
 * The live soak, in real Chromium: keyed counts with a two-phase-commit sink on four single-slot
 * TaskManagers over two hosts (rocksdb working databases in OPFS, task-local copies on the hosts'
 * disks in IndexedDB, checkpoints in IndexedDB), under a seeded series of random faults — kills,
 * stalls, a host loss, failing and slow remote storage — each once the job runs again and made
 * progress. Then the faults stop, the rest of the input plays fast, and the run is judged:
 *
 * - every invariant checker (engine/run/invariants) against a failure-free sim run, exactly-once
 *   included (`liveTest.checkInvariants`), and the sink's output per key (`compareWithSim`);
 * - nothing leaks: the leak checker over the job's IndexedDB directory, and once the run is
 *   disposed none of its IndexedDB databases (checkpoints, host disks) or OPFS files are left;
 * - the page stays responsive: every main-thread task over 50 ms (PerformanceObserver `longtask`)
 *   during the run is recorded, the longest must stay under 200 ms;
 * - no leak in the page's JS heap: after garbage collection (CDP `HeapProfiler.collectGarbage`,
 *   `Runtime.getHeapUsage`), the heap once the soak run is disposed is within 20% of the heap once
 *   a warm-up run (every fault kind once) is disposed.
 *
 * `tests/browser/live-soak.test.ts` runs a short soak in `npm test`; `npm run soak:live` the full
 * one (tests/browser/live-soak-run.ts). Both take their seed from CHAOS_SEED, as every seeded test.
 */
import type { CDPSession } from 'playwright-core';
import type { InvariantViolation } from '../../engine/run/invariants/invariant-checker.ts';
import { RandomSource } from '../../engine/sim/random-source.ts';
import type { LiveTestStatus, OutputAgainstSim, StorageCheck } from '../../web/live/live-test.ts';
import type { BrowserSession } from './browser-session.ts';
import { checkLiveStorage, compareLiveWithSim, keyedCounts, liveStatus, playRestFast, startLive, waitForLive } from './live-test-page.ts';

/** The soak's faults: what a learner can break in the live cluster (kinds as the scenario format names them). */
export const LIVE_SOAK_FAULT_KINDS = ['kill-task-manager', 'stall-task-manager', 'lose-host', 'fail-remote-storage', 'slow-remote-storage'] as const;
type LiveSoakFaultKind = (typeof LIVE_SOAK_FAULT_KINDS)[number];

/** How often each kind is drawn; lose-host only while both hosts are up (the last host has nowhere to move its TaskManagers). */
const FAULT_WEIGHTS: Record<LiveSoakFaultKind, number> = { 'kill-task-manager': 4, 'stall-task-manager': 3, 'lose-host': 1, 'fail-remote-storage': 2, 'slow-remote-storage': 2 };
/** Kinds that fail the job over: the next fault waits for the restart. */
const FAILOVER_KINDS: ReadonlySet<string> = new Set(['kill-task-manager', 'stall-task-manager', 'lose-host']);

/** The budgets the run is held to. */
export const LONGEST_TASK_BUDGET_MS = 200;
export const HEAP_GROWTH_BUDGET = 0.2;

/**
 * Input per planned fault, in job seconds at speed 1: enough for every fault on a machine so
 * loaded that a fault and its restart take several seconds (the input must not end before the
 * last fault); a low rate keeps the records few.
 */
const INPUT_S_PER_FAULT = 12;
const RATE_PER_S = 200;
/** Job time per wall-clock second once the faults are done, so the rest of the input does not take minutes. */
const FINISH_SPEED = 25;
/** How long one wait for the job may take (a restart, a checkpoint), in wall ms. */
const WAIT_MS = 30_000;

export interface LiveSoakOptions {
  seed: number;
  faults: number;
  /** progress lines (the full soak prints them) */
  log?: (line: string) => void;
}

export interface LiveSoakFigures {
  seed: number;
  /** faults carried out, by kind; heals and the end of a slowdown apart */
  injected: Record<string, number>;
  /** faults the JobMaster refused when asked (with its reason), by kind */
  refused: Record<string, number>;
  /** heal-remote-storage, and slow-remote-storage back to ×1 */
  recoveries: Record<string, number>;
  restarts: number;
  completedCheckpoints: number;
  failedCheckpoints: number;
  violations: InvariantViolation[];
  output: OutputAgainstSim;
  /** the leak checker over the job's IndexedDB directory once it FINISHED */
  storage: StorageCheck;
  /** the run's IndexedDB databases and OPFS files left once it was disposed, and what went wrong deleting them */
  leftAfterDispose: { databases: string[]; opfsFiles: string[]; problems: string[] };
  /** workers created and not terminated once the run was disposed */
  workersLeft: number;
  longTasks: { count: number; longestMs: number; overBudget: number };
  /** after garbage collection: the bytes once the warm-up run and once the soak run were disposed; whether the soak run's LiveDriver was collected */
  heap: { afterWarmUpBytes: number; atEndBytes: number; growth: number; disposedDriverCollected: boolean };
  wallMs: number;
  errors: string[];
}

/** A scenario long enough for `faults` faults: heartbeats of 1 s / 10 s (50 ms / 500 ms on the wall clock at 1/20). */
function soakScenario(name: string, inputSeconds: number, attempts: number): object {
  return keyedCounts({
    name,
    rate: RATE_PER_S,
    count: RATE_PER_S * inputSeconds,
    config: {
      'state.backend.type': 'rocksdb',
      'execution.checkpointing.incremental': true,
      'execution.checkpointing.interval': '300 ms',
      'execution.checkpointing.min-pause': '50 ms',
      'execution.checkpointing.tolerable-failed-checkpoints': 100_000,
      'heartbeat.interval': '1 s',
      'heartbeat.timeout': '10 s',
      'restart-strategy.fixed-delay.attempts': attempts,
      'restart-strategy.fixed-delay.delay': '100 ms',
    },
  });
}

/**
 * Runs the soak on a live test page (openLiveTestPage); the page is left without a run. A warm-up
 * run first, with every fault kind once, judged and disposed the same way: the page has loaded,
 * compiled and cached all the soak uses before the heap is measured.
 */
export async function runLiveSoak(session: BrowserSession, options: LiveSoakOptions): Promise<LiveSoakFigures> {
  const started = performance.now();
  const cdp = await session.context.newCDPSession(session.page);
  await soakRun(session, { seed: options.seed + 1, faults: LIVE_SOAK_FAULT_KINDS.length, everyKindOnce: true });
  const afterWarmUpBytes = await heapAfterGc(cdp);
  const run = await soakRun(session, options);
  const atEndBytes = await heapAfterGc(cdp);
  const disposedDriverCollected = await session.page.evaluate(() => window.__disposedDriver?.deref() === undefined);
  await cdp.detach();
  return {
    ...run,
    heap: { afterWarmUpBytes, atEndBytes, growth: atEndBytes / afterWarmUpBytes - 1, disposedDriverCollected },
    wallMs: Math.round(performance.now() - started),
    errors: [...session.errors],
  };
}

/** One run under faults, to its end, judged, and disposed. */
async function soakRun(session: BrowserSession, options: LiveSoakOptions & { everyKindOnce?: boolean }): Promise<Omit<LiveSoakFigures, 'heap' | 'wallMs' | 'errors'>> {
  await session.page.evaluate(observeLongTasks);
  // A restart that fails (remote storage failing during a restore) uses an attempt too.
  await startLive(session, soakScenario(options.everyKindOnce ? 'Live soak warm-up' : 'Live soak', options.faults * INPUT_S_PER_FAULT, 50 * options.faults + 100));
  const schedule = await injectFaults(session, options);
  const livenessFrom = (await liveStatus(session)).time;
  await playRestFast(session, FINISH_SPEED);
  const end = await waitForEnd(session);
  const longTasks = await session.page.evaluate(takeLongTasks);

  const violations = await session.page.evaluate((from) => window.liveTest!.checkInvariants(from), livenessFrom);
  const output = await compareLiveWithSim(session);
  const storage = await checkLiveStorage(session);
  const leftAfterDispose = await disposeRun(session);
  const workersLeft = await session.page.evaluate(() => window.liveTest!.workersAlive());
  return {
    seed: options.seed,
    ...schedule,
    restarts: end.restarts,
    completedCheckpoints: end.completedCheckpoints,
    failedCheckpoints: end.failedCheckpoints,
    violations,
    output,
    storage,
    leftAfterDispose,
    workersLeft,
    longTasks: { count: longTasks.length, longestMs: Math.max(0, ...longTasks), overBudget: longTasks.filter((d) => d > LONGEST_TASK_BUDGET_MS).length },
  };
}

/** What broke, in words (empty when the soak held): the test asserts it empty, the full soak prints it. */
export function liveSoakProblems(f: LiveSoakFigures): string[] {
  const problems = f.violations.map((v) => `invariant ${v.invariant}${v.time === null ? '' : ` at ${v.time} ms`}: ${v.message}`);
  const { output } = f;
  if (output.liveStatus !== 'FINISHED') problems.push(`the job ended ${output.liveStatus}, not FINISHED`);
  if (output.duplicates !== 0 || output.missing !== 0 || output.differingKeys.length > 0 || output.liveRecords !== output.simRecords) {
    problems.push(`the sink's output differs from the failure-free run: ${output.duplicates} duplicates, ${output.missing} missing, keys ${output.differingKeys.join(' ')}`);
  }
  const { orphaned, missing, unreadable, files } = f.storage;
  if (orphaned.length + missing.length + unreadable.length + files.length > 0) problems.push(`IndexedDB checkpoint storage at the end: ${JSON.stringify({ orphaned, missing, unreadable, files })}`);
  if (f.leftAfterDispose.databases.length > 0) problems.push(`IndexedDB databases left: ${f.leftAfterDispose.databases.join(' ')}`);
  if (f.leftAfterDispose.opfsFiles.length > 0) problems.push(`OPFS files left: ${f.leftAfterDispose.opfsFiles.join(' ')}`);
  for (const problem of f.leftAfterDispose.problems) problems.push(`after dispose: ${problem}`);
  if (f.workersLeft !== 0) problems.push(`${f.workersLeft} TaskManager workers still alive`);
  if (f.longTasks.overBudget > 0) problems.push(`${f.longTasks.overBudget} main-thread tasks over ${LONGEST_TASK_BUDGET_MS} ms (longest ${f.longTasks.longestMs} ms)`);
  if (f.heap.growth > HEAP_GROWTH_BUDGET) problems.push(`JS heap grew ${(100 * f.heap.growth).toFixed(1)}% (${f.heap.afterWarmUpBytes} → ${f.heap.atEndBytes} bytes)${f.heap.disposedDriverCollected ? '' : ': the disposed run\'s LiveDriver is still reachable'}`);
  if (f.errors.length > 0) problems.push(`page errors: ${f.errors.join('\n')}`);
  return problems;
}

interface Schedule {
  injected: Record<string, number>;
  refused: Record<string, number>;
  recoveries: Record<string, number>;
}

/** The remote store as the soak left it: failing, or slowed (after how many more faults it heals). */
interface RemoteStorageState {
  failingFor?: number;
  slowFor?: number;
}

async function injectFaults(session: BrowserSession, { seed, faults, log, everyKindOnce }: LiveSoakOptions & { everyKindOnce?: boolean }): Promise<Schedule> {
  const random = new RandomSource(seed);
  const schedule: Schedule = { injected: {}, refused: {}, recoveries: {} };
  const remote: RemoteStorageState = {};
  let hostLost = false;
  const done: string[] = [];
  for (let k = 0; k < faults; k++) {
    const before = await waitUntilProgress(session, remote.failingFor !== undefined);
    await new Promise((r) => setTimeout(r, random.nextInt(50, 400)));
    const now = await liveStatus(session);
    if (now.jobStatus !== 'RUNNING') throw new Error(`the job is ${now.jobStatus} before fault ${k + 1} of ${faults}; faults so far: ${done.join(', ')}; last events:\n${lastEvents(now)}`);
    const kind = everyKindOnce ? LIVE_SOAK_FAULT_KINDS[k % LIVE_SOAK_FAULT_KINDS.length]! : pickKind(random, hostLost);
    const problem = await inject(session, random, kind, now);
    count(problem === undefined ? schedule.injected : schedule.refused, kind);
    if (problem === undefined && kind === 'lose-host') hostLost = true;
    if (problem === undefined && kind === 'fail-remote-storage') remote.failingFor = random.nextInt(0, 2);
    if (problem === undefined && kind === 'slow-remote-storage') remote.slowFor = random.nextInt(1, 3);
    if (problem === undefined && FAILOVER_KINDS.has(kind)) {
      await waitNamed(session, `the restart after ${kind}`, `s.attempt > ${now.attempt} || s.jobStatus !== 'RUNNING'`);
      // The restore reads `_metadata` from remote storage: a failing store heals now, or the job restarts until it does.
      if (remote.failingFor !== undefined) remote.failingFor = 0;
    }
    await recoverRemoteStorage(session, remote, schedule, false);
    done.push(`${kind}${problem === undefined ? '' : ' (refused)'} at ${now.time} ms`);
    log?.(`fault ${k + 1}/${faults}: ${kind}${problem === undefined ? '' : ` refused (${problem})`} at ${(now.time / 1000).toFixed(1)} s (attempt ${before.attempt}, ${before.completedCheckpoints} checkpoints)`);
  }
  await recoverRemoteStorage(session, remote, schedule, true);
  return schedule;
}

/** How long the job may take to end once the faults stopped, in wall ms. */
const END_WAIT_MS = 10 * 60_000;

/** The job FINISHED or FAILED; if it does not within END_WAIT_MS, an error that says where it stands (a liveness bug to find). */
function waitForEnd(session: BrowserSession): Promise<LiveTestStatus> {
  return waitNamed(session, 'the job to end after its faults', `s.jobStatus === 'FINISHED' || s.jobStatus === 'FAILED'`, END_WAIT_MS);
}

/** The status's last dozen job events, one per line (cut to 300 characters each). */
function lastEvents(s: LiveTestStatus): string {
  return s.events.slice(-12).map((e) => JSON.stringify(e).slice(0, 300)).join('\n');
}

/** Running, and (unless remote storage fails, so nothing can complete) a checkpoint completed since it was last asked. */
async function waitUntilProgress(session: BrowserSession, storageFailing: boolean): Promise<LiveTestStatus> {
  const running = await waitNamed(session, 'the job to run again', `s.jobStatus === 'RUNNING' || s.jobStatus === 'FINISHED' || s.jobStatus === 'FAILED'`);
  if (storageFailing || running.jobStatus !== 'RUNNING') return running;
  return waitNamed(session, 'a checkpoint to complete', `s.jobStatus !== 'RUNNING' || s.completedCheckpoints > ${running.completedCheckpoints}`);
}

/** waitForLive for at most `timeoutMs`; if it times out, an error naming what it waited for, where the job stands and its last events. */
async function waitNamed(session: BrowserSession, what: string, predicate: string, timeoutMs = WAIT_MS): Promise<LiveTestStatus> {
  try {
    return await waitForLive(session, predicate, timeoutMs);
  } catch (error) {
    const s = await liveStatus(session);
    throw new Error(
      `waited ${timeoutMs / 1000} s of wall time for ${what} (${predicate}): ${s.jobStatus} at ${s.time} ms, attempt ${s.attempt}, ` +
        `${s.completedCheckpoints} checkpoints completed, ${s.failedCheckpoints} failed, ${s.sinkRecords} sink records, ` +
        `TaskManagers ${s.taskManagers.map((t) => t.id).join(' ')}; last events:\n${lastEvents(s)}\n(${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
}

function pickKind(random: RandomSource, hostLost: boolean): LiveSoakFaultKind {
  const kinds = LIVE_SOAK_FAULT_KINDS.filter((k) => !(k === 'lose-host' && hostLost));
  let x = random.nextInt(1, kinds.reduce((n, k) => n + FAULT_WEIGHTS[k], 0));
  for (const kind of kinds) if ((x -= FAULT_WEIGHTS[kind]) <= 0) return kind;
  return kinds[0]!;
}

/** Asks the live driver for one fault; its refusal, if it refused. */
function inject(session: BrowserSession, random: RandomSource, kind: LiveSoakFaultKind, now: LiveTestStatus): Promise<string | undefined> {
  const taskManager = now.taskManagers[random.nextInt(0, now.taskManagers.length - 1)]!.id;
  const host = `host-${random.nextInt(0, 1)}`;
  const factor = random.nextInt(2, 10);
  return session.page.evaluate(
    ([k, tm, h, f]) => {
      const driver = window.liveDriver!;
      if (k === 'kill-task-manager') return driver.killTaskManager(tm);
      if (k === 'stall-task-manager') return driver.stallTaskManager(tm);
      if (k === 'lose-host') return driver.loseHost(h);
      if (k === 'fail-remote-storage') return driver.failRemoteStorage(true);
      return driver.slowRemoteStorage(f);
    },
    [kind, taskManager, host, factor] as const,
  );
}

/** Heals a failing store and ends a slowdown once their faults ran out (or at the end, `all`). */
async function recoverRemoteStorage(session: BrowserSession, remote: RemoteStorageState, schedule: Schedule, all: boolean): Promise<void> {
  if (remote.failingFor !== undefined && (all || remote.failingFor-- <= 0)) {
    expectNoProblem(await session.page.evaluate(() => window.liveDriver!.failRemoteStorage(false)), 'heal-remote-storage');
    count(schedule.recoveries, 'heal-remote-storage');
    delete remote.failingFor;
  }
  if (remote.slowFor !== undefined && (all || remote.slowFor-- <= 0)) {
    expectNoProblem(await session.page.evaluate(() => window.liveDriver!.slowRemoteStorage(1)), 'slow-remote-storage ×1');
    count(schedule.recoveries, 'slow-remote-storage ×1');
    delete remote.slowFor;
  }
}

/** How long a disposed run may take to let go of its storage and have its database deleted, in wall ms. */
const RELEASE_MS = 10_000;

/**
 * Disposes the run and waits until the page says it let go of the run's storage and deleted its
 * database (at most RELEASE_MS); what is left then, and what went wrong on the way.
 */
async function disposeRun(session: BrowserSession): Promise<LiveSoakFigures['leftAfterDispose']> {
  const database = await session.page.evaluate(() => window.liveDriver!.checkpointStorageSpec.databaseName);
  const problems = await session.page.evaluate((ms) => {
    window.__disposedDriver = new WeakRef(window.liveDriver!);
    window.liveTest!.dispose();
    // What is left after the wait is the verdict, with the wait's end named among the problems.
    const late = new Promise<string[]>((resolve) => setTimeout(() => resolve([`the run had not let go of its storage ${ms} ms after dispose`]), ms));
    return Promise.race([window.liveTest!.disposed(), late]);
  }, RELEASE_MS);
  return { ...(await session.page.evaluate((db) => window.liveTest!.storageLeft(db), database)), problems };
}

/** Bytes of the page's JS heap after a full garbage collection. */
async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

declare global {
  interface Window {
    __longTasks?: number[];
    __longTaskObserver?: PerformanceObserver;
    /** the LiveDriver of the run disposed last: a leak keeps it reachable */
    __disposedDriver?: WeakRef<object>;
  }
}

/** In the page: records every main-thread task over 50 ms from now on. */
function observeLongTasks(): void {
  window.__longTasks = [];
  window.__longTaskObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks!.push(Math.round(entry.duration));
  });
  window.__longTaskObserver.observe({ type: 'longtask' });
}

/** In the page: stops recording long tasks; their durations. */
function takeLongTasks(): number[] {
  window.__longTaskObserver?.disconnect();
  return window.__longTasks ?? [];
}

function expectNoProblem(problem: string | undefined, what: string): void {
  if (problem !== undefined) throw new Error(`${what}: ${problem}`);
}

function count(into: Record<string, number>, kind: string): void {
  into[kind] = (into[kind] ?? 0) + 1;
}

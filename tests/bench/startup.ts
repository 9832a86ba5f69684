/**
 * Startup of the built app, as a first visit sees it: `vite build`, `dist/` served by `vite
 * preview`, opened in headless Chromium with a fresh profile (empty cache) each round. From
 * navigation start (performance.timeOrigin):
 * - interactive: the run (or, once auto-started, the pause) button is enabled and
 *   `window.playground.status()` has answered;
 * - first checkpoint: the first `checkpoint-completed` event of what the first page runs: lesson 1
 *   (`interval-and-min-pause`, opened by the bare address, running, periodic checkpoints every
 *   1 s). A default without periodic checkpoints would get one through `triggerCheckpoint()` as
 *   soon as the page is interactive (what a learner's first click would do), and the figure says
 *   so. The hook is on the API, not on a scenario: it counts whichever scenario the page runs
 *   first; the lesson opens after the scenario list arrived, so its fetch is inside the figure.
 * Also: main-thread long tasks (> 50 ms, PerformanceObserver 'longtask') up to the first
 * checkpoint, and the size of what the page loads first against what it loads later (no wasm).
 *
 *   npx tsx tests/bench/run.ts --only startup,long-tasks
 *   STARTUP_TRACE=1 npm run bench -- --only startup      # and where the time goes (one traced round more)
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from '../browser/browser-session.ts';
import { addPageScript, openFreshPage } from './built-app.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { median } from './median.ts';
import { startTrace, stopTrace, type LongTaskBreakdown } from './long-task-trace.ts';

/**
 * STARTUP_TRACE=1 adds where the main thread's time went up to the first checkpoint (a Chromium
 * trace of the first round: long tasks by kind, top scripts), which slows that round down.
 */
const TRACE = process.env.STARTUP_TRACE === '1';

const ROUNDS = 5;
const DIST = join(REPO_ROOT, 'dist');

/** What the page records about itself (installed before any of its scripts runs). */
interface StartupMarks {
  interactive?: number;
  firstCheckpoint?: number;
  triggered: boolean;
  longTasks: Array<{ start: number; duration: number }>;
}

declare global {
  interface Window {
    __startup?: StartupMarks;
  }
}

/** Runs in the page before its own scripts: hooks `window.playground` the moment main.ts sets it. */
function recordStartup(): void {
  const marks: StartupMarks = { triggered: false, longTasks: [] };
  window.__startup = marks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) marks.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  let api: Window['playground'];
  Object.defineProperty(window, 'playground', {
    configurable: true,
    get: () => api,
    set(value: NonNullable<Window['playground']>) {
      api = value;
      value.on('checkpoint-completed', () => (marks.firstCheckpoint ??= performance.now()));
    },
  });
  const usable = () => document.querySelector('[data-testid="run-button"]:not([disabled]), [data-testid="pause-button"]:not([disabled])') !== null;
  const poll = () => {
    if (!api || !usable()) return void requestAnimationFrame(poll);
    void api.status().then(() => {
      marks.interactive = performance.now();
      // Only a first page without periodic checkpoints needs a trigger; asking stats() sooner would
      // itself cost the page a long task (it catches the failure-free reference run up), so ask
      // only if no checkpoint completed within 3 s.
      setTimeout(() => void triggerIfNoPeriodicCheckpoints(), 3000);
    });
  };
  const triggerIfNoPeriodicCheckpoints = async () => {
    if (marks.firstCheckpoint !== undefined) return;
    const stats = await api!.stats();
    const interval = stats.checkpointConfig?.interval ?? Number.MAX_SAFE_INTEGER;
    // Flink reports Long.MAX_VALUE as the interval when periodic checkpoints are off.
    if (interval >= Number.MAX_SAFE_INTEGER && marks.firstCheckpoint === undefined) {
      marks.triggered = true;
      await api!.triggerCheckpoint();
    }
  };
  requestAnimationFrame(poll);
}

interface StartupRound {
  interactiveMs: number;
  firstCheckpointMs: number;
  triggered: boolean;
  longTasks: number;
  longestTaskMs: number;
  trace?: LongTaskBreakdown;
}

async function measureRound(baseUrl: string, traced = false): Promise<StartupRound> {
  const { page, errors, close } = await openFreshPage();
  try {
    await addPageScript(page, recordStartup);
    const trace = traced ? await startTrace(page) : undefined;
    await page.goto(baseUrl);
    await page.waitForFunction(() => window.__startup?.firstCheckpoint !== undefined, undefined, { timeout: 120_000 });
    const breakdown = trace ? { trace: await stopTrace(trace) } : {};
    if (errors.length > 0) throw new Error(`the built app threw while starting: ${errors.join('\n')}`);
    const marks = (await page.evaluate(() => window.__startup))!;
    return {
      interactiveMs: Math.round(marks.interactive!),
      firstCheckpointMs: Math.round(marks.firstCheckpoint!),
      triggered: marks.triggered,
      longTasks: marks.longTasks.length,
      longestTaskMs: Math.round(Math.max(0, ...marks.longTasks.map((t) => t.duration))),
      ...breakdown,
    };
  } finally {
    await close();
  }
}

interface ChunkSizes {
  raw: number;
  gzip: number;
  files: string[];
}

/** The JS and CSS index.html loads (its script, module preloads and style sheets) against every other JS and CSS file in dist/. */
async function bundleSizes(): Promise<{ initial: ChunkSizes; lazy: ChunkSizes }> {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const initialFiles = new Set([...html.matchAll(/(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]!));
  const all = (await readdir(join(DIST, 'assets'))).filter((f) => /\.(js|css)$/.test(f)).map((f) => `assets/${f}`);
  all.push('checkpoint-playground-element.js');
  const sizes = async (files: string[]): Promise<ChunkSizes> => {
    let raw = 0;
    let gzip = 0;
    for (const file of files) {
      const bytes = await readFile(join(DIST, file));
      raw += (await stat(join(DIST, file))).size;
      gzip += gzipSync(bytes).length;
    }
    return { raw, gzip, files: files.sort() };
  };
  return { initial: await sizes([...initialFiles]), lazy: await sizes(all.filter((f) => !initialFiles.has(f))) };
}

/** Startup figures of the app built into dist/ and served at `baseUrl` (built-app.ts). */
export async function benchStartup(baseUrl: string): Promise<BenchFigure[]> {
  const rounds: StartupRound[] = [];
  // the traced round is one more, apart: tracing slows it, so its figures are not among the rounds'
  const traced = TRACE ? { trace: (await measureRound(baseUrl, true)).trace } : {};
  for (let round = 0; round < ROUNDS; round++) rounds.push(await measureRound(baseUrl));
  const { initial, lazy } = await bundleSizes();
  const kB = (bytes: number) => Math.round(bytes / 102.4) / 10;
  const how = rounds[0]!.triggered ? 'the default scenario has no periodic checkpoints: one triggered through the API at interactive' : 'the default scenario’s first periodic checkpoint';
  return [
    { figure: 'startup.interactive_ms', value: median(rounds.map((r) => r.interactiveMs)), unit: 'ms', repetitions: ROUNDS, rounds: rounds.map((r) => r.interactiveMs), aim: '<= 3000', note: 'median of fresh-profile loads of the built app, from navigation start' },
    { figure: 'startup.first_checkpoint_ms', value: median(rounds.map((r) => r.firstCheckpointMs)), unit: 'ms', repetitions: ROUNDS, rounds: rounds.map((r) => r.firstCheckpointMs), aim: '<= 3000', note: how },
    { figure: 'startup.long_tasks', value: median(rounds.map((r) => r.longTasks)), unit: 'tasks > 50 ms', repetitions: ROUNDS, longest_ms: Math.max(...rounds.map((r) => r.longestTaskMs)), note: 'main thread, navigation start to first checkpoint', ...traced },
    { figure: 'bundle.initial_kb', value: kB(initial.raw), unit: 'kB', deterministic: true, gzip_kb: kB(initial.gzip), files: initial.files, note: 'JS and CSS index.html loads, no wasm' },
    { figure: 'bundle.lazy_kb', value: kB(lazy.raw), unit: 'kB', deterministic: true, gzip_kb: kB(lazy.gzip), files: lazy.files, note: 'JS and CSS loaded on demand or by other pages (embed, live test, workers incl. ELK’s), no wasm' },
  ];
}

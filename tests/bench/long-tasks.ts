/**
 * Main-thread long tasks (> 50 ms, PerformanceObserver 'longtask') while the built app runs a
 * scenario at full speed (SPEED_MAX) with the whole UI open, in the sim driver: the job view,
 * channels, timeline, dashboard and charts all follow the run. Aim: none. Counted from the
 * moment the speed goes up until the run pauses at its end; a fresh profile per scenario. Also the
 * capacity planner's sweep (/planner/), which runs in a worker while the main thread plots each point.
 */
import { addPageScript, longTasksSince, observeLongTasks, openFreshPage } from './built-app.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { median } from './median.ts';
import { startTrace, stopTrace } from './long-task-trace.ts';

/** LONG_TASKS_TRACE=1 adds where the long tasks' time went, from a Chromium trace (which slows the run). */
const TRACE = process.env.LONG_TASKS_TRACE === '1';

/** Bundled scenarios with much on screen: windows and watermarks; 20k keys of state with checkpoints and a restore. */
const SCENARIOS = ['click-counts.yaml', 'local-recovery.yaml'];
/** SPEED_MAX of web/playground-state.svelte.ts (a runes module, which Node cannot import) */
const SPEED_MAX = 1000;

async function measure(baseUrl: string, scenario: string): Promise<BenchFigure> {
  const { page, errors, close } = await openFreshPage();
  try {
    await addPageScript(page, observeLongTasks);
    await page.goto(`${baseUrl}/?scenario=${scenario}`);
    // the page loads and starts the scenario on its own
    await page.waitForSelector('[data-testid="pause-button"]:not([disabled])', { timeout: 120_000 });
    const trace = TRACE ? await startTrace(page) : undefined;
    const since = await page.evaluate(async (speed) => {
      await window.playground!.setSpeed(speed);
      return performance.now();
    }, SPEED_MAX);
    await page.waitForSelector('[data-testid="pause-button"][disabled]', { timeout: 300_000 });
    const { until, virtualMs } = await page.evaluate(async () => ({ until: performance.now(), virtualMs: (await window.playground!.status()).time }));
    const traced = trace ? { trace: await stopTrace(trace) } : {};
    if (errors.length > 0) throw new Error(`the app threw during the run: ${errors.join('\n')}`);
    const tasks = await longTasksSince(page, since);
    return {
      figure: `long_tasks.sim_full_speed.${scenario.replace(/\.yaml$/, '')}`,
      value: tasks.length,
      unit: 'tasks > 50 ms',
      longest_ms: Math.round(Math.max(0, ...tasks.map(([, d]) => d))),
      total_ms: Math.round(tasks.reduce((n, [, d]) => n + d, 0)),
      run_wall_ms: Math.round(until - since),
      virtual_ms: Math.round(virtualMs),
      aim: 0,
      ...traced,
    };
  } finally {
    await close();
  }
}

/**
 * Fresh-profile runs per scenario; the figure is the median run (by its count of long tasks).
 * Five, not three: a count of 0 or 1 per run, and the median of three flipped between bench runs
 * on this machine (local-recovery: rounds 1,0,1 in one run, 0,0,0 in the next).
 */
const ROUNDS = 5;

export async function benchLongTasks(baseUrl: string): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const scenario of SCENARIOS) figures.push(await rounds(() => measure(baseUrl, scenario)));
  figures.push(await rounds(() => measurePlannerSweep(baseUrl)));
  return figures;
}

async function rounds(run: () => Promise<BenchFigure>): Promise<BenchFigure> {
  const runs: BenchFigure[] = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await run());
  return medianRun(runs);
}

/** The sweep tests/browser/capacity-planner.test.ts runs, counted from the click to the verdict. */
const PLANNER_SWEEP = '50, 100, 200';

async function measurePlannerSweep(baseUrl: string): Promise<BenchFigure> {
  const { page, errors, close } = await openFreshPage();
  try {
    await addPageScript(page, observeLongTasks);
    await page.goto(`${baseUrl}/planner/`);
    await page.getByTestId('planner-field-parallelisms').fill(PLANNER_SWEEP);
    // uPlot is loaded and both charts drawn (empty) before the sweep: the figure is the sweep's.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="planner-chart-"] canvas').length === 2, undefined, { timeout: 60_000 });
    const since = await page.evaluate(() => performance.now());
    await page.getByTestId('planner-run').click();
    await page.getByTestId('planner-verdict').waitFor({ timeout: 300_000 });
    const until = await page.evaluate(() => performance.now());
    if (errors.length > 0) throw new Error(`the planner threw during the sweep: ${errors.join('\n')}`);
    const tasks = await longTasksSince(page, since);
    return {
      figure: 'long_tasks.planner_sweep',
      value: tasks.length,
      unit: 'tasks > 50 ms',
      longest_ms: Math.round(Math.max(0, ...tasks.map(([, d]) => d))),
      total_ms: Math.round(tasks.reduce((n, [, d]) => n + d, 0)),
      sweep_wall_ms: Math.round(until - since),
      aim: 0,
    };
  } finally {
    await close();
  }
}

/** The run whose count is the median (ROUNDS is odd), so its longest and total go with it; every run's count beside. */
function medianRun(runs: BenchFigure[]): BenchFigure {
  const counts = runs.map((r) => r.value as number);
  const middle = [...runs].sort((a, b) => (a.value as number) - (b.value as number))[Math.floor(runs.length / 2)]!;
  return { ...middle, value: median(counts), repetitions: runs.length, rounds: counts };
}

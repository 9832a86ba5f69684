/**
 * The scale runtime's production-scale hour in a browser tab (issue 15: under 10 s "in Node and
 * in a browser tab", the page responsive meanwhile): public/scenarios/production-scale.yaml run
 * to its end in a worker of headless Chromium, as the capacity planner runs its sweep, with the
 * main thread's tasks over 50 ms counted meanwhile. The Node figure is scale-runtime.ts's.
 *
 *   npm run bench -- --only scale,scale-browser     # the two side by side
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowserSession, REPO_ROOT } from '../browser/browser-session.ts';
import type { ScaleHourInPage } from '../browser/scale-hour-bench-in-page.ts';
import { longTasksSince, OBSERVE_LONG_TASKS, runPastTheHostLoss, runToFirstCheckpoint } from '../browser/scale-run-page-steps.ts';
import { median } from './median.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { openStorageBenchPage } from './storage-throughput.ts';

const ROUNDS = 3;
/**
 * Fresh pages of the page run: its figure counts long tasks (0, 1 or 2 a run on this machine),
 * and the median of three such counts flipped between 0 and 1 from one bench run to the next.
 */
const PAGE_ROUNDS = 5;
const PAGE_MODULE = join(REPO_ROOT, 'tests/browser/scale-hour-bench-in-page.ts');

export async function benchScaleRuntimeInBrowser(): Promise<BenchFigure[]> {
  const text = readFileSync(join(REPO_ROOT, 'public/scenarios/production-scale.yaml'), 'utf8');
  const session = await openBrowserSession();
  try {
    await openStorageBenchPage(session);
    const runs: ScaleHourInPage[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A string, so no transform rewrites the page's `import()`.
      runs.push((await session.page.evaluate(`import(${JSON.stringify(`/@fs${PAGE_MODULE}`)}).then((m) => m.runScaleHour(${JSON.stringify(text)}))`)) as ScaleHourInPage);
    }
    if (session.errors.length > 0) throw new Error(`the page reported errors: ${session.errors.join('\n')}`);
    const last = runs.at(-1)!;
    return [
      {
        figure: 'scale_hour_p1000_1tb_browser.wall_s',
        value: Math.round(median(runs.map((r) => r.wallMs))) / 1000,
        unit: 's',
        completed_checkpoints: last.completedCheckpoints,
        restores: last.restores,
        rounds: ROUNDS,
        where: 'a worker of headless Chromium',
      },
      {
        figure: 'scale_hour_p1000_1tb_browser.long_tasks',
        value: Math.max(...runs.map((r) => r.longTasks)),
        unit: 'tasks > 50 ms',
        longest_ms: Math.round(Math.max(...runs.map((r) => r.longestTaskMs))),
        note: 'main-thread tasks over 50 ms while the worker ran the hour (the most of any round)',
        aim: 0,
      },
    ];
  } finally {
    await session.close();
  }
}

/**
 * The same hour on the playground page itself (issue 15: "the page stays responsive"): the
 * picker's production-scale scenario in the scale runtime's worker at 1000×, its dashboard,
 * timeline and job graph updating, the main thread's tasks over 50 ms counted from the first
 * completed checkpoint until the job clock passed the host loss.
 */
export async function benchScaleRunOnThePage(): Promise<BenchFigure[]> {
  const runs: Array<{ longTasks: number; longestMs: number }> = [];
  for (let round = 0; round < PAGE_ROUNDS; round++) {
    const session = await openBrowserSession({ viewport: { width: 1280, height: 1400 } });
    try {
      await session.page.addInitScript({ content: OBSERVE_LONG_TASKS });
      await session.page.goto(`${session.baseUrl}/`);
      await session.page.getByTestId('scenario-select').selectOption('production-scale.yaml');
      await session.page.getByTestId('scale-job-graph').waitFor({ timeout: 120_000 });
      await runToFirstCheckpoint(session.page);
      const since = await session.page.evaluate(() => performance.now());
      await runPastTheHostLoss(session.page);
      const tasks = await longTasksSince(session.page, since);
      if (session.errors.length > 0) throw new Error(`the page reported errors: ${session.errors.join('\n')}`);
      runs.push({ longTasks: tasks.length, longestMs: Math.max(0, ...tasks.map(([, duration]) => duration)) });
    } finally {
      await session.close();
    }
  }
  return [
    {
      figure: 'scale_page_run.long_tasks',
      value: median(runs.map((r) => r.longTasks)),
      unit: 'tasks > 50 ms',
      rounds: runs.map((r) => r.longTasks),
      longest_ms: Math.round(Math.max(...runs.map((r) => r.longestMs))),
      note: 'main-thread tasks over 50 ms on the playground page while production-scale.yaml ran past its host loss at 1000× (median of fresh pages)',
      aim: 0,
    },
  ];
}

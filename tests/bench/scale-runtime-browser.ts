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
import { median } from './median.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { openStorageBenchPage } from './storage-throughput.ts';

const ROUNDS = 3;
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

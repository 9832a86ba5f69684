/**
 * `npm run bench`: speed figures as ratios measured side by side in one run, one JSON line per
 * figure as it is measured; at the end the report (bench/results.json, bench/results.md and the
 * README's bench section: every figure, the machine, each aim met or not). Never timed
 * assertions: this prints, a person (or a later issue's CI step) reads.
 *
 *   npm run bench                                   # every figure
 *   npm run bench -- --only live,startup            # some of them (names below); the report holds those
 *   npm run bench -- --report-only                  # the report again from bench/results.json, no bench run
 */
import { benchSimThroughput } from './sim-throughput.ts';
import { benchCheckpointOverhead } from './checkpoint-overhead.ts';
import { benchLsmBackend } from '../state/lsm-bench.ts';
import { benchIncrementalSize } from './incremental-size.ts';
import { benchHalfLocalRestore } from './half-local-restore.ts';
import { benchScaleRuntime } from './scale-runtime.ts';
import { benchScaleRuntimeInBrowser, benchScaleRunOnThePage } from './scale-runtime-browser.ts';
import { benchStorageThroughput } from './storage-throughput.ts';
import { benchLsmOpfs } from './lsm-opfs.ts';
import { benchLiveThroughput } from './live-throughput.ts';
import { benchLiveRestore } from './live-restore.ts';
import { buildAndServe } from './built-app.ts';
import { benchStartup } from './startup.ts';
import { benchLongTasks } from './long-tasks.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { benchReport } from './bench-report.ts';
import { benchMachine } from './bench-machine.ts';
import { readBenchReport, RESULTS_JSON, RESULTS_MD, writeBenchReport } from './bench-files.ts';

/** The app built once into dist/ and served, for the benches of the built app. */
async function withBuiltApp(...benches: Array<(baseUrl: string) => Promise<BenchFigure[]>>): Promise<BenchFigure[]> {
  const { server, baseUrl } = await buildAndServe();
  try {
    const figures: BenchFigure[] = [];
    for (const bench of benches) figures.push(...(await bench(baseUrl)));
    return figures;
  } finally {
    await server.close();
  }
}

const BENCHES: Record<string, () => Promise<Iterable<BenchFigure>> | Iterable<BenchFigure>> = {
  sim: benchSimThroughput,
  'checkpoint-overhead': benchCheckpointOverhead,
  lsm: () => benchLsmBackend(),
  // In headless Chromium: the same LSM bench on OPFS in a worker, against raw wa-sqlite on the same VFS.
  'lsm-opfs': () => benchLsmOpfs(),
  incremental: benchIncrementalSize,
  // In the sim: remote bytes of a restore with half the local copies, against none and all.
  'half-local': benchHalfLocalRestore,
  // The scale runtime: an hour of the shipped parallelism-1,000 scenario, and the cost as parallelism grows.
  scale: benchScaleRuntime,
  // In headless Chromium: the same production-scale hour in a worker, the page's long tasks meanwhile.
  'scale-browser': () => benchScaleRuntimeInBrowser(),
  'scale-page': () => benchScaleRunOnThePage(),
  // In headless Chromium: IndexedDB checkpoint storage against raw idb puts and gets of the same bytes.
  storage: () => benchStorageThroughput(),
  // In headless Chromium: the live runtime (Web Worker TaskManagers) against the raw MessageChannel ceiling.
  live: benchLiveThroughput,
  // In headless Chromium: restore after a kill, from the local copy and from IndexedDB.
  restore: benchLiveRestore,
  // The built app in headless Chromium: time to interactive and to the first checkpoint, bundle sizes, long tasks.
  startup: () => withBuiltApp(benchStartup),
  'long-tasks': () => withBuiltApp(benchLongTasks),
};

const args = process.argv.slice(2);
if (args.includes('--report-only')) {
  const last = readBenchReport();
  report(benchReport(last.figures, last.machine, new Date(last.date), last.command));
  process.exit(0);
}
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]?.split(',') : undefined;
const unknown = (only ?? []).filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`--only: unknown bench ${unknown.join(', ')}; the benches are ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
// startup and long-tasks share one build when both run
const names = Object.keys(BENCHES).filter((name) => !only || only.includes(name));
const sharedBuild = names.includes('startup') && names.includes('long-tasks');
const machine = benchMachine();
const measured: BenchFigure[] = [];
for (const name of names) {
  if (sharedBuild && name === 'long-tasks') continue;
  const figures = sharedBuild && name === 'startup' ? await withBuiltApp(benchStartup, benchLongTasks) : await BENCHES[name]!();
  for (const figure of figures) {
    console.log(JSON.stringify(figure));
    measured.push(figure);
  }
}
report(benchReport(measured, machine, new Date(), ['npm run bench', ...(only ? ['--', '--only', only.join(',')] : [])].join(' ')));

function report(r: ReturnType<typeof benchReport>): void {
  const problem = writeBenchReport(r);
  const missed = r.aims.filter((a) => a.met === false).length;
  const unmeasured = r.aims.filter((a) => a.met === null).length;
  console.error(`bench report: ${RESULTS_JSON}, ${RESULTS_MD}${problem ? '' : ' and README.md'}; ${r.aims.length - missed - unmeasured} aims met, ${missed} not met, ${unmeasured} not measured in this run`);
  if (problem) console.error(`README.md not updated: ${problem}`);
}

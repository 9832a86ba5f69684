/**
 * Checkpoint storage throughput in headless Chromium: writing checkpoints (one transaction each)
 * and reading their files back through IndexedDbCheckpointStorage, against raw `idb` puts (one
 * transaction per checkpoint) and gets of the same bytes in the same run. The ratio is the
 * figure to watch (aim >= 0.7); MiB/s depend on the machine. Each side runs `rounds` times,
 * alternating which goes first; figures are the medians of the runs, ratios the medians of the
 * rounds' ratios (on a 2-core machine single runs vary by ±30% and more), each figure named after
 * its file size, so that the report tells the three workloads apart.
 *
 * The page is a blank document on the app's Vite dev server (tests/browser/browser-session.ts);
 * the code under test is imported into it through Vite (tests/browser/storage-bench-in-page.ts).
 *
 *   npx tsx tests/bench/storage-throughput.ts     # prints one JSON line per figure
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowserSession, REPO_ROOT, type BrowserSession } from '../browser/browser-session.ts';
import type { StorageBenchOptions, StorageBenchResult } from '../browser/storage-bench-in-page.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { median, medianRatio } from './median.ts';

const MiB = 1024 * 1024;

export const DEFAULT_STORAGE_BENCH: StorageBenchOptions = {
  scenarios: [
    { fileBytes: 4 * MiB, filesPerCheckpoint: 4, checkpoints: 8 }, // 128 MiB of large state files
    { fileBytes: 256 * 1024, filesPerCheckpoint: 16, checkpoints: 16 }, // 64 MiB of SST-sized files
    { fileBytes: 16 * 1024, filesPerCheckpoint: 32, checkpoints: 16 }, // 8 MiB of small files: per-request overhead
  ],
  rounds: 5,
};

const BLANK_PAGE = '/__storage-bench__.html';
const PAGE_MODULE = join(REPO_ROOT, 'tests/browser/storage-bench-in-page.ts');

/** Opens a blank page on the dev server's origin (no app running in it) and imports the in-page module. */
export async function openStorageBenchPage(session: BrowserSession): Promise<void> {
  await session.page.route(`${session.baseUrl}${BLANK_PAGE}`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>storage bench</title>' }),
  );
  await session.page.goto(`${session.baseUrl}${BLANK_PAGE}`);
}

/** Calls an export of the in-page module with JSON arguments (a string, so no test transform rewrites `import()`). */
export async function callInPage<T>(session: BrowserSession, name: string, ...args: unknown[]): Promise<T> {
  const url = `/@fs${PAGE_MODULE}`;
  return (await session.page.evaluate(`import(${JSON.stringify(url)}).then((m) => m[${JSON.stringify(name)}](...${JSON.stringify(args)}))`)) as T;
}

export async function runStorageThroughput(options: StorageBenchOptions = DEFAULT_STORAGE_BENCH): Promise<{ results: StorageBenchResult[]; browser: string }> {
  const session = await openBrowserSession();
  try {
    await openStorageBenchPage(session);
    const results = await callInPage<StorageBenchResult[]>(session, 'runStorageBench', options);
    const browser = await session.page.evaluate(() => navigator.userAgent);
    if (session.errors.length > 0) throw new Error(`the page reported errors: ${session.errors.join('\n')}`);
    return { results, browser };
  } finally {
    await session.close();
  }
}

/** The bench as JSON figures, as the other benches print them. */
export async function benchStorageThroughput(options: StorageBenchOptions = DEFAULT_STORAGE_BENCH): Promise<BenchFigure[]> {
  const { results, browser } = await runStorageThroughput(options);
  return results.flatMap((r) => storageFigures(r, browser.replace(/^.*(Chrom(e|ium)\/[\d.]+).*$/, '$1')));
}

/** One workload's figures from its rounds: runsMs holds per round [storage write, storage read, raw put, raw get] in ms. */
function storageFigures(r: StorageBenchResult, browser: string): BenchFigure[] {
  const base = { scenario: r.scenario, total_mib: Math.round((r.totalBytes / MiB) * 10) / 10, files: r.files, browser, repetitions: r.runsMs.length };
  const files = `${r.scenario.split(' files')[0]!.replace(' ', '').toLowerCase()}_files`;
  const column = (i: number) => r.runsMs.map((round) => round[i]!);
  const mibps = (i: number) => Math.round((r.totalBytes / MiB / (median(column(i)) / 1000)) * 10) / 10;
  // throughput ratio = raw time ÷ storage time, per round
  const ratio = (storage: number, raw: number) => Math.round(medianRatio(column(raw), column(storage)) * 1000) / 1000;
  const note = "median of the rounds' ratios";
  return [
    { figure: `storage.indexeddb.write_mib_per_s.${files}`, value: mibps(0), unit: 'MiB/s', ...base },
    { figure: `raw_idb.put_mib_per_s.${files}`, value: mibps(2), unit: 'MiB/s', ...base },
    { figure: `storage_vs_raw_idb.write_ratio.${files}`, value: ratio(0, 2), unit: 'ratio', aim: '>= 0.7', ...base, note },
    { figure: `storage.indexeddb.read_mib_per_s.${files}`, value: mibps(1), unit: 'MiB/s', ...base },
    { figure: `raw_idb.get_mib_per_s.${files}`, value: mibps(3), unit: 'MiB/s', ...base },
    { figure: `storage_vs_raw_idb.read_ratio.${files}`, value: ratio(1, 3), unit: 'ratio', aim: '>= 0.7', ...base, note, runs_ms: r.runsMs },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchStorageThroughput()) console.log(JSON.stringify(figure));
}

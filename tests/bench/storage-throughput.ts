/**
 * Checkpoint storage throughput in headless Chromium: writing checkpoints (one transaction each)
 * and reading their files back through IndexedDbCheckpointStorage, against raw `idb` puts (one
 * transaction per checkpoint) and gets of the same bytes in the same run. The ratio is the
 * figure to watch (aim >= 0.7); MiB/s depend on the machine. Each side runs `rounds` times,
 * alternating which goes first; figures are best-of, with the median runs' ratio alongside (on a
 * 2-core machine single runs vary by ±30% and more).
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
  const figures: BenchFigure[] = [];
  for (const r of results) {
    const base = { scenario: r.scenario, total_mib: Math.round((r.totalBytes / MiB) * 10) / 10, files: r.files, browser: browser.replace(/^.*(Chrom(e|ium)\/[\d.]+).*$/, '$1') };
    figures.push({ figure: 'storage.indexeddb.write_mib_per_s', value: r.storageWriteMiBps, unit: 'MiB/s', ...base });
    figures.push({ figure: 'raw_idb.put_mib_per_s', value: r.rawWriteMiBps, unit: 'MiB/s', ...base });
    figures.push({ figure: 'storage_vs_raw_idb.write_ratio', value: r.writeRatio, unit: 'ratio', aim: '>= 0.7', median_runs_ratio: r.medianWriteRatio, ...base });
    figures.push({ figure: 'storage.indexeddb.read_mib_per_s', value: r.storageReadMiBps, unit: 'MiB/s', ...base });
    figures.push({ figure: 'raw_idb.get_mib_per_s', value: r.rawReadMiBps, unit: 'MiB/s', ...base });
    figures.push({ figure: 'storage_vs_raw_idb.read_ratio', value: r.readRatio, unit: 'ratio', aim: '>= 0.7', median_runs_ratio: r.medianReadRatio, ...base, runs_ms: r.runsMs });
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchStorageThroughput()) console.log(JSON.stringify(figure));
}

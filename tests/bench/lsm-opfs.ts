/**
 * The rocksdb backend (the LSM tree on wa-sqlite) on OPFS, in a worker of headless Chromium, as
 * the live TaskManagers run it, against raw wa-sqlite inserts and reads of the same rows on the
 * same VFS (AccessHandlePoolVFS) in the same run: puts and gets per second and their ratios
 * (issue 4 aims >= 0.5 of raw). The rows and LSM options are the Node bench's
 * (tests/state/lsm-bench.ts, MemoryVFS), so the two sets of figures compare.
 *
 *   npx tsx tests/bench/lsm-opfs.ts     # prints one JSON line per figure
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowserSession, REPO_ROOT } from '../browser/browser-session.ts';
import type { LsmOpfsBenchRequest, LsmOpfsBenchResult } from '../browser/lsm-opfs-bench.worker.ts';
import { DEFAULT_LSM_BENCH } from '../state/lsm-bench.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { openStorageBenchPage } from './storage-throughput.ts';

const PAGE_MODULE = join(REPO_ROOT, 'tests/browser/lsm-opfs-bench-in-page.ts');

export const DEFAULT_LSM_OPFS_BENCH: LsmOpfsBenchRequest = {
  keys: DEFAULT_LSM_BENCH.keys,
  rounds: DEFAULT_LSM_BENCH.rounds,
  reads: DEFAULT_LSM_BENCH.reads,
  repeat: DEFAULT_LSM_BENCH.repeat,
  lsm: DEFAULT_LSM_BENCH.lsm,
  smallCacheBytes: DEFAULT_LSM_BENCH.smallCacheBytes,
  dir: 'lsm-opfs-bench',
};

export async function runLsmOpfsBench(request: LsmOpfsBenchRequest = DEFAULT_LSM_OPFS_BENCH): Promise<{ result: LsmOpfsBenchResult; browser: string }> {
  const session = await openBrowserSession();
  try {
    await openStorageBenchPage(session);
    const url = `/@fs${PAGE_MODULE}`;
    // A string, so no transform rewrites the page's `import()`.
    const result = (await session.page.evaluate(`import(${JSON.stringify(url)}).then((m) => m.runLsmOpfsBench(${JSON.stringify(request)}))`)) as LsmOpfsBenchResult;
    const browser = await session.page.evaluate(() => navigator.userAgent);
    if (session.errors.length > 0) throw new Error(`the page reported errors: ${session.errors.join('\n')}`);
    return { result, browser };
  } finally {
    await session.close();
  }
}

export async function benchLsmOpfs(request: LsmOpfsBenchRequest = DEFAULT_LSM_OPFS_BENCH): Promise<BenchFigure[]> {
  const { result, browser } = await runLsmOpfsBench(request);
  const base = {
    rows: `${request.keys} keys × ${request.rounds} writes, ${request.reads} random reads`,
    vfs: 'AccessHandlePoolVFS (OPFS), in a worker',
    browser: browser.replace(/^.*(Chrom(e|ium)\/[\d.]+).*$/, '$1'),
    // medians of this many runs each, interleaved (lsm-opfs-bench.worker.ts)
    repetitions: request.repeat,
  };
  const rate = (figure: string, value: number, note: string): BenchFigure => ({ figure, value: Math.round(value), unit: 'ops/s', ...base, note });
  const ratio = (figure: string, value: number, aim = '>= 0.5'): BenchFigure => ({ figure, value: Math.round(value * 1000) / 1000, unit: 'ratio', aim, ...base });
  return [
    rate('raw_wa_sqlite_opfs.puts_per_s', result.raw.putsPerS, 'INSERT OR REPLACE (kg, key) → JSON, one transaction, raw C exports'),
    rate('raw_wa_sqlite_opfs.gets_per_s', result.raw.getsPerS, 'SELECT by primary key + JSON.parse, raw C exports, EXCLUSIVE locking'),
    rate('lsm_opfs.puts_per_s', result.lsm.putsPerS, `the TaskManager's working database; exact statistics; database ${result.lsmDatabaseBytes} bytes at the end`),
    rate('lsm_opfs.gets_per_s', result.lsm.getsPerS, 'memtable → immutables → runs via the block cache'),
    ratio('lsm_opfs_vs_raw_opfs.puts', result.lsm.putsPerS / result.raw.putsPerS),
    ratio('lsm_opfs_vs_raw_opfs.gets', result.lsm.getsPerS / result.raw.getsPerS),
    rate('lsm_opfs_small_cache.gets_per_s', result.lsmSmallCache.getsPerS, `block cache ${request.smallCacheBytes} bytes: most reads go to wa-sqlite on OPFS`),
    ratio('lsm_opfs_small_cache_vs_raw_opfs.gets', result.lsmSmallCache.getsPerS / result.raw.getsPerS, 'informational'),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchLsmOpfs()) console.log(JSON.stringify(figure));
}

/**
 * Micro-benchmark of the `rocksdb` (LSM on wa-sqlite) state backend against raw wa-sqlite doing
 * the same rows in the same process: put and get rates, side by side, as ratios. Not a test
 * file: `npm run bench` (tests/bench/run.ts) calls `benchLsmBackend()` and prints the figures.
 *
 * Rows: `keys` keys `key-<i>` over 128 key groups, each written `rounds` times with a counter
 * value (a keyed count's access pattern: the first round inserts, later rounds overwrite).
 * Reads: `reads` random point reads of written keys.
 */
import type { BenchFigure } from '../bench/sim-throughput.ts';
import { median } from '../bench/median.ts';
import { HeapKeyedStateBackend } from '../../engine/state/heap-keyed-state-backend.ts';
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import type { LsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import { WaSqliteRunStore, type RunTableLayout } from '../../engine/state/lsm/wa-sqlite-run-store.ts';
import { openNodeDatabase } from '../support/wa-sqlite-node.ts';
import { benchRows, KEY_GROUPS, rawSqliteRates, timeBackend, type Rates } from './lsm-rates.ts';

export interface LsmBenchOptions {
  keys: number;
  rounds: number;
  reads: number;
  /** the median of this many interleaved repetitions */
  repeat: number;
  lsm: Partial<LsmOptions>;
  /** block cache for the cold-read figures: most reads then go to wa-sqlite */
  smallCacheBytes: number;
}

export const DEFAULT_LSM_BENCH: LsmBenchOptions = {
  keys: 100_000,
  rounds: 2,
  reads: 100_000,
  repeat: 3,
  // 1 MiB write buffers: 100k keys flush a few times and compact L0 → L1 (64 MiB would never flush)
  lsm: { writeBufferSizeBytes: 1 << 20, blockCacheSizeBytes: 8 << 20 },
  smallCacheBytes: 64 << 10,
};

/** Every figure of the LSM benchmark, one object per figure (the shape of tests/bench). */
export async function benchLsmBackend(options: Partial<LsmBenchOptions> = {}): Promise<BenchFigure[]> {
  const o = { ...DEFAULT_LSM_BENCH, ...options };
  const { keys, readOrder } = benchRows(o.keys, o.reads);
  const runs: Record<string, Rates[]> = {};
  const keep = (name: string, r: Rates) => void (runs[name] ??= []).push(r);
  let lastMetrics: ReturnType<LsmKeyedStateBackend['metrics']> | undefined;
  for (let rep = 0; rep < o.repeat; rep++) {
    keep('raw', await rawRates(keys, o.rounds, readOrder));
    const exact = await lsmRates(keys, o.rounds, readOrder, { ...o.lsm, statistics: 'exact' }, 'shared-table');
    lastMetrics = exact.metrics;
    keep('lsm_exact', exact);
    keep('lsm_estimate', await lsmRates(keys, o.rounds, readOrder, { ...o.lsm, statistics: 'estimate' }, 'shared-table'));
    keep('lsm_table_per_run', await lsmRates(keys, o.rounds, readOrder, { ...o.lsm, statistics: 'exact' }, 'table-per-run'));
    const small = { ...o.lsm, statistics: 'exact' as const, blockCacheSizeBytes: o.smallCacheBytes };
    keep('lsm_small_cache', await lsmRates(keys, o.rounds, readOrder, small, 'shared-table'));
    keep('lsm_table_per_run_small_cache', await lsmRates(keys, o.rounds, readOrder, small, 'table-per-run'));
    keep('heap', timeBackend(new HeapKeyedStateBackend({ start: 0, end: KEY_GROUPS - 1 }), keys, o.rounds, readOrder));
  }
  const medians = Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, { putsPerS: median(list.map((r) => r.putsPerS)), getsPerS: median(list.map((r) => r.getsPerS)) }]));
  const rows = `${o.keys} keys × ${o.rounds} writes, ${o.reads} random reads`;
  const figures: BenchFigure[] = [];
  const repetitions = o.repeat;
  const rate = (figure: string, value: number, note: string) =>
    figures.push({ figure, value: Math.round(value), unit: 'ops/s', repetitions, rows, note });
  rate('raw_wa_sqlite.puts_per_s', medians.raw!.putsPerS, 'INSERT OR REPLACE (kg, key) → JSON, one transaction, raw C exports');
  rate('raw_wa_sqlite.gets_per_s', medians.raw!.getsPerS, 'SELECT by primary key + JSON.parse, raw C exports, EXCLUSIVE locking');
  rate('lsm.puts_per_s', medians.lsm_exact!.putsPerS, 'exact statistics: every put reads the old value first');
  rate('lsm.gets_per_s', medians.lsm_exact!.getsPerS, 'memtable → immutables → runs via the block cache');
  rate('lsm_estimate.puts_per_s', medians.lsm_estimate!.putsPerS, 'blind writes (statistics: estimate), as RocksDB');
  rate('lsm_table_per_run.puts_per_s', medians.lsm_table_per_run!.putsPerS, 'runs stored one table per run');
  rate('lsm_table_per_run.gets_per_s', medians.lsm_table_per_run!.getsPerS, 'runs stored one table per run');
  rate('lsm_small_cache.gets_per_s', medians.lsm_small_cache!.getsPerS, `block cache ${o.smallCacheBytes} bytes: most reads hit wa-sqlite`);
  rate('lsm_table_per_run_small_cache.gets_per_s', medians.lsm_table_per_run_small_cache!.getsPerS, `block cache ${o.smallCacheBytes} bytes, one table per run`);
  rate('heap.puts_per_s', medians.heap!.putsPerS, 'HeapKeyedStateBackend (the hashmap backend)');
  rate('heap.gets_per_s', medians.heap!.getsPerS, 'HeapKeyedStateBackend (the hashmap backend)');
  const ratio = (figure: string, value: number, aim: string) =>
    figures.push({ figure, value: Math.round(value * 1000) / 1000, unit: 'ratio', repetitions, aim });
  ratio('lsm_vs_raw.puts', medians.lsm_exact!.putsPerS / medians.raw!.putsPerS, 'informational');
  ratio('lsm_vs_raw.gets', medians.lsm_exact!.getsPerS / medians.raw!.getsPerS, 'informational');
  ratio('lsm_small_cache_vs_raw.gets', medians.lsm_small_cache!.getsPerS / medians.raw!.getsPerS, 'informational');
  ratio('lsm_estimate_vs_raw.puts', medians.lsm_estimate!.putsPerS / medians.raw!.putsPerS, 'informational');
  if (lastMetrics) {
    figures.push({
      figure: 'lsm.shape',
      value: lastMetrics.liveSstFiles,
      unit: 'runs',
      flushes: lastMetrics.flushCount,
      compactions: lastMetrics.compactionCount,
      writeAmplification: Math.round(lastMetrics.writeAmplification * 100) / 100,
      blockCacheHitRate: Math.round(lastMetrics.blockCacheHitRate * 1000) / 1000,
      liveSstBytes: lastMetrics.liveSstFilesSize,
    });
  }
  return figures;
}

async function lsmRates(
  keys: readonly string[],
  rounds: number,
  readOrder: readonly number[],
  lsm: Partial<LsmOptions>,
  layout: RunTableLayout,
): Promise<Rates & { metrics: ReturnType<LsmKeyedStateBackend['metrics']> }> {
  const { module, db } = await openNodeDatabase();
  const store = new WaSqliteRunStore(module, db, { layout });
  const backend = new LsmKeyedStateBackend({ start: 0, end: KEY_GROUPS - 1 }, store, lsm);
  const rates = timeBackend(backend, keys, rounds, readOrder);
  return { ...rates, metrics: backend.metrics() };
}

/** The same rows straight into one wa-sqlite table (MemoryVFS), through the same raw C exports. */
async function rawRates(keys: readonly string[], rounds: number, readOrder: readonly number[]): Promise<Rates> {
  const { module, db } = await openNodeDatabase();
  return rawSqliteRates(module, db, keys, rounds, readOrder);
}

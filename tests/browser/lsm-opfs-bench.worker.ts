/**
 * The LSM backend against raw wa-sqlite on OPFS, in a worker as the TaskManagers run it: the
 * rocksdb working database opened as a TaskManager opens it (workers/task-manager-lsm-storage.ts:
 * AccessHandlePoolVFS in its instance directory, the run store's pragmas), and raw inserts and
 * reads of the same rows into one table of a database on the same VFS. Each side gets a fresh
 * directory per repetition, deleted afterwards. Started by lsm-opfs-bench-in-page.ts.
 */
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import type { LsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import { removeOpfsDirectory } from '../../workers/storage/rocksdb-local-dir.ts';
import { openPoolDatabase, openTaskManagerLsmStorage } from '../../workers/task-manager-lsm-storage.ts';
import type { LsmBenchOptions } from '../state/lsm-bench.ts';
import { benchRows, KEY_GROUPS, rawSqliteRates, timeBackend, type Rates } from '../state/lsm-rates.ts';
import { median } from '../bench/median.ts';

/** The Node bench's options (the cold-read cache's reads go to wa-sqlite, so to OPFS here), and where to work. */
export interface LsmOpfsBenchRequest extends LsmBenchOptions {
  /** OPFS directory the bench works in (deleted at the end) */
  dir: string;
}

export interface LsmOpfsBenchResult {
  /** medians of `repeat` runs, alternating which side goes first */
  raw: Rates;
  lsm: Rates;
  lsmSmallCache: Rates;
  /** bytes of the LSM's database file at the end of its last run */
  lsmDatabaseBytes: number;
}

async function lsmRates(request: LsmOpfsBenchRequest, rep: number, keys: string[], readOrder: number[], lsm: Partial<LsmOptions>): Promise<Rates & { bytes: number }> {
  const open = openTaskManagerLsmStorage({ taskManagerDir: `${request.dir}/lsm`, incarnation: rep });
  const db = await open(0);
  const backend = new LsmKeyedStateBackend({ start: 0, end: KEY_GROUPS - 1 }, db.factory.open('count'), { ...lsm, statistics: 'exact' });
  const rates = timeBackend(backend, keys, request.rounds, readOrder);
  const bytes = db.bytes();
  backend.dispose();
  await db.dispose();
  return { ...rates, bytes };
}

async function rawRates(request: LsmOpfsBenchRequest, rep: number, keys: string[], readOrder: number[]): Promise<Rates> {
  const path = `${request.dir}/raw/${rep}`;
  const { module, db, close } = await openPoolDatabase(path);
  const rates = rawSqliteRates(module, db, keys, request.rounds, readOrder);
  await close();
  await removeOpfsDirectory(path);
  return rates;
}

/** Puts and gets per second, each the median of the runs. */
function medianRates(runs: Rates[]): Rates {
  return { putsPerS: median(runs.map((r) => r.putsPerS)), getsPerS: median(runs.map((r) => r.getsPerS)) };
}

self.onmessage = async (event: MessageEvent<LsmOpfsBenchRequest>) => {
  const request = event.data;
  try {
    const { keys, readOrder } = benchRows(request.keys, request.reads);
    const runs = { raw: [] as Rates[], lsm: [] as Rates[], lsmSmallCache: [] as Rates[] };
    let lsmDatabaseBytes = 0;
    for (let rep = 0; rep < request.repeat; rep++) {
      const lsmFirst = rep % 2 === 1;
      if (!lsmFirst) runs.raw.push(await rawRates(request, rep, keys, readOrder));
      const lsm = await lsmRates(request, rep, keys, readOrder, request.lsm);
      runs.lsm.push(lsm);
      lsmDatabaseBytes = lsm.bytes;
      runs.lsmSmallCache.push(await lsmRates(request, rep + request.repeat, keys, readOrder, { ...request.lsm, blockCacheSizeBytes: request.smallCacheBytes }));
      if (lsmFirst) runs.raw.push(await rawRates(request, rep, keys, readOrder));
    }
    await removeOpfsDirectory(request.dir);
    const result = { raw: medianRates(runs.raw), lsm: medianRates(runs.lsm), lsmSmallCache: medianRates(runs.lsmSmallCache), lsmDatabaseBytes };
    self.postMessage({ ok: true, result: result satisfies LsmOpfsBenchResult });
  } catch (error) {
    self.postMessage({ ok: false, error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) });
  }
};

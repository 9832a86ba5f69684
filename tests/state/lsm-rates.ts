/**
 * The LSM benchmark's measurements, shared by the Node bench (MemoryVFS, tests/state/lsm-bench.ts)
 * and the browser one (OPFS in a worker, tests/browser/lsm-opfs-bench.worker.ts): a keyed count's
 * puts and random point reads through a keyed state backend, and the same rows straight into one
 * wa-sqlite table through the same raw C exports. No Node or DOM imports: it runs in both.
 */
import type { KeyedStateBackend } from '../../engine/state/keyed-state-backend.ts';
import { RawSqliteConnection } from '../../engine/state/lsm/raw-sqlite.ts';
import type { SqliteWasmModule } from '../../engine/state/lsm/sqlite-wasm-module.ts';

export const KEY_GROUPS = 128;

export interface Rates {
  putsPerS: number;
  getsPerS: number;
}

/** `keys` keys `key-<i>` and a fixed pseudo-random read order over them. */
export function benchRows(keyCount: number, reads: number): { keys: string[]; readOrder: number[] } {
  return {
    keys: Array.from({ length: keyCount }, (_, i) => `key-${i}`),
    readOrder: Array.from({ length: reads }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 0) % keyCount),
  };
}

export function timeBackend(backend: KeyedStateBackend, keys: readonly string[], rounds: number, readOrder: readonly number[]): Rates {
  let start = performance.now();
  for (let r = 1; r <= rounds; r++) {
    for (let i = 0; i < keys.length; i++) backend.put('count', i % KEY_GROUPS, keys[i]!, r);
  }
  const putS = (performance.now() - start) / 1000;
  start = performance.now();
  let found = 0;
  for (const i of readOrder) if (backend.get('count', i % KEY_GROUPS, keys[i]!) !== undefined) found++;
  const getS = (performance.now() - start) / 1000;
  if (found !== readOrder.length) throw new Error(`bench: ${readOrder.length - found} reads missed`);
  return { putsPerS: (keys.length * rounds) / putS, getsPerS: readOrder.length / getS };
}

/** The same rows straight into one wa-sqlite table of database `db`, through the same raw C exports. */
export function rawSqliteRates(module: SqliteWasmModule, db: number, keys: readonly string[], rounds: number, readOrder: readonly number[]): Rates {
  const conn = new RawSqliteConnection(module, db);
  for (const p of ['PRAGMA page_size=16384', 'PRAGMA locking_mode=EXCLUSIVE', 'PRAGMA journal_mode=MEMORY', 'PRAGMA synchronous=OFF']) conn.exec(p);
  conn.exec('CREATE TABLE kv (kg INTEGER NOT NULL, k TEXT NOT NULL, v TEXT NOT NULL, PRIMARY KEY (kg, k)) WITHOUT ROWID');
  const insert = conn.prepare('INSERT OR REPLACE INTO kv (kg, k, v) VALUES (?1, ?2, ?3)');
  const select = conn.prepare('SELECT v FROM kv WHERE kg = ?1 AND k = ?2');
  let start = performance.now();
  conn.exec('BEGIN');
  for (let r = 1; r <= rounds; r++) {
    for (let i = 0; i < keys.length; i++) {
      insert.bindInt(1, i % KEY_GROUPS).bindText(2, keys[i]!).bindText(3, JSON.stringify(r));
      insert.run();
    }
  }
  conn.exec('COMMIT');
  const putS = (performance.now() - start) / 1000;
  start = performance.now();
  let found = 0;
  for (const i of readOrder) {
    select.bindInt(1, i % KEY_GROUPS).bindText(2, keys[i]!);
    if (select.step() && JSON.parse(select.columnUtf8(0)) !== undefined) found++;
    select.reset();
  }
  const getS = (performance.now() - start) / 1000;
  conn.close();
  if (found !== readOrder.length) throw new Error(`bench: raw sqlite missed ${readOrder.length - found} reads`);
  return { putsPerS: (keys.length * rounds) / putS, getsPerS: readOrder.length / getS };
}

import type { LsmStorage, RunCursor } from './lsm-storage.ts';
import { RawSqliteConnection, type RawStatement } from './raw-sqlite.ts';
import type { SqliteWasmModule } from './sqlite-wasm-module.ts';

/**
 * How runs map to tables:
 * - `shared-table`: one table for every run; a block's rowid is `run << 20 | block`, so a run
 *   is one contiguous rowid range (read by one range scan, deleted by one range delete).
 * - `table-per-run`: one small table per run, dropped when compaction deletes the run.
 * tests/state/lsm-bench.ts measures both. They came out about equal, within the run-to-run
 * noise (Node 20, 2 cores, 100k keys: puts 175k–460k/s either way); shared-table is the
 * default because its statements are prepared once and deleting a run needs no DDL.
 */
export type RunTableLayout = 'shared-table' | 'table-per-run';

/** The table prefix of backend `backendName` in a database several backends share: `prefix`, then the name in letters, digits and _. */
export function backendTablePrefix(prefix: string, backendName: string): string {
  return `${prefix}_${backendName.replace(/[^A-Za-z0-9_]/g, '_')}_`;
}

export interface WaSqliteRunStoreOptions {
  layout?: RunTableLayout;
  /** Prefix for table names, so several backends can share one database. Letters, digits, _. */
  tablePrefix?: string;
  /** Run once at construction. The defaults suit a local working copy that is rebuilt from a
   * checkpoint after a failure (Flink runs RocksDB with the WAL off for the same reason). */
  pragmas?: readonly string[];
}

export const DEFAULT_RUN_STORE_PRAGMAS: readonly string[] = [
  // 4 KiB blocks overflow 4 KiB pages; 16 KiB pages hold several blocks (only effective on a new db)
  'PRAGMA page_size=16384',
  // no per-statement lock/unlock round trip through the JS VFS: ~3x faster point reads
  'PRAGMA locking_mode=EXCLUSIVE',
  'PRAGMA journal_mode=MEMORY',
  'PRAGMA synchronous=OFF',
];

const BLOCK_BITS = 1_048_576; // 2^20 blocks per run at most (4 GiB of 4 KiB blocks)

/**
 * The LsmStorage on wa-sqlite: takes an already created module (the synchronous build) and an
 * open database handle, and drives them through the raw C exports only, so every call is
 * synchronous. Loading the module and opening the database is the caller's job (Node: see
 * tests/support/wa-sqlite-node.ts; the browser loader lives with the worker).
 */
export class WaSqliteRunStore implements LsmStorage {
  readonly description: string;
  readonly conn: RawSqliteConnection;
  readonly layout: RunTableLayout;
  #prefix: string;
  #batchDepth = 0;
  #shared: SharedTableStatements | undefined;
  #perRun = new Map<number, { insert: RawStatement; select: RawStatement }>();
  #cursorPool: RawStatement[] = [];

  constructor(module: SqliteWasmModule, db: number, options: WaSqliteRunStoreOptions = {}) {
    this.layout = options.layout ?? 'shared-table';
    this.#prefix = options.tablePrefix ?? '';
    if (!/^[A-Za-z0-9_]*$/.test(this.#prefix)) throw new Error(`bad table prefix ${this.#prefix}`);
    this.description = `wa-sqlite/${this.layout}`;
    this.conn = new RawSqliteConnection(module, db);
    for (const pragma of options.pragmas ?? DEFAULT_RUN_STORE_PRAGMAS) this.conn.exec(pragma);
    if (this.layout === 'shared-table') {
      const table = `${this.#prefix}sst_block`;
      this.conn.exec(`CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`);
      this.#shared = {
        table,
        insert: this.conn.prepare(`INSERT INTO ${table} (id, data) VALUES (?1 * ${BLOCK_BITS} + ?2, ?3)`),
        select: this.conn.prepare(`SELECT data FROM ${table} WHERE id = ?1 * ${BLOCK_BITS} + ?2`),
        deleteRun: this.conn.prepare(
          `DELETE FROM ${table} WHERE id >= ?1 * ${BLOCK_BITS} AND id < (?1 + 1) * ${BLOCK_BITS}`,
        ),
        exists: this.conn.prepare(
          `SELECT 1 FROM ${table} WHERE id >= ?1 * ${BLOCK_BITS} AND id < (?1 + 1) * ${BLOCK_BITS} LIMIT 1`,
        ),
      };
    }
  }

  beginBatch(): void {
    if (this.#batchDepth++ === 0) this.conn.exec('BEGIN');
  }

  commitBatch(): void {
    if (this.#batchDepth === 0) throw new Error('commitBatch without beginBatch');
    if (--this.#batchDepth === 0) this.conn.exec('COMMIT');
  }

  createRun(runId: number): void {
    if (this.#shared) {
      const exists = this.#shared.exists.bindInt(1, runId);
      try {
        if (exists.step()) throw new Error(`run ${runId} exists`);
      } finally {
        exists.reset();
      }
      return;
    }
    const table = this.#runTable(runId);
    this.conn.exec(`CREATE TABLE ${table} (block INTEGER PRIMARY KEY, data BLOB NOT NULL)`);
    this.#perRun.set(runId, {
      insert: this.conn.prepare(`INSERT INTO ${table} (block, data) VALUES (?1, ?2)`),
      select: this.conn.prepare(`SELECT data FROM ${table} WHERE block = ?1`),
    });
  }

  writeBlock(runId: number, blockNo: number, data: string): number {
    let bytes: number;
    if (this.#shared) {
      const s = this.#shared.insert.bindInt(1, runId).bindInt(2, blockNo);
      bytes = s.bindUtf8Blob(3, data);
      s.run();
    } else {
      const s = this.#statementsOf(runId).insert.bindInt(1, blockNo);
      bytes = s.bindUtf8Blob(2, data);
      s.run();
    }
    return bytes;
  }

  readBlock(runId: number, blockNo: number): string {
    const s = this.#shared
      ? this.#shared.select.bindInt(1, runId).bindInt(2, blockNo)
      : this.#statementsOf(runId).select.bindInt(1, blockNo);
    try {
      if (!s.step()) throw new Error(`run ${runId} has no block ${blockNo}`);
      return s.columnUtf8(0);
    } finally {
      s.reset();
    }
  }

  openCursor(runId: number): RunCursor {
    const sql = this.#shared
      ? `SELECT data FROM ${this.#shared.table} WHERE id >= ?1 * ${BLOCK_BITS} AND id < (?1 + 1) * ${BLOCK_BITS} ORDER BY id`
      : `SELECT data FROM ${this.#runTable(runId)} ORDER BY block`;
    const stmt = this.#shared ? (this.#cursorPool.pop() ?? this.conn.prepare(sql)) : this.conn.prepare(sql);
    if (this.#shared) stmt.bindInt(1, runId);
    let done = false;
    return {
      next: () => {
        if (done) return undefined;
        if (stmt.step()) return stmt.columnUtf8(0);
        done = true;
        return undefined;
      },
      close: () => {
        stmt.reset();
        if (this.#shared) this.#cursorPool.push(stmt);
        else stmt.finalize();
      },
    };
  }

  deleteRun(runId: number): void {
    if (this.#shared) {
      this.#shared.deleteRun.bindInt(1, runId).run();
      return;
    }
    const statements = this.#perRun.get(runId);
    statements?.insert.finalize();
    statements?.select.finalize();
    this.#perRun.delete(runId);
    this.conn.exec(`DROP TABLE IF EXISTS ${this.#runTable(runId)}`);
  }

  listRuns(): number[] {
    const ids: number[] = [];
    const sql = this.#shared
      ? `SELECT DISTINCT id / ${BLOCK_BITS} FROM ${this.#shared.table} ORDER BY 1`
      : `SELECT CAST(substr(name, ${this.#prefix.length + 5}) AS INTEGER) FROM sqlite_master WHERE type = 'table' AND name GLOB '${this.#prefix}sst_[0-9]*' ORDER BY 1`;
    const s = this.conn.prepare(sql);
    try {
      while (s.step()) ids.push(s.columnInt(0));
    } finally {
      s.finalize();
    }
    return ids;
  }

  /** Finalizes the store's statements; the database handle stays open (the caller owns it). */
  close(): void {
    this.conn.close();
    this.#perRun.clear();
    this.#cursorPool = [];
  }

  #runTable(runId: number): string {
    return `${this.#prefix}sst_${runId}`;
  }

  #statementsOf(runId: number): { insert: RawStatement; select: RawStatement } {
    let statements = this.#perRun.get(runId);
    if (!statements) {
      // a run stored by an earlier store instance on the same database
      const table = this.#runTable(runId);
      statements = {
        insert: this.conn.prepare(`INSERT INTO ${table} (block, data) VALUES (?1, ?2)`),
        select: this.conn.prepare(`SELECT data FROM ${table} WHERE block = ?1`),
      };
      this.#perRun.set(runId, statements);
    }
    return statements;
  }
}

interface SharedTableStatements {
  table: string;
  insert: RawStatement;
  select: RawStatement;
  deleteRun: RawStatement;
  exists: RawStatement;
}

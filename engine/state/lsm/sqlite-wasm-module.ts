/**
 * The raw SQLite C API exports of a wa-sqlite emscripten module (the synchronous build), as far
 * as the LSM backend uses them. wa-sqlite's `Factory` API wraps `step`, `reset`, `prepare` and
 * `finalize` in Promises even in the sync build; calling these exports directly keeps every state
 * access synchronous (an operator reads and writes state while it processes one record) and is
 * 2–3x faster (see notes/toolchain-probe.md §2).
 *
 * Pointers are byte offsets into `HEAPU8`. The heap views are replaced when wasm memory grows,
 * so read `module.HEAPU8` after any call that may allocate, never keep the view.
 */
export interface SqliteWasmModule {
  readonly HEAPU8: Uint8Array;
  readonly HEAP32: Int32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _sqlite3_exec(db: number, sqlPtr: number, callback: number, arg: number, errmsgPtr: number): number;
  _sqlite3_prepare_v2(db: number, sqlPtr: number, sqlBytes: number, stmtOutPtr: number, tailOutPtr: number): number;
  _sqlite3_step(stmt: number): number;
  _sqlite3_reset(stmt: number): number;
  _sqlite3_finalize(stmt: number): number;
  _sqlite3_clear_bindings(stmt: number): number;
  _sqlite3_bind_int(stmt: number, index: number, value: number): number;
  _sqlite3_bind_double(stmt: number, index: number, value: number): number;
  /** `destructor` -1 is SQLITE_TRANSIENT: SQLite copies the bytes before the call returns. */
  _sqlite3_bind_blob(stmt: number, index: number, ptr: number, bytes: number, destructor: number): number;
  _sqlite3_bind_text(stmt: number, index: number, ptr: number, bytes: number, destructor: number): number;
  _sqlite3_column_int(stmt: number, column: number): number;
  _sqlite3_column_double(stmt: number, column: number): number;
  _sqlite3_column_blob(stmt: number, column: number): number;
  _sqlite3_column_text(stmt: number, column: number): number;
  _sqlite3_column_bytes(stmt: number, column: number): number;
  _sqlite3_errmsg(db: number): number;
  _sqlite3_changes(db: number): number;
}

export const SQLITE_OK = 0;
export const SQLITE_ROW = 100;
export const SQLITE_DONE = 101;
export const SQLITE_TRANSIENT = -1;

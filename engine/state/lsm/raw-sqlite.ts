import {
  SQLITE_DONE,
  SQLITE_OK,
  SQLITE_ROW,
  SQLITE_TRANSIENT,
  type SqliteWasmModule,
} from './sqlite-wasm-module.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * One SQLite connection driven through the raw C exports, synchronously. Strings cross into wasm
 * memory through one reusable scratch buffer: every bind uses SQLITE_TRANSIENT, so SQLite copies
 * the bytes and the buffer is free again when the bind returns.
 */
export class RawSqliteConnection {
  #scratch = 0;
  #scratchBytes = 0;
  /** where sqlite3_prepare_v2 writes the statement pointer */
  #outSlot = 0;
  #statements = new Set<RawStatement>();

  constructor(
    readonly module: SqliteWasmModule,
    readonly db: number,
  ) {}

  /** Runs one or more statements that return no rows. */
  exec(sql: string): void {
    const { ptr } = this.writeUtf8(sql, true);
    this.check(this.module._sqlite3_exec(this.db, ptr, 0, 0, 0), sql);
  }

  prepare(sql: string): RawStatement {
    const m = this.module;
    if (this.#outSlot === 0) this.#outSlot = m._malloc(8);
    const utf8 = encoder.encode(sql);
    const sqlPtr = m._malloc(utf8.byteLength + 1);
    try {
      m.HEAPU8.set(utf8, sqlPtr);
      m.HEAPU8[sqlPtr + utf8.byteLength] = 0;
      this.check(m._sqlite3_prepare_v2(this.db, sqlPtr, utf8.byteLength, this.#outSlot, 0), sql);
      const stmt = m.HEAP32[this.#outSlot >> 2]!;
      if (stmt === 0) throw new Error(`sqlite: no statement in ${JSON.stringify(sql)}`);
      const statement = new RawStatement(this, stmt, sql);
      this.#statements.add(statement);
      return statement;
    } finally {
      m._free(sqlPtr);
    }
  }

  /** Copies `text` as UTF-8 into the scratch buffer; valid until the next call. */
  writeUtf8(text: string, nulTerminated = false): { ptr: number; bytes: number } {
    const need = text.length * 3 + 1;
    if (need > this.#scratchBytes) {
      if (this.#scratch !== 0) this.module._free(this.#scratch);
      this.#scratchBytes = Math.max(need, this.#scratchBytes * 2, 4096);
      this.#scratch = this.module._malloc(this.#scratchBytes);
      if (this.#scratch === 0) throw new Error('sqlite: out of wasm memory');
    }
    const heap = this.module.HEAPU8;
    const { written } = encoder.encodeInto(text, heap.subarray(this.#scratch, this.#scratch + need));
    if (nulTerminated) heap[this.#scratch + written] = 0;
    return { ptr: this.#scratch, bytes: written };
  }

  readUtf8(ptr: number, bytes: number): string {
    return bytes === 0 ? '' : decoder.decode(this.module.HEAPU8.subarray(ptr, ptr + bytes));
  }

  check(rc: number, what: string): void {
    if (rc !== SQLITE_OK) throw new Error(`sqlite error ${rc} (${this.errorMessage()}) in ${what}`);
  }

  errorMessage(): string {
    const ptr = this.module._sqlite3_errmsg(this.db);
    const heap = this.module.HEAPU8;
    let end = ptr;
    while (heap[end] !== 0) end++;
    return decoder.decode(heap.subarray(ptr, end));
  }

  /** @internal */
  forget(statement: RawStatement): void {
    this.#statements.delete(statement);
  }

  /** Finalizes every statement still open and frees the scratch buffer (the db stays open). */
  close(): void {
    for (const s of [...this.#statements]) s.finalize();
    if (this.#scratch !== 0) this.module._free(this.#scratch);
    if (this.#outSlot !== 0) this.module._free(this.#outSlot);
    this.#scratch = 0;
    this.#scratchBytes = 0;
    this.#outSlot = 0;
  }
}

/** A prepared statement; `step` returns true while it yields rows. */
export class RawStatement {
  #finalized = false;

  constructor(
    private readonly conn: RawSqliteConnection,
    readonly stmt: number,
    readonly sql: string,
  ) {}

  bindInt(index: number, value: number): this {
    this.#check(this.conn.module._sqlite3_bind_int(this.stmt, index, value));
    return this;
  }

  bindDouble(index: number, value: number): this {
    this.#check(this.conn.module._sqlite3_bind_double(this.stmt, index, value));
    return this;
  }

  /** Binds `text` as a UTF-8 blob (no collation, no encoding conversion inside SQLite). */
  bindUtf8Blob(index: number, text: string): number {
    const { ptr, bytes } = this.conn.writeUtf8(text);
    this.#check(this.conn.module._sqlite3_bind_blob(this.stmt, index, ptr, bytes, SQLITE_TRANSIENT));
    return bytes;
  }

  bindText(index: number, text: string): this {
    const { ptr, bytes } = this.conn.writeUtf8(text);
    this.#check(this.conn.module._sqlite3_bind_text(this.stmt, index, ptr, bytes, SQLITE_TRANSIENT));
    return this;
  }

  step(): boolean {
    const rc = this.conn.module._sqlite3_step(this.stmt);
    if (rc === SQLITE_ROW) return true;
    if (rc === SQLITE_DONE) return false;
    const message = this.conn.errorMessage();
    this.conn.module._sqlite3_reset(this.stmt);
    throw new Error(`sqlite error ${rc} (${message}) stepping ${this.sql}`);
  }

  /** Steps a statement that returns no rows, then resets it for the next use. */
  run(): void {
    try {
      this.step();
    } finally {
      this.reset();
    }
  }

  columnInt(column: number): number {
    return this.conn.module._sqlite3_column_int(this.stmt, column);
  }

  columnDouble(column: number): number {
    return this.conn.module._sqlite3_column_double(this.stmt, column);
  }

  /** A blob or text column decoded as UTF-8. */
  columnUtf8(column: number): string {
    const m = this.conn.module;
    const ptr = m._sqlite3_column_blob(this.stmt, column);
    return this.conn.readUtf8(ptr, m._sqlite3_column_bytes(this.stmt, column));
  }

  columnBytes(column: number): number {
    return this.conn.module._sqlite3_column_bytes(this.stmt, column);
  }

  reset(): void {
    this.conn.module._sqlite3_reset(this.stmt);
  }

  finalize(): void {
    if (this.#finalized) return;
    this.#finalized = true;
    this.conn.module._sqlite3_finalize(this.stmt);
    this.conn.forget(this);
  }

  #check(rc: number): void {
    if (rc !== SQLITE_OK) this.conn.check(rc, this.sql);
  }
}

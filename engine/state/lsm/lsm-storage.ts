/**
 * Where the LSM tree keeps its sorted runs ("SST files"): blocks of encoded entries, addressed by
 * (run id, block number). The backend never does I/O itself; a storage is injected. Every method
 * is synchronous, because operators read state while they process a record.
 *
 * A run is written once (createRun, then writeBlock for blocks 0..n-1 in order), read many times,
 * and deleted whole when compaction has replaced it: runs are immutable, as SST files are.
 */
export interface LsmStorage {
  /** A short description for metrics and benchmarks, e.g. `wa-sqlite/shared-table`. */
  readonly description: string;
  /** Groups the writes of one flush or compaction (a transaction in SQLite). Nests. */
  beginBatch(): void;
  commitBatch(): void;
  createRun(runId: number): void;
  /** Stores one block and returns the bytes it occupies. */
  writeBlock(runId: number, blockNo: number, data: string): number;
  /** One block of a run; throws if it does not exist (a lost file is a bug, not a miss). */
  readBlock(runId: number, blockNo: number): string;
  /** Reads a run's blocks in order; several cursors may be open at once (merges need that). */
  openCursor(runId: number): RunCursor;
  deleteRun(runId: number): void;
  /** Ids of the runs stored, ascending (tests use it to check that no file leaks). */
  listRuns(): number[];
}

export interface RunCursor {
  /** The next block's data, or undefined at the end of the run. */
  next(): string | undefined;
  close(): void;
}

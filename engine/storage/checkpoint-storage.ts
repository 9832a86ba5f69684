/**
 * Remote checkpoint storage: where `execution.checkpointing.dir` points. Flink writes checkpoints
 * to a file system or an object store (HDFS, S3); the playground writes them to IndexedDB in the
 * browser (workers/storage/indexeddb-checkpoint-storage.ts, also run on fake-indexeddb in Node)
 * or to memory (memory-checkpoint-storage.ts, the reference implementation and test oracle).
 *
 * One `CheckpointStorage` is Flink's `CheckpointStorageAccess` of one job: it knows the job's
 * directory (`<checkpoint dir>/<job id>`, see checkpoint-layout.ts) so it can discard a checkpoint
 * by id. Paths are plain strings; a "directory" is a path prefix ending in `/`.
 *
 * Failures Flink has a reason for are values, not exceptions: a write that fails returns
 * `{ reason: 'IO_EXCEPTION', message }`. Programming errors (a closed store, a bad argument) throw.
 */
import type { ExternalizedCheckpointRetention } from '../config/flink-config.ts';
import type { JobStatus } from '../job/job-status.ts';
import { checkpointDirectory, type CheckpointLocation } from './checkpoint-layout.ts';

export type { CheckpointLocation };

/** One file to write. */
export interface CheckpointFile {
  path: string;
  bytes: Uint8Array;
}

/** One stored file as `list` reports it. */
export interface StoredFile {
  path: string;
  sizeBytes: number;
}

/** What the storage holds in total (what a quota counts). */
export interface StorageUsage {
  fileCount: number;
  bytes: number;
}

/** Why a storage request failed, below Flink's reason: for tests and the UI. */
export type StorageErrorCause =
  /** the storage quota (`quotaBytes`) would be exceeded: HDFS's DSQuotaExceededException */
  | 'quota-exceeded'
  /** the browser refused the write (IndexedDB QuotaExceededError): the origin's quota is used up */
  | 'browser-quota-exceeded'
  /** a fault injected by a test or by the "failing" knob */
  | 'injected'
  /** any other error of the underlying store */
  | 'storage-error';

/**
 * A failed storage request, with Flink's `CheckpointFailureReason.IO_EXCEPTION`. `message` reads
 * like the IOException Flink reports: which file could not be written, and why.
 */
export interface StorageError {
  reason: 'IO_EXCEPTION';
  cause: StorageErrorCause;
  message: string;
}

/** A fault a test injects: consulted for every file a request writes or deletes, inside its transaction. */
export type FaultInjector = (request: { op: 'write' | 'delete'; path: string }) => string | undefined;

export interface CheckpointStorageOptions {
  /** the job's checkpoint directory: `<checkpointDir>/<jobId>/…` */
  location: CheckpointLocation;
  /** bytes the whole store may hold (default unlimited); see `quotaBytes` */
  quotaBytes?: number;
  /** returns an error message to fail that file's request (the whole transaction rolls back) */
  injectFault?: FaultInjector;
}

export interface CheckpointStorage {
  /** Where this job's checkpoints live. */
  readonly location: CheckpointLocation;
  /**
   * The store's space quota in bytes (Infinity: none). A write that would make the store hold more
   * fails with IO_EXCEPTION and changes nothing. Settable at any time (a fault knob).
   */
  quotaBytes: number;

  /** Writes (or overwrites) one file, atomically. */
  writeFile(path: string, bytes: Uint8Array): Promise<StorageError | undefined>;
  /** The file's bytes (a copy the caller may keep), or undefined if there is no such file. */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /** Deletes one file; deleting a file that is not there succeeds (as an object store's DELETE). */
  deleteFile(path: string): Promise<StorageError | undefined>;
  /** Every file whose path starts with `prefix`, sorted by path. */
  list(prefix: string): Promise<StoredFile[]>;
  /**
   * Writes the files of one checkpoint in one transaction: all of them or, on any failure, none
   * (files the checkpoint would have overwritten keep their old contents).
   */
  writeCheckpoint(checkpointId: number, files: readonly CheckpointFile[]): Promise<StorageError | undefined>;
  /**
   * Deletes the checkpoint's exclusive directory `<job dir>/chk-<id>/` (its `_metadata` and the
   * private state of its tasks) in one transaction. Shared files are not touched: the shared state
   * registry decides when they go (`deleteFile` each name it unregisters).
   */
  discardCheckpoint(checkpointId: number): Promise<StorageError | undefined>;
  usage(): Promise<StorageUsage>;
  /** Releases the store (closes the database). Further calls throw. */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Messages, shared by every implementation so they report the same text.

/** FsCheckpointStreamFactory's text when closing a state file fails. */
function couldNotWrite(path: string): string {
  return `Could not flush and close the file system output stream to ${path} in order to obtain the stream state handle`;
}

/** Hadoop's `long2String(n, "B", 2)`: "64 MB", "786.44 KB". */
function hadoopBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = Number.isInteger(value) ? String(value) : value.toFixed(2);
  return `${text} ${units[unit]}`;
}

/** The store would hold more than its quota: HDFS's DSQuotaExceededException, wrapped as Flink does. */
export function quotaExceededError(path: string, root: string, quotaBytes: number, consumedBytes: number): StorageError {
  return {
    reason: 'IO_EXCEPTION',
    cause: 'quota-exceeded',
    message:
      `${couldNotWrite(path)}. Caused by: DSQuotaExceededException: The DiskSpace quota of ${root} is exceeded: ` +
      `quota = ${quotaBytes} B = ${hadoopBytes(quotaBytes)} but diskspace consumed = ${consumedBytes} B = ${hadoopBytes(consumedBytes)}`,
  };
}

/** The browser refused to store more (IndexedDB's QuotaExceededError). */
export function browserQuotaExceededError(path: string, detail: string): StorageError {
  return {
    reason: 'IO_EXCEPTION',
    cause: 'browser-quota-exceeded',
    message:
      `${couldNotWrite(path)}. Caused by: QuotaExceededError: the browser's storage quota for this origin is used up ` +
      `(see navigator.storage.estimate())${detail ? `: ${detail}` : ''}`,
  };
}

export function injectedError(path: string, detail: string, op: 'write' | 'delete' = 'write'): StorageError {
  const head = op === 'write' ? couldNotWrite(path) : `Could not delete ${path}`;
  return { reason: 'IO_EXCEPTION', cause: 'injected', message: `${head}. Caused by: java.io.IOException: ${detail}` };
}

export function storageError(path: string, detail: string, op: 'write' | 'delete' = 'write'): StorageError {
  const head = op === 'write' ? couldNotWrite(path) : `Could not delete ${path}`;
  return { reason: 'IO_EXCEPTION', cause: 'storage-error', message: `${head}. Caused by: ${detail}` };
}

/** The prefix `discardCheckpoint` deletes: the checkpoint's directory with its trailing slash. */
export function exclusiveDirectoryPrefix(location: CheckpointLocation, checkpointId: number): string {
  return `${checkpointDirectory(location, checkpointId)}/`;
}

/** Checks the arguments every implementation takes, so they all reject the same mistakes. */
export function checkPath(path: string): void {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError(`a storage path must be a non-empty string, got ${JSON.stringify(path)}`);
}

export function checkBytes(bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('file contents must be a Uint8Array');
}

export function checkQuota(quotaBytes: number): void {
  if (!(quotaBytes >= 0)) throw new RangeError(`quotaBytes must be >= 0 (Infinity for none), got ${quotaBytes}`);
}

/** Paths written once each, the last one winning, with their sizes: what a write adds to the store. */
export function lastWriteWins(files: readonly CheckpointFile[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const f of files) sizes.set(f.path, f.bytes.byteLength);
  return sizes;
}

/**
 * The usage after writing `sizes` over files whose current sizes are `oldSizes` (undefined: new
 * file), or the quota error naming the first file that takes the store past `quotaBytes`.
 * Shared by every implementation, so they account and fail the same way.
 */
export function usageAfterWrite(
  usage: StorageUsage,
  sizes: ReadonlyMap<string, number>,
  oldSizes: ReadonlyMap<string, number | undefined>,
  quotaBytes: number,
  root: string,
): StorageUsage | StorageError {
  let bytes = usage.bytes;
  let fileCount = usage.fileCount;
  let firstOver: string | undefined;
  for (const [path, size] of sizes) {
    const old = oldSizes.get(path);
    bytes += size - (old ?? 0);
    if (old === undefined) fileCount++;
    if (firstOver === undefined && bytes > quotaBytes) firstOver = path;
  }
  if (bytes > quotaBytes) return quotaExceededError(firstOver ?? [...sizes.keys()].pop() ?? root, root, quotaBytes, bytes);
  return { fileCount, bytes };
}

// ---------------------------------------------------------------------------------------------
// Retention after the job ends.

/**
 * Whether a job's retained checkpoints stay in storage once the job reached `jobStatus`:
 * Flink's `!CompletedCheckpoint.shouldBeDiscardedOnShutdown(jobStatus)` with the
 * `CheckpointProperties` the retention option maps to:
 *
 * | option | retention policy | FINISHED | CANCELED | FAILED |
 * |---|---|---|---|---|
 * | NO_EXTERNALIZED_CHECKPOINTS | NEVER_RETAIN_AFTER_TERMINATION | delete | delete | delete |
 * | DELETE_ON_CANCELLATION | RETAIN_ON_FAILURE | delete | delete | keep |
 * | RETAIN_ON_CANCELLATION | RETAIN_ON_CANCELLATION | delete | keep | keep |
 *
 * A job that is not in a terminal state (or is only restarting) deletes nothing: true. Savepoints
 * are never deleted by the job (their properties discard on nothing).
 */
export function retainOnTermination(policy: ExternalizedCheckpointRetention, jobStatus: JobStatus | 'SUSPENDED'): boolean {
  const discard = {
    NO_EXTERNALIZED_CHECKPOINTS: { FINISHED: true, CANCELED: true, FAILED: true, SUSPENDED: true },
    DELETE_ON_CANCELLATION: { FINISHED: true, CANCELED: true, FAILED: false, SUSPENDED: true },
    RETAIN_ON_CANCELLATION: { FINISHED: true, CANCELED: false, FAILED: false, SUSPENDED: false },
  }[policy] as Record<string, boolean> | undefined;
  if (!discard) throw new RangeError(`unknown externalized checkpoint retention ${JSON.stringify(policy)}`);
  return !(discard[jobStatus] ?? false);
}

/**
 * A CheckpointStorage decorator that makes a local store behave like a remote object store: each
 * request waits for a round trip plus its bytes over a bandwidth (transfer-cost.ts, the same
 * figures as the scenario's `remote_latency_ms` and `remote_bandwidth_mb_per_s`), and fault knobs
 * make it slow, failing or full.
 *
 * Time comes from an injected `sleep`, never from a timer of the engine's own: the live driver
 * passes `(ms) => new Promise((r) => setTimeout(r, ms))`, a test passes a fake clock.
 *
 * Cost of each request (× `slowFactor`):
 * - writeFile, readFile: latency + bytes / bandwidth
 * - writeCheckpoint: latency × ⌈files / parallelRequests⌉ + all bytes / bandwidth (uploads share the
 *   bandwidth, as RocksDB's transfer threads do)
 * - list: latency per page of 1000 paths (S3's ListObjectsV2 page size)
 * - deleteFile, discardCheckpoint: one latency
 * - usage, close: free (bookkeeping, no request)
 *
 * A write becomes visible when its transfer ends (the inner store is written after the sleep).
 * Concurrent requests each pay their own time; they do not share the bandwidth.
 */
import { transferMs } from './transfer-cost.ts';
import { checkpointDirectory } from './checkpoint-layout.ts';
import {
  injectedError,
  type CheckpointFile,
  type CheckpointLocation,
  type CheckpointStorage,
  type StorageError,
  type StoredFile,
  type StorageUsage,
} from './checkpoint-storage.ts';

export type Sleep = (ms: number) => Promise<void>;

export interface RemoteCostModel {
  /** per request round trip, ms */
  latencyMs: number;
  /** MiB/s */
  bandwidthMbPerS: number;
  /** requests a checkpoint upload has in flight at once (default 1) */
  parallelRequests?: number;
}

/** The fault knobs, changed at any time. */
export interface StorageFaultKnobs {
  /** multiplies every request's time (1: as modelled; 10: a congested store) */
  slowFactor: number;
  /** when on, every write and delete fails with IO_EXCEPTION after its round trip; reads still work */
  failing: boolean;
  /** the IOException's text while failing */
  failureMessage: string;
}

/** What the decorator did, for the UI and tests. */
export interface RemoteStorageStats {
  requests: number;
  bytesWritten: number;
  bytesRead: number;
  /** the sum of every sleep it asked for, ms */
  sleptMs: number;
  failedRequests: number;
}

const LIST_PAGE = 1000;

export class CostModelledStorage implements CheckpointStorage {
  readonly knobs: StorageFaultKnobs;
  readonly stats: RemoteStorageStats = { requests: 0, bytesWritten: 0, bytesRead: 0, sleptMs: 0, failedRequests: 0 };
  readonly #inner: CheckpointStorage;
  readonly #cost: Required<RemoteCostModel>;
  readonly #sleep: Sleep;

  constructor(inner: CheckpointStorage, cost: RemoteCostModel, sleep: Sleep, knobs: Partial<StorageFaultKnobs> = {}) {
    if (!(cost.latencyMs >= 0) || !(cost.bandwidthMbPerS > 0)) throw new RangeError(`a remote store needs latencyMs >= 0 and bandwidthMbPerS > 0, got ${cost.latencyMs} and ${cost.bandwidthMbPerS}`);
    const parallelRequests = cost.parallelRequests ?? 1;
    if (!Number.isInteger(parallelRequests) || parallelRequests < 1) throw new RangeError(`parallelRequests must be a positive integer, got ${parallelRequests}`);
    this.#inner = inner;
    this.#cost = { latencyMs: cost.latencyMs, bandwidthMbPerS: cost.bandwidthMbPerS, parallelRequests };
    this.#sleep = sleep;
    this.knobs = { slowFactor: 1, failing: false, failureMessage: 'Injected I/O error: the remote checkpoint storage is failing', ...knobs };
  }

  get location(): CheckpointLocation {
    return this.#inner.location;
  }

  /** The quota knob: the inner store's quota (it accounts exactly, inside its transactions). */
  get quotaBytes(): number {
    return this.#inner.quotaBytes;
  }

  set quotaBytes(bytes: number) {
    this.#inner.quotaBytes = bytes;
  }

  async writeFile(path: string, bytes: Uint8Array): Promise<StorageError | undefined> {
    const copy = bytes.slice();
    await this.#wait(transferMs(copy.byteLength, this.#cost.latencyMs, this.#cost.bandwidthMbPerS));
    if (this.knobs.failing) return this.#fail(path, 'write');
    const error = await this.#inner.writeFile(path, copy);
    if (error) this.stats.failedRequests++;
    else this.stats.bytesWritten += copy.byteLength;
    return error;
  }

  async readFile(path: string): Promise<Uint8Array | undefined> {
    const bytes = await this.#inner.readFile(path);
    await this.#wait(transferMs(bytes?.byteLength ?? 0, this.#cost.latencyMs, this.#cost.bandwidthMbPerS));
    this.stats.bytesRead += bytes?.byteLength ?? 0;
    return bytes;
  }

  async deleteFile(path: string): Promise<StorageError | undefined> {
    await this.#wait(this.#cost.latencyMs);
    if (this.knobs.failing) return this.#fail(path, 'delete');
    return this.#counted(await this.#inner.deleteFile(path));
  }

  async list(prefix: string): Promise<StoredFile[]> {
    const files = await this.#inner.list(prefix);
    await this.#wait(this.#cost.latencyMs * Math.max(1, Math.ceil(files.length / LIST_PAGE)));
    return files;
  }

  async writeCheckpoint(checkpointId: number, files: readonly CheckpointFile[]): Promise<StorageError | undefined> {
    // The caller may reuse its buffers while the upload is "on the wire".
    const copies = files.map((f) => ({ path: f.path, bytes: f.bytes.slice() }));
    const bytes = copies.reduce((n, f) => n + f.bytes.byteLength, 0);
    const rounds = Math.max(1, Math.ceil(copies.length / this.#cost.parallelRequests));
    await this.#wait(transferMs(bytes, this.#cost.latencyMs * rounds, this.#cost.bandwidthMbPerS));
    if (this.knobs.failing) return this.#fail(copies[0]?.path ?? this.location.checkpointDir, 'write');
    // Nothing to store (a subtask whose state went inline into `_metadata`): the request's time was
    // still modelled, as the simulation charges every upload, but the inner store is not touched.
    if (copies.length === 0) return undefined;
    const error = await this.#inner.writeCheckpoint(checkpointId, copies);
    if (error) this.stats.failedRequests++;
    else this.stats.bytesWritten += bytes;
    return error;
  }

  async discardCheckpoint(checkpointId: number): Promise<StorageError | undefined> {
    await this.#wait(this.#cost.latencyMs);
    if (this.knobs.failing) return this.#fail(checkpointDirectory(this.location, checkpointId), 'delete');
    return this.#counted(await this.#inner.discardCheckpoint(checkpointId));
  }

  usage(): Promise<StorageUsage> {
    return this.#inner.usage();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  async #wait(ms: number): Promise<void> {
    this.stats.requests++;
    const scaled = ms * this.knobs.slowFactor;
    if (!(scaled > 0)) return;
    this.stats.sleptMs += scaled;
    await this.#sleep(scaled);
  }

  #fail(path: string, op: 'write' | 'delete'): StorageError {
    this.stats.failedRequests++;
    return injectedError(path, this.knobs.failureMessage, op);
  }

  #counted(error: StorageError | undefined): StorageError | undefined {
    if (error) this.stats.failedRequests++;
    return error;
  }
}

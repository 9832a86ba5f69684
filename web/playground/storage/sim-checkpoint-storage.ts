/**
 * The page's simulation writes its checkpoints to real IndexedDB: one database per playground,
 * named from `execution.checkpointing.dir` (checkpointDatabaseName), holding the job's checkpoint
 * directories in Flink's layout. The simulation stays synchronous and deterministic; this class
 * carries out its JobMaster's storage effects write-behind through CheckpointStorageMirror
 * (a completed checkpoint is written, then what it subsumed is discarded and the shared files
 * the registry let go of are deleted), as the live runtime carries out the same effects.
 *
 * Each run is a new job with a fresh JobID (32 hex characters, as Flink's), so a checkpoint an
 * earlier run kept by its retention policy is never overwritten by the next run's `chk-1`.
 *
 * When the job ends, the JobMaster's retention applies (its `job-terminated` effect): a FINISHED
 * job leaves nothing; FAILED and CANCELED keep their checkpoints as
 * `execution.checkpointing.externalized-checkpoint-retention` says. A run the page replaces by
 * another load is cancelled first, as a Flink user would cancel the old job before submitting
 * the new one.
 */
import type { CompletedCheckpoint } from '../../../engine/checkpoint/completed-checkpoint.ts';
import type { FlinkConfig } from '../../../engine/config/flink-config.ts';
import type { JobStatus } from '../../../engine/job/job-status.ts';
import { jobDirectory, parseJobPath, type CheckpointLocation } from '../../../engine/storage/checkpoint-layout.ts';
import { CheckpointStorageMirror, type CheckpointStorageEffect, type MirrorError } from '../../../engine/storage/checkpoint-storage-mirror.ts';
import type { CheckpointFile, CheckpointStorage, StorageError, StoredFile, StorageUsage } from '../../../engine/storage/checkpoint-storage.ts';
import { checkStorageLeaks, type StorageLeaks } from '../../../engine/storage/storage-leak-checker.ts';
import { checkpointDatabaseName } from '../../../workers/storage/database-names.ts';
import type { IndexedDbCheckpointStorage } from '../../../workers/storage/indexeddb-checkpoint-storage.ts';
import { nextTask } from '../../next-task.ts';

/** Where the coordinator says checkpoints go when `execution.checkpointing.dir` is not set. */
export const DEFAULT_CHECKPOINT_DIR = 'jobmanager://checkpoints';

/** What the IndexedDB database holds for this job right now, for the storage view (plain data). */
export interface CheckpointDatabaseView {
  databaseName: string;
  /** `<checkpoint dir>/<job id>` */
  jobDirectory: string;
  /** ids of the `chk-<id>` directories the database holds, ascending */
  checkpointIds: number[];
  /** files under `shared/` */
  sharedFiles: number;
  /** every file under the job directory, and their bytes */
  files: number;
  bytes: number;
  /** requests of the mirror not done yet (the database is behind the simulation) */
  behind: boolean;
  /** the last failed request's message, if any */
  lastError: string | null;
}

/** What the mirror reads of the simulation besides its effects: its status, retained checkpoints and registry. */
export interface MirroredJob {
  readonly jobStatus: JobStatus;
  readonly retainedCheckpoints: readonly CompletedCheckpoint[];
  sharedContents(name: string): unknown;
}

/** A random JobID as Flink prints it: 16 bytes in hex. */
export function newJobId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A CheckpointStorage whose database opens on first use: the mirror must be built synchronously
 * (it captures the registry's contents at each call), while IndexedDB opens asynchronously. The
 * IndexedDB code (with `idb`) loads then too, at the run's first checkpoint, not with the page.
 */
class OpeningCheckpointStorage implements CheckpointStorage {
  readonly location: CheckpointLocation;
  quotaBytes = Infinity;
  readonly #databaseName: string;
  #opened: Promise<IndexedDbCheckpointStorage> | undefined;

  constructor(databaseName: string, location: CheckpointLocation) {
    this.location = location;
    this.#databaseName = databaseName;
  }

  async #store(): Promise<IndexedDbCheckpointStorage> {
    this.#opened ??= import('../../../workers/storage/indexeddb-checkpoint-storage.ts').then(({ IndexedDbCheckpointStorage }) =>
      IndexedDbCheckpointStorage.open({ databaseName: this.#databaseName, location: this.location }),
    );
    const store = await this.#opened;
    store.quotaBytes = this.quotaBytes;
    return store;
  }

  async writeFile(path: string, bytes: Uint8Array): Promise<StorageError | undefined> {
    return (await this.#store()).writeFile(path, bytes);
  }
  async readFile(path: string): Promise<Uint8Array | undefined> {
    return (await this.#store()).readFile(path);
  }
  async deleteFile(path: string): Promise<StorageError | undefined> {
    return (await this.#store()).deleteFile(path);
  }
  async list(prefix: string): Promise<StoredFile[]> {
    return (await this.#store()).list(prefix);
  }
  async writeCheckpoint(checkpointId: number, files: readonly CheckpointFile[]): Promise<StorageError | undefined> {
    return (await this.#store()).writeCheckpoint(checkpointId, files);
  }
  async discardCheckpoint(checkpointId: number): Promise<StorageError | undefined> {
    return (await this.#store()).discardCheckpoint(checkpointId);
  }
  async usage(): Promise<StorageUsage> {
    return (await this.#store()).usage();
  }
  async close(): Promise<void> {
    await (await this.#opened?.catch(() => undefined))?.close();
  }
}

export class SimCheckpointStorage {
  readonly databaseName: string;
  readonly location: CheckpointLocation;
  readonly storage: CheckpointStorage;
  readonly #mirror: CheckpointStorageMirror;
  readonly #config: FlinkConfig;
  readonly #job: MirroredJob;
  /** the terminal status the mirror applied retention for */
  #terminated: JobStatus | undefined;
  #pending = 0;
  #view: CheckpointDatabaseView;
  #disposed: Promise<void> | undefined;
  readonly #viewListeners = new Set<() => void>();

  constructor(config: FlinkConfig, job: MirroredJob, options: { jobId?: string; seed?: number } = {}) {
    this.#config = config;
    this.#job = job;
    const checkpointDir = config.checkpointDir ?? DEFAULT_CHECKPOINT_DIR;
    this.location = { checkpointDir, jobId: options.jobId ?? newJobId() };
    this.databaseName = checkpointDatabaseName(checkpointDir);
    this.storage = new OpeningCheckpointStorage(this.databaseName, this.location);
    this.#mirror = new CheckpointStorageMirror(this.storage, {
      sharedContents: (name) => job.sharedContents(name),
      // encode each checkpoint in a task of its own, not in the frame that completed it
      beforeEncode: nextTask,
      inlineThresholdBytes: config.dataInlineThresholdBytes,
      ...(config.savepointDir === undefined ? {} : { savepointDir: config.savepointDir }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    });
    this.#view = { databaseName: this.databaseName, jobDirectory: jobDirectory(this.location), checkpointIds: [], sharedFiles: 0, files: 0, bytes: 0, behind: false, lastError: null };
  }

  /** Failed requests so far (each tried again before the next request). */
  get errors(): readonly MirrorError[] {
    return this.#mirror.errors;
  }

  /** The database as last listed (refreshed after each batch of requests). */
  get view(): CheckpointDatabaseView {
    return { ...this.#view, checkpointIds: [...this.#view.checkpointIds], behind: this.#pending > 0 };
  }

  /** Calls `listener` whenever the view changed (the database is listed after requests finish). */
  onViewChange(listener: () => void): () => void {
    this.#viewListeners.add(listener);
    return () => this.#viewListeners.delete(listener);
  }

  /** One of the simulation's storage effects, as it happens: carried out write-behind, in order. */
  apply(effect: CheckpointStorageEffect): void {
    if (this.#disposed) return;
    if (effect.type === 'job-terminated') this.#terminated = this.#job.jobStatus;
    this.#track(this.#mirror.apply(effect));
  }

  /** Resolves when every request so far is done and the view lists the database as it is. */
  async idle(): Promise<void> {
    await this.#mirror.idle();
    await this.#refreshView();
  }

  /** The leak checker over the real database, against what the job keeps now. */
  async checkLeaks(): Promise<StorageLeaks> {
    await this.#mirror.idle();
    const retainedCheckpointIds = this.#job.retainedCheckpoints.map((c) => c.id);
    const status = this.#terminated;
    return checkStorageLeaks(this.storage, {
      retainedCheckpointIds,
      ...(status === undefined ? {} : { termination: { policy: this.#config.externalizedRetention, jobStatus: status } }),
    });
  }

  /**
   * The page is done with this run (the job already ended, or was cancelled by the caller, whose
   * retention came as an effect): the requests finish, then the database closes.
   */
  dispose(): Promise<void> {
    this.#disposed ??= this.#mirror
      .idle()
      .then(() => this.#refreshView())
      .finally(() => this.storage.close());
    return this.#disposed;
  }

  #track(request: Promise<void>): void {
    this.#pending++;
    void request.finally(() => {
      this.#pending--;
      if (this.#pending === 0) void this.#refreshView();
    });
  }

  async #refreshView(): Promise<void> {
    let files: StoredFile[];
    try {
      files = await this.storage.list(`${jobDirectory(this.location)}/`);
    } catch {
      return; // closed meanwhile: the last listing stays
    }
    const ids = new Set<number>();
    let shared = 0;
    for (const f of files) {
      const where = parseJobPath(this.location, f.path);
      if (where?.kind === 'checkpoint') ids.add(where.checkpointId);
      else if (where?.kind === 'shared') shared++;
    }
    const lastError = this.#mirror.errors.at(-1)?.error.message ?? null;
    this.#view = {
      ...this.#view,
      checkpointIds: [...ids].sort((a, b) => a - b),
      sharedFiles: shared,
      files: files.length,
      bytes: files.reduce((n, f) => n + f.sizeBytes, 0),
      lastError,
    };
    for (const listener of this.#viewListeners) listener();
  }
}

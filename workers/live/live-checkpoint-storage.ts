import type { CheckpointCoordinator } from '../../engine/checkpoint/checkpoint-coordinator.ts';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import {
  checkpointPlacement,
  metadataFile,
  sharedFileLocation,
  taskSnapshotFiles,
  type SubtaskStateReference,
} from '../../engine/storage/checkpoint-files.ts';
import { jobDirectory, METADATA_FILE_NAME, parseJobPath, sharedDirectory } from '../../engine/storage/checkpoint-layout.ts';
import type { CheckpointFile, CheckpointStorage } from '../../engine/storage/checkpoint-storage.ts';
import { CostModelledStorage } from '../../engine/storage/cost-modelled-storage.ts';
import type { CheckpointStorageSpec, RemoteStorageFaults } from '../protocol.ts';
import { IndexedDbCheckpointStorage } from '../storage/indexeddb-checkpoint-storage.ts';

/**
 * The JobManager's side of remote checkpoint storage in the live runtime: one IndexedDB
 * connection behind the cost model, and the JobManager's requests on it one after the other
 * (`_metadata` writes, deletions the JobMaster asks for, restore reads), so a new checkpoint's
 * `_metadata` is written before the ones it subsumed are discarded and one is always restorable.
 * What to write or delete is the JobMaster's; this only does it and records what failed.
 */
export class LiveCheckpointStorage {
  readonly spec: CheckpointStorageSpec;
  readonly #coordinator: CheckpointCoordinator;
  #remote: IndexedDbCheckpointStorage | undefined;
  #storage: CostModelledStorage | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  #closing: Promise<void> = Promise.resolve();
  readonly errors: string[] = [];
  /**
   * Deletions that failed, to try again (Flink's discard would leave them to the next run's
   * cleanup; here they would leak until the run's database is deleted): checkpoint ids whose
   * exclusive directory is still there, and paths of single files (shared files the registry let
   * go of, uploads nobody refers to). Retried after each completed checkpoint and when the job ends.
   */
  readonly #undeletedCheckpoints = new Set<number>();
  readonly #undeletedFiles = new Set<string>();
  /** state handles of acknowledged uploads, per checkpoint: what `_metadata` refers to */
  readonly #references = new Map<number, Map<string, SubtaskStateReference>>();

  constructor(spec: CheckpointStorageSpec, coordinator: CheckpointCoordinator) {
    this.spec = spec;
    this.#coordinator = coordinator;
  }

  async open(sleep: (ms: number) => Promise<void>): Promise<void> {
    this.#remote = await IndexedDbCheckpointStorage.open({ databaseName: this.spec.databaseName, location: this.spec.location });
    this.#storage = new CostModelledStorage(this.#remote, this.spec.remote, sleep);
  }

  /** The IndexedDB store without the cost model (for checks). */
  get raw(): CheckpointStorage | undefined {
    return this.#remote;
  }

  /** The store as the JobManager reads it (cost model included). */
  get store(): CostModelledStorage {
    return this.#storage!;
  }

  setFaults(faults: RemoteStorageFaults): void {
    if (this.#storage) Object.assign(this.#storage.knobs, faults);
  }

  /** Runs a storage request after the ones before it; a request that throws is recorded, never unhandled. */
  enqueue<T>(request: () => Promise<T>): Promise<T> {
    // Once closed, the storage closes after what was queued before: nothing new may start on it.
    if (this.#closed) {
      const refused = Promise.reject(new Error('the live run was disposed: its checkpoint storage takes no more requests'));
      refused.catch(() => {});
      return refused;
    }
    const next = this.#queue.catch(() => {}).then(request);
    next.catch((error: unknown) => this.errors.push(error instanceof Error ? error.message : String(error)));
    this.#queue = next;
    return next;
  }

  /**
   * Resolves once the requests queued so far are done; with `drain`, also those they queued in
   * turn (a running job queues requests all the time, so only an ended one can be drained).
   */
  async idle(drain: boolean): Promise<void> {
    for (;;) {
      const queue = this.#queue;
      await queue.catch(() => {});
      if (queue === this.#queue || !drain) return;
    }
  }

  /** No more requests; the connection closes after those queued. Resolves once it is closed. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      const remote = this.#remote;
      this.#closing = remote ? this.idle(true).then(() => remote.close()) : Promise.resolve();
    }
    return this.#closing;
  }

  /** An upload was acknowledged: `_metadata` will refer to its handle. */
  addReference(checkpointId: number, reference: SubtaskStateReference): void {
    const refs = this.#references.get(checkpointId) ?? this.#references.set(checkpointId, new Map()).get(checkpointId)!;
    refs.set(reference.key, reference);
  }

  /**
   * Flink's finalizeCheckpoint: writes `_metadata` of a fully acknowledged checkpoint (the handles
   * its tasks acknowledged, plus the files of subtasks that had finished, whose final snapshot the
   * JobManager writes). True once written.
   */
  writeMetadata(checkpoint: CompletedCheckpoint): Promise<boolean> {
    return this.enqueue(async () => {
      const placement = checkpointPlacement(this.spec.location, checkpoint.id);
      const refs = this.#references.get(checkpoint.id) ?? new Map<string, SubtaskStateReference>();
      const files: CheckpointFile[] = [];
      const subtasks: SubtaskStateReference[] = [];
      for (const [key, snapshot] of checkpoint.taskStates) {
        let ref = refs.get(key);
        if (!ref) {
          const upload = taskSnapshotFiles(placement, snapshot, key, this.spec.dataInlineThresholdBytes);
          files.push(...upload.files);
          ref = upload.reference;
        }
        subtasks.push(ref);
      }
      files.push(metadataFile(placement, checkpoint, subtasks));
      const error = await this.#storage!.writeCheckpoint(checkpoint.id, files);
      if (error) this.errors.push(error.message);
      // The store took a write again: what it could not delete before is tried once more, after
      // this request (the checkpoint completes without waiting for it).
      else if (this.#undeletedCheckpoints.size + this.#undeletedFiles.size > 0 && !this.#closed) void this.enqueue(() => this.#retryDeletions());
      return error === undefined;
    });
  }

  /** What failed to be deleted and waits for a retry: checkpoint ids and file paths. */
  get pendingDeletions(): { checkpoints: number[]; files: string[] } {
    return { checkpoints: [...this.#undeletedCheckpoints].sort((a, b) => a - b), files: [...this.#undeletedFiles].sort() };
  }

  /**
   * Tries the failed deletions again, each once. A checkpoint is never in use again once
   * discarded (ids are not reused); a shared file may be: an incremental checkpoint that uploaded
   * the same run again registered it, and then it stays.
   */
  async #retryDeletions(): Promise<void> {
    for (const id of [...this.#undeletedCheckpoints]) await this.#discard(id);
    const inUse = this.#sharedFilesInUse(true);
    const files = [...this.#undeletedFiles];
    const reused = files.filter((path) => parseJobPath(this.spec.location, path)?.kind === 'shared' && inUse.has(path.slice(path.lastIndexOf('/') + 1)));
    for (const path of reused) this.#undeletedFiles.delete(path);
    await this.#deleteFiles(files.filter((path) => !reused.includes(path)));
  }

  discardCheckpoint(checkpointId: number): void {
    this.#references.delete(checkpointId);
    void this.enqueue(() => this.#discard(checkpointId));
  }

  /** Deletes the shared files the SharedStateRegistry let go of. */
  discardSharedFiles(names: readonly string[]): void {
    const placement = checkpointPlacement(this.spec.location, 0);
    void this.enqueue(() => this.#deleteFiles(names.map((name) => sharedFileLocation(placement, name))));
  }

  /**
   * Deletes what an upload wrote that no checkpoint will refer to (it came too late): its own
   * state file now; the shared files it uploaded are the registry's to let go of (the same run may
   * be on its way up again with a later checkpoint: SharedStateRegistry.abandon).
   */
  deleteUnused(checkpointId: number, reference: SubtaskStateReference, isCompleted: boolean): void {
    if (isCompleted) return;
    this.#coordinator.sharedState.abandon(checkpointId, reference.sharedFiles.filter((f) => f.uploaded).map((f) => f.name));
    // An inline state was never a file: it went with the acknowledgement, and nothing is left to delete.
    if (!reference.inline) void this.enqueue(() => this.#deleteFiles([reference.statePath]));
  }

  /**
   * Deletes every checkpoint directory under the job directory that the coordinator neither
   * retains nor has pending: uploads of an attempt that failed over, written by a TaskManager that
   * died before it could report them. With `sharedToo`, shared files nobody uses as well.
   */
  async sweepOrphans(sharedToo: boolean, recovered?: CompletedCheckpoint): Promise<void> {
    const location = this.spec.location;
    const kept = [...this.#coordinator.store.getAllCheckpoints(), ...this.#coordinator.savepoints, ...(recovered ? [recovered] : [])];
    const keep = new Set(kept.map((c) => c.id));
    for (const p of this.#coordinator.pendingCheckpoints) keep.add(p.id);
    const doomed = new Set<number>();
    const sharedInUse = this.#sharedFilesInUse(true);
    for (const snapshot of recovered?.taskStates.values() ?? []) for (const f of snapshot.sharedFiles ?? []) sharedInUse.add(f.name);
    const doomedShared: string[] = [];
    for (const file of await this.#storage!.list(`${jobDirectory(location)}/`)) {
      const where = parseJobPath(location, file.path);
      if (where?.kind === 'checkpoint' && !keep.has(where.checkpointId)) doomed.add(where.checkpointId);
      if (sharedToo && where?.kind === 'shared' && !sharedInUse.has(where.name)) doomedShared.push(file.path);
    }
    for (const id of doomed) await this.#discard(id);
    await this.#deleteFiles(doomedShared);
  }

  /**
   * What a JobManager failover finds of the run in remote storage (Flink recovers its
   * CompletedCheckpointStore and CheckpointIDCounter from HA): the newest checkpoint whose
   * `_metadata` was written, and the highest checkpoint id any directory has, completed or not.
   */
  async recoverableCheckpoints(): Promise<{ latest: number | undefined; highestId: number }> {
    const location = this.spec.location;
    let latest: number | undefined;
    let highestId = 0;
    for (const file of await this.#storage!.list(`${jobDirectory(location)}/`)) {
      const where = parseJobPath(location, file.path);
      if (where?.kind !== 'checkpoint') continue;
      highestId = Math.max(highestId, where.checkpointId);
      if (where.name === METADATA_FILE_NAME) latest = Math.max(latest ?? 0, where.checkpointId);
    }
    return { latest, highestId };
  }

  /** After the job ended: the checkpoints retention lets go, and their shared files but those a savepoint refers to. */
  discardOnTermination(ids: readonly number[]): void {
    void this.enqueue(async () => {
      for (const id of new Set([...ids, ...this.#undeletedCheckpoints])) await this.#discard(id);
      // Single files left from failed deletions that are not shared are the job's own leftovers.
      await this.#deleteFiles([...this.#undeletedFiles].filter((path) => parseJobPath(this.spec.location, path)?.kind !== 'shared'));
      const savepointFiles = this.#sharedFilesInUse(false);
      const shared = await this.#storage!.list(`${sharedDirectory(this.spec.location)}/`);
      await this.#deleteFiles(shared.map((f) => f.path).filter((path) => !savepointFiles.has(path.slice(path.lastIndexOf('/') + 1))));
    });
  }

  async #discard(checkpointId: number): Promise<void> {
    const error = await this.#storage!.discardCheckpoint(checkpointId);
    if (error) {
      this.errors.push(error.message);
      this.#undeletedCheckpoints.add(checkpointId);
    } else this.#undeletedCheckpoints.delete(checkpointId);
  }

  /** Shared files (SST runs of incremental checkpoints) that retained checkpoints, savepoints, or (optionally) the registry still use. */
  #sharedFilesInUse(registered: boolean): Set<string> {
    const names = new Set<string>();
    const kept = registered ? [...this.#coordinator.store.getAllCheckpoints(), ...this.#coordinator.savepoints] : this.#coordinator.savepoints;
    for (const c of kept) for (const snapshot of c.taskStates.values()) for (const f of snapshot.sharedFiles ?? []) names.add(f.name);
    if (registered) for (const f of this.#coordinator.sharedState.files()) names.add(f.name);
    return names;
  }

  /** Deletes files side by side (as Flink's I/O executor does): each request pays its own round trip, not the sum of them. */
  async #deleteFiles(paths: readonly string[]): Promise<void> {
    const errors = await Promise.all(paths.map((path) => this.#storage!.deleteFile(path)));
    errors.forEach((error, i) => {
      if (error) this.errors.push(error.message);
      if (error) this.#undeletedFiles.add(paths[i]!);
      else this.#undeletedFiles.delete(paths[i]!);
    });
  }
}

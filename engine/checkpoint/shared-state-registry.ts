import type { SharedFileHandle } from '../protocol.ts';

interface Entry {
  contents: unknown;
  sizeBytes: number;
  createdByCheckpointId: number;
  lastUsedCheckpointId: number;
}

/**
 * Shared files of incremental checkpoints (Flink's SharedStateRegistryImpl since FLINK-24611):
 * no reference counts; each file remembers the checkpoint that uploaded it and the last one that
 * used it, and once every checkpoint that used it is subsumed it is deleted.
 */
export class SharedStateRegistry {
  readonly #files = new Map<string, Entry>();
  /**
   * Files of aborted checkpoints that left the registry but are not deleted yet: name → the
   * aborted checkpoint's id. Run files are named by their contents, so until a checkpoint
   * completes, the same subtask's next checkpoint may upload the very same file again while its
   * deletion is under way, and the deletion would take the new upload with it. A later checkpoint
   * that completed has registered every run its subtasks still have, and a run gone from a subtask
   * never comes back: then the rest can go. (Flink names each upload uniquely and deletes at once.)
   */
  readonly #abandoned = new Map<string, number>();
  /** names deleted so far, for the UI and the leak checker */
  readonly deleted: string[] = [];

  /** Registers the files a subtask's acknowledgement refers to (late acks too, as Flink does). */
  registerAll(checkpointId: number, files: readonly SharedFileHandle[] | undefined): void {
    for (const file of files ?? []) {
      const entry = this.#files.get(file.name);
      this.#abandoned.delete(file.name);
      if (entry) entry.lastUsedCheckpointId = Math.max(entry.lastUsedCheckpointId, checkpointId);
      else if (file.contents !== undefined) {
        this.#files.set(file.name, { contents: file.contents, sizeBytes: file.sizeBytes, createdByCheckpointId: checkpointId, lastUsedCheckpointId: checkpointId });
      }
    }
  }

  /**
   * A checkpoint recovered after a JobManager failover (Flink's registerAllAfterRestored): every
   * shared file it refers to is registered as used by it, its contents read from checkpoint
   * storage when its handle does not carry them, so later checkpoints can reuse and subsume it.
   */
  registerAllAfterRestored(checkpointId: number, files: readonly SharedFileHandle[] | undefined, sharedFile: (name: string) => unknown): void {
    for (const file of files ?? []) {
      const entry = this.#files.get(file.name);
      this.#abandoned.delete(file.name);
      if (entry) entry.lastUsedCheckpointId = Math.max(entry.lastUsedCheckpointId, checkpointId);
      else {
        const contents = file.contents !== undefined ? file.contents : sharedFile(file.name);
        this.#files.set(file.name, { contents, sizeBytes: file.sizeBytes, createdByCheckpointId: checkpointId, lastUsedCheckpointId: checkpointId });
      }
    }
  }

  /** After subsumption: deletes every file no retained checkpoint uses (lastUsed < lowest retained). */
  unregisterUnusedState(lowestRetainedCheckpointId: number): string[] {
    return this.#deleteWhere((e) => e.lastUsedCheckpointId < lowestRetainedCheckpointId);
  }

  /**
   * An aborted checkpoint: the files it uploaded that nothing else uses leave the registry, to be
   * deleted once a later checkpoint completes without them (`releaseAbandoned`).
   */
  discardCheckpoint(checkpointId: number): void {
    this.abandon(checkpointId, this.#removeWhere((e) => e.createdByCheckpointId === checkpointId && e.lastUsedCheckpointId === checkpointId));
  }

  /** Files an aborted checkpoint uploaded that were never registered (an upload acknowledged too late): deleted as `discardCheckpoint`'s are. */
  abandon(checkpointId: number, names: readonly string[]): void {
    for (const name of names) if (!this.#files.has(name)) this.#abandoned.set(name, Math.max(checkpointId, this.#abandoned.get(name) ?? 0));
  }

  /** Checkpoint `completedCheckpointId` completed: the files abandoned by older checkpoints that it did not register again are deleted. */
  releaseAbandoned(completedCheckpointId: number): string[] {
    return this.#release((abandonedBy) => abandonedBy < completedCheckpointId);
  }

  /** No task of the attempt that abandoned them uploads any more (the job failed over or ended): every abandoned file is deleted. */
  releaseAllAbandoned(): string[] {
    return this.#release(() => true);
  }

  /** Names of the abandoned files still waiting for their deletion. */
  get abandoned(): string[] {
    return [...this.#abandoned.keys()];
  }

  contents(name: string): unknown {
    const entry = this.#files.get(name);
    if (!entry) throw new Error(`shared file ${name} is not in checkpoint storage`);
    return entry.contents;
  }

  has(name: string): boolean {
    return this.#files.has(name);
  }

  /** Every file held, with its size: what the remote store contains. */
  files(): Array<{ name: string; sizeBytes: number; createdByCheckpointId: number; lastUsedCheckpointId: number }> {
    return [...this.#files].map(([name, e]) => ({ name, sizeBytes: e.sizeBytes, createdByCheckpointId: e.createdByCheckpointId, lastUsedCheckpointId: e.lastUsedCheckpointId }));
  }

  #release(due: (abandonedBy: number) => boolean): string[] {
    const gone = [...this.#abandoned].filter(([, by]) => due(by)).map(([name]) => name);
    for (const name of gone) this.#abandoned.delete(name);
    this.deleted.push(...gone);
    return gone;
  }

  #deleteWhere(test: (e: Entry) => boolean): string[] {
    const gone = this.#removeWhere(test);
    this.deleted.push(...gone);
    return gone;
  }

  /** Takes the matching entries out of the registry; their names. */
  #removeWhere(test: (e: Entry) => boolean): string[] {
    const gone: string[] = [];
    for (const [name, e] of this.#files) if (test(e)) gone.push(name);
    for (const name of gone) this.#files.delete(name);
    return gone;
  }
}

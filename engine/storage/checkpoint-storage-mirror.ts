/**
 * A write-behind mirror of the JobManager's checkpoint storage, for the page's simulation: the
 * simulation stays synchronous and deterministic (it keeps its state in memory), and hands the
 * mirror the JobMaster's storage effects as they come. The mirror carries them out in Flink's
 * layout in the order given: a completed checkpoint is written (one transaction, `_metadata`
 * included), a subsumed one discarded, the shared files the SharedStateRegistry let go of
 * deleted (Flink's add → subsume → unregisterUnusedState). Requests run one at a time; everything
 * a request needs is captured when it is made, so the simulation may run on meanwhile.
 *
 * A failed request is recorded in `errors` (and given to `onError`) and tried again before the
 * next request, or by `retryFailed`; the leak checker over the storage tells whether it caught up.
 */
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import type { JobMasterEffect } from '../job/job-master-effect.ts';
import type { CheckpointFile, CheckpointStorage, StorageError } from './checkpoint-storage.ts';
import { normalizeDirectory, savepointDirectory, sharedDirectory } from './checkpoint-layout.ts';
import { checkpointFiles, checkpointPlacement, savepointPlacement, sharedFileLocation } from './checkpoint-files.ts';

/** The JobMaster's effects on checkpoint storage that the mirror carries out. */
export type CheckpointStorageEffect = Extract<JobMasterEffect, { type: 'checkpoint-completed' | 'discard-checkpoint' | 'discard-shared-files' | 'job-terminated' }>;

export function isCheckpointStorageEffect(effect: JobMasterEffect): effect is CheckpointStorageEffect {
  return effect.type === 'checkpoint-completed' || effect.type === 'discard-checkpoint' || effect.type === 'discard-shared-files' || effect.type === 'job-terminated';
}

export type MirrorOperation =
  | { op: 'write-checkpoint'; checkpointId: number }
  | { op: 'write-savepoint'; checkpointId: number; directory: string }
  | { op: 'discard-checkpoint'; checkpointId: number }
  | { op: 'delete-shared-file'; path: string }
  /** the mirror itself threw (a bug, or a snapshot the codec cannot encode) */
  | { op: 'mirror'; detail: string };

export interface MirrorError {
  operation: MirrorOperation;
  error: StorageError;
}

export interface CheckpointStorageMirrorOptions {
  /**
   * Contents of a shared file by name (the SharedStateRegistry's `contents`): needed when a
   * checkpoint reuses a file uploaded by one the mirror never wrote (its write failed). Called
   * synchronously when the checkpoint is handed over.
   */
  sharedContents?: (name: string) => unknown;
  /** `execution.checkpointing.savepoint-dir`; default: the checkpoint directory */
  savepointDir?: string;
  /** seeds the random part of savepoint directory names (default 0) */
  seed?: number;
  onError?: (error: MirrorError) => void;
  /**
   * Awaited before each checkpoint's files are encoded. Encoding a large state takes tens of ms;
   * the page yields to its event loop here so that work does not lengthen the task (the frame)
   * that completed the checkpoint. The engine itself never waits on a clock.
   */
  beforeEncode?: () => Promise<void>;
  /** `execution.checkpointing.data-inline-threshold` in bytes (default 0: every state file written) */
  inlineThresholdBytes?: number;
}

/** A checkpoint handed over for writing, with the shared files' contents it may need. */
interface Handover {
  checkpoint: CompletedCheckpoint;
  captured: ReadonlyMap<string, unknown>;
}

export class CheckpointStorageMirror {
  readonly errors: MirrorError[] = [];
  readonly #storage: CheckpointStorage;
  readonly #options: CheckpointStorageMirrorOptions;
  /** checkpoint ids in storage */
  readonly #written = new Set<number>();
  /** shared paths in storage */
  readonly #shared = new Set<string>();
  readonly #savepoints = new Map<number, string>();
  /** checkpoints handed over and not discarded since: only these are worth writing again */
  readonly #wanted = new Set<number>();
  /** what failed and is tried again: writes of checkpoints not discarded since, discards, deletions */
  readonly #unwritten = new Map<number, Handover>();
  readonly #undiscarded = new Set<number>();
  readonly #undeleted = new Set<string>();
  #queue: Promise<void> = Promise.resolve();

  constructor(storage: CheckpointStorage, options: CheckpointStorageMirrorOptions = {}) {
    this.#storage = storage;
    this.#options = options;
  }

  /** Checkpoint ids the storage holds now. */
  get storedCheckpointIds(): number[] {
    return [...this.#written].sort((a, b) => a - b);
  }

  /** Where a mirrored savepoint was written. */
  savepointDirectory(savepointId: number): string | undefined {
    return this.#savepoints.get(savepointId);
  }

  /** Carries out one of the JobMaster's storage effects, after the requests before it. Resolves when done (never rejects). */
  apply(effect: CheckpointStorageEffect): Promise<void> {
    switch (effect.type) {
      case 'checkpoint-completed':
        return this.add(effect.checkpoint);
      case 'discard-checkpoint':
        return this.discard(effect.checkpointId);
      case 'discard-shared-files':
        return this.deleteShared(effect.names);
      case 'job-terminated':
        return effect.retain ? this.idle() : this.terminate(effect.discard);
    }
  }

  /** A checkpoint (or savepoint) completed: it is written, a savepoint to its own directory. */
  add(checkpoint: CompletedCheckpoint): Promise<void> {
    const handover = { checkpoint, captured: this.#capture(checkpoint) };
    if (!checkpoint.isSavepoint) {
      this.#wanted.add(checkpoint.id);
      return this.#enqueue(() => this.#write(handover));
    }
    const root = normalizeDirectory(this.#options.savepointDir ?? this.#storage.location.checkpointDir);
    this.#savepoints.set(checkpoint.id, savepointDirectory(root, this.#storage.location.jobId, ((this.#options.seed ?? 0) + checkpoint.id) | 0));
    return this.#enqueue(() => this.#writeSavepoint(handover));
  }

  /** A checkpoint was subsumed or aborted: its directory goes (its shared files are the registry's to release). */
  discard(checkpointId: number): Promise<void> {
    this.#wanted.delete(checkpointId);
    this.#unwritten.delete(checkpointId);
    return this.#enqueue(() => this.#discard(checkpointId));
  }

  /** The SharedStateRegistry let go of these shared files: they are deleted. */
  deleteShared(names: readonly string[]): Promise<void> {
    const placement = checkpointPlacement(this.#storage.location, 0);
    return this.#enqueue(async () => {
      for (const name of names) await this.#deleteShared(sharedFileLocation(placement, name));
    });
  }

  /**
   * The job ended and retention lets go of its checkpoints (`discard`): they go, with every shared
   * file (a savepoint holds its own files). Savepoints always stay.
   */
  terminate(discard: readonly number[]): Promise<void> {
    for (const id of discard) this.#wanted.delete(id);
    for (const id of discard) this.#unwritten.delete(id);
    return this.#enqueue(async () => {
      for (const id of new Set([...discard, ...this.#written])) await this.#discard(id);
      for (const path of [...this.#shared]) await this.#deleteShared(path);
    });
  }

  /** Tries again what failed so far (the next request does so too). */
  retryFailed(): Promise<void> {
    return this.#enqueue(async () => {});
  }

  /** Resolves when every request queued so far is done. */
  idle(): Promise<void> {
    return this.#queue;
  }

  /** What the registry knows of the shared files a checkpoint reuses, now: by the time the request runs it may have deleted it. */
  #capture(checkpoint: CompletedCheckpoint): Map<string, unknown> {
    const captured = new Map<string, unknown>();
    const contents = this.#options.sharedContents;
    if (!contents) return captured;
    for (const s of checkpoint.taskStates.values()) {
      for (const f of s.sharedFiles ?? []) {
        if (f.contents !== undefined || captured.has(f.name)) continue;
        try {
          const found = contents(f.name);
          if (found !== undefined) captured.set(f.name, found);
        } catch {
          // unknown to the registry: written by the checkpoint that uploaded it, or missing
        }
      }
    }
    return captured;
  }

  async #write(handover: Handover): Promise<void> {
    const { checkpoint: c, captured } = handover;
    this.#unwritten.delete(c.id);
    await this.#options.beforeEncode?.();
    const location = this.#storage.location;
    const files = this.#encode(() => checkpointFiles(checkpointPlacement(location, c.id), c, { storedSharedPaths: this.#shared, missingSharedContents: (name) => captured.get(name), inlineThresholdBytes: this.#options.inlineThresholdBytes }));
    // A checkpoint the codec cannot encode is recorded and not tried again: it would fail alike.
    if (!files) return;
    const error = await this.#storage.writeCheckpoint(c.id, files);
    if (error) {
      if (this.#wanted.has(c.id)) this.#unwritten.set(c.id, handover);
      return this.#record({ op: 'write-checkpoint', checkpointId: c.id }, error);
    }
    this.#written.add(c.id);
    const sharedPrefix = `${sharedDirectory(location)}/`;
    for (const f of files) if (f.path.startsWith(sharedPrefix)) this.#shared.add(f.path);
  }

  async #writeSavepoint(handover: Handover): Promise<void> {
    const { checkpoint: s, captured } = handover;
    const directory = this.#savepoints.get(s.id)!;
    const files = this.#encode(() => checkpointFiles(savepointPlacement(directory), s, { missingSharedContents: (name) => captured.get(name), inlineThresholdBytes: this.#options.inlineThresholdBytes }));
    const error = files ? await this.#storage.writeCheckpoint(s.id, files) : undefined;
    if (files && !error) return;
    this.#savepoints.delete(s.id);
    if (error) this.#record({ op: 'write-savepoint', checkpointId: s.id, directory }, error);
  }

  #encode(encode: () => CheckpointFile[]): CheckpointFile[] | undefined {
    try {
      return encode();
    } catch (thrown) {
      this.#recordThrown(thrown);
      return undefined;
    }
  }

  async #discard(id: number): Promise<void> {
    this.#undiscarded.delete(id);
    if (!this.#written.has(id)) return;
    const error = await this.#storage.discardCheckpoint(id);
    if (error) {
      this.#undiscarded.add(id);
      return this.#record({ op: 'discard-checkpoint', checkpointId: id }, error);
    }
    this.#written.delete(id);
  }

  async #deleteShared(path: string): Promise<void> {
    this.#undeleted.delete(path);
    if (!this.#shared.has(path)) return;
    const error = await this.#storage.deleteFile(path);
    if (error) {
      this.#undeleted.add(path);
      return this.#record({ op: 'delete-shared-file', path }, error);
    }
    this.#shared.delete(path);
  }

  /** Before any new request: what failed earlier, in the order it should have happened (writes, then deletions). */
  async #retry(): Promise<void> {
    for (const handover of [...this.#unwritten.values()].sort((a, b) => a.checkpoint.id - b.checkpoint.id)) await this.#write(handover);
    for (const id of [...this.#undiscarded]) await this.#discard(id);
    for (const path of [...this.#undeleted]) await this.#deleteShared(path);
  }

  #record(operation: MirrorOperation, error: StorageError): void {
    const entry = { operation, error };
    this.errors.push(entry);
    this.#options.onError?.(entry);
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    this.#queue = this.#queue
      .then(() => this.#retry())
      .then(work)
      .catch((thrown: unknown) => this.#recordThrown(thrown));
    return this.#queue;
  }

  #recordThrown(thrown: unknown): void {
    const detail = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
    this.#record({ op: 'mirror', detail }, { reason: 'IO_EXCEPTION', cause: 'storage-error', message: `The checkpoint storage mirror failed: ${detail}` });
  }
}

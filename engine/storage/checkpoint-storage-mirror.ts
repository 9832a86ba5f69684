/**
 * A write-behind mirror of the JobManager's retained checkpoints in checkpoint storage, for the
 * page's simulation: the simulation stays synchronous and deterministic (it keeps its state in
 * memory, as before), and after each step that changed the retained set the driver calls
 * `reconcile`; the mirror then writes new checkpoints in Flink's layout (one transaction each,
 * `_metadata` included), discards subsumed ones and deletes shared files no retained checkpoint
 * refers to, in that order (Flink's add → subsume → unregisterUnusedState). Requests run one at a
 * time, in call order; everything a call needs is captured when it is made, so the simulation may
 * run on meanwhile.
 *
 * A failed request is recorded in `errors` (and given to `onError`) and retried by the next
 * `reconcile`; the leak checker over the storage tells whether it caught up.
 */
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import type { ExternalizedCheckpointRetention } from '../config/flink-config.ts';
import type { JobStatus } from '../job/job-status.ts';
import { retainOnTermination, type CheckpointFile, type CheckpointStorage, type StorageError } from './checkpoint-storage.ts';
import { normalizeDirectory, savepointDirectory, sharedDirectory } from './checkpoint-layout.ts';
import { checkpointFiles, checkpointPlacement, savepointPlacement, sharedFileLocation } from './checkpoint-files.ts';

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
   * retained checkpoint reuses a file uploaded by one the mirror never wrote (it was subsumed
   * before the mirror caught up). Called synchronously inside `reconcile`.
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
}

function sharedReferences(placement: ReturnType<typeof checkpointPlacement>, checkpoint: CompletedCheckpoint): string[] {
  const paths: string[] = [];
  for (const s of checkpoint.taskStates.values()) for (const f of s.sharedFiles ?? []) paths.push(sharedFileLocation(placement, f.name));
  return paths;
}

export class CheckpointStorageMirror {
  readonly errors: MirrorError[] = [];
  readonly #storage: CheckpointStorage;
  readonly #options: CheckpointStorageMirrorOptions;
  /** checkpoint ids in storage (or being written by a queued request) */
  readonly #planned = new Set<number>();
  /** checkpoint ids in storage */
  readonly #written = new Set<number>();
  /** shared paths in storage */
  readonly #shared = new Set<string>();
  /** shared paths each checkpoint in storage refers to */
  readonly #refs = new Map<number, string[]>();
  readonly #savepoints = new Map<number, string>();
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

  /**
   * Brings storage in line with `retained` (the CompletedCheckpointStore's checkpoints) and writes
   * any new `savepoints`. Resolves when this call's requests are done (they never reject).
   */
  reconcile(retained: readonly CompletedCheckpoint[], savepoints: readonly CompletedCheckpoint[] = []): Promise<void> {
    const location = this.#storage.location;
    const wanted = [...retained].sort((a, b) => a.id - b.id);
    const wantedIds = new Set(wanted.map((c) => c.id));
    const referenced = new Set<string>();
    for (const c of wanted) for (const path of sharedReferences(checkpointPlacement(location, c.id), c)) referenced.add(path);
    const toWrite = wanted.filter((c) => !this.#planned.has(c.id));
    for (const c of toWrite) this.#planned.add(c.id);
    // Capture now what the registry knows: by the time the request runs it may have deleted it.
    const captured = new Map<string, unknown>();
    if (this.#options.sharedContents) {
      for (const c of toWrite) {
        for (const s of c.taskStates.values()) {
          for (const f of s.sharedFiles ?? []) {
            if (f.contents !== undefined || captured.has(f.name)) continue;
            try {
              const contents = this.#options.sharedContents(f.name);
              if (contents !== undefined) captured.set(f.name, contents);
            } catch {
              // unknown to the registry: written by the checkpoint that uploaded it, or missing
            }
          }
        }
      }
    }
    const newSavepoints = savepoints.filter((s) => !this.#savepoints.has(s.id));
    const savepointRoot = normalizeDirectory(this.#options.savepointDir ?? location.checkpointDir);
    for (const s of newSavepoints) this.#savepoints.set(s.id, savepointDirectory(savepointRoot, location.jobId, ((this.#options.seed ?? 0) + s.id) | 0));

    return this.#enqueue(async () => {
      for (const c of toWrite) {
        await this.#options.beforeEncode?.();
        let files: CheckpointFile[];
        try {
          files = checkpointFiles(checkpointPlacement(location, c.id), c, { storedSharedPaths: this.#shared, missingSharedContents: (name) => captured.get(name) });
        } catch (thrown) {
          this.#planned.delete(c.id);
          this.#recordThrown(thrown);
          continue;
        }
        const error = await this.#storage.writeCheckpoint(c.id, files);
        if (error) {
          this.#planned.delete(c.id);
          this.#record({ op: 'write-checkpoint', checkpointId: c.id }, error);
          continue;
        }
        this.#written.add(c.id);
        const shared = `${sharedDirectory(location)}/`;
        for (const f of files) if (f.path.startsWith(shared)) this.#shared.add(f.path);
        this.#refs.set(c.id, sharedReferences(checkpointPlacement(location, c.id), c));
      }
      for (const s of newSavepoints) {
        const directory = this.#savepoints.get(s.id)!;
        let files: CheckpointFile[];
        try {
          files = checkpointFiles(savepointPlacement(directory), s, { missingSharedContents: (name) => captured.get(name) });
        } catch (thrown) {
          this.#savepoints.delete(s.id);
          this.#recordThrown(thrown);
          continue;
        }
        const error = await this.#storage.writeCheckpoint(s.id, files);
        if (error) {
          this.#savepoints.delete(s.id);
          this.#record({ op: 'write-savepoint', checkpointId: s.id, directory }, error);
        }
      }
      for (const id of [...this.#written]) if (!wantedIds.has(id)) await this.#discard(id);
      await this.#collectShared(referenced);
    });
  }

  /**
   * The job reached a terminal status: its checkpoints go unless the retention policy keeps
   * them (`retainOnTermination`). Savepoints always stay.
   */
  terminate(policy: ExternalizedCheckpointRetention, jobStatus: JobStatus): Promise<void> {
    if (retainOnTermination(policy, jobStatus)) return this.idle();
    return this.#enqueue(async () => {
      for (const id of [...this.#written]) await this.#discard(id);
      await this.#collectShared(new Set());
    });
  }

  /** Resolves when every request queued so far is done. */
  idle(): Promise<void> {
    return this.#queue;
  }

  async #discard(id: number): Promise<void> {
    const error = await this.#storage.discardCheckpoint(id);
    if (error) return this.#record({ op: 'discard-checkpoint', checkpointId: id }, error);
    this.#written.delete(id);
    this.#planned.delete(id);
    this.#refs.delete(id);
  }

  /** Deletes the shared files neither `referenced` nor a checkpoint still in storage refers to. */
  async #collectShared(referenced: ReadonlySet<string>): Promise<void> {
    const keep = new Set(referenced);
    for (const id of this.#written) for (const path of this.#refs.get(id) ?? []) keep.add(path);
    for (const path of [...this.#shared]) if (!keep.has(path)) await this.#deleteShared(path);
  }

  async #deleteShared(path: string): Promise<void> {
    const error = await this.#storage.deleteFile(path);
    if (error) return this.#record({ op: 'delete-shared-file', path }, error);
    this.#shared.delete(path);
  }

  #record(operation: MirrorOperation, error: StorageError): void {
    const entry = { operation, error };
    this.errors.push(entry);
    this.#options.onError?.(entry);
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    this.#queue = this.#queue.then(work).catch((thrown: unknown) => this.#recordThrown(thrown));
    return this.#queue;
  }

  #recordThrown(thrown: unknown): void {
    const detail = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
    this.#record({ op: 'mirror', detail }, { reason: 'IO_EXCEPTION', cause: 'storage-error', message: `The checkpoint storage mirror failed: ${detail}` });
  }
}

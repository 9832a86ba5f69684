/**
 * A completed checkpoint as files in Flink's layout, and back.
 *
 * What Flink writes for checkpoint n of an incremental RocksDB job:
 * - each task, in the asynchronous part of its snapshot, uploads its private state into the
 *   exclusive directory `chk-n/` and the SST files the last confirmed checkpoint lacks into
 *   `shared/` (files it reuses are only referred to);
 * - once every task acknowledged, the JobManager writes `chk-n/_metadata`: the state handles of
 *   every subtask, i.e. the paths of those files. It is written last: a directory without
 *   `_metadata` is not a checkpoint.
 *
 * A savepoint (Flink's NO_SHARING scope) is self-contained: everything, shared files included,
 * goes into its own directory.
 *
 * `taskSnapshotFiles` is the task's upload, `metadataFile` the JobManager's; `checkpointFiles` is
 * both at once (what a write-behind mirror writes in one transaction). `readCompletedCheckpoint`
 * reads them back into the CompletedCheckpoint they came from, exactly.
 */
import type { SharedFileHandle, SubtaskId, TaskStateSnapshot } from '../protocol.ts';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import { operatorSubtaskStateOf, stateHandleRefsOf, type StateHandleRef } from '../state/handles/operator-subtask-state.ts';
import type { CheckpointFile, CheckpointLocation, CheckpointStorage, StorageError } from './checkpoint-storage.ts';
import { checkpointDirectory, exclusiveStatePath, metadataPath, sharedDirectory } from './checkpoint-layout.ts';
import {
  SnapshotCodecError,
  decodeMetadataDocument,
  decodeSharedFile,
  decodeTaskStateSnapshot,
  type DecodeOptions,
  encodeMetadataDocument,
  encodeSharedFile,
  encodeTaskStateSnapshot,
} from './snapshot-codec.ts';

/** A file read from storage is a copy the reader owns (CheckpointStorage.readFile): its decoded byte arrays may be views onto it. */
const OWNED: DecodeOptions = { views: true };

/** What reading a checkpoint's files needs of a store. */
export type CheckpointFileReader = Pick<CheckpointStorage, 'readFile' | 'list'>;

/** Where one checkpoint's files go. */
export interface CheckpointPlacement {
  /** `<job dir>/chk-<n>`, or the savepoint's directory */
  directory: string;
  /** `<job dir>/shared`, or the savepoint's directory itself */
  sharedDirectory: string;
}

export function checkpointPlacement(location: CheckpointLocation, checkpointId: number): CheckpointPlacement {
  return { directory: checkpointDirectory(location, checkpointId), sharedDirectory: sharedDirectory(location) };
}

export function savepointPlacement(savepointDirectory: string): CheckpointPlacement {
  return { directory: savepointDirectory, sharedDirectory: savepointDirectory };
}

/** A shared file as `_metadata` refers to it. */
export interface SharedFileReference {
  name: string;
  sizeBytes: number;
  path: string;
  /** the snapshot carried the contents (this checkpoint uploaded the file) */
  uploaded: boolean;
}

/** One subtask's state handle in `_metadata`. */
export interface SubtaskStateReference {
  /** the CompletedCheckpoint.taskStates key (`vertex#index`) */
  key: string;
  subtask: SubtaskId;
  /**
   * The file with the subtask's private state (its TaskStateSnapshot, shared contents left out);
   * with `inline`, the name that state would have had as a file, and no file is written.
   */
  statePath: string;
  /**
   * The private state itself when its file would have held at most
   * `execution.checkpointing.data-inline-threshold` bytes: Flink's ByteStreamStateHandle, which
   * lives inside `_metadata` instead of in a file of its own.
   */
  inline?: Uint8Array;
  stateSize: number;
  checkpointedSize: number;
  sharedFiles: SharedFileReference[];
  /**
   * Its state handles (kind, key groups, bytes), as Flink's `_metadata` lists a subtask's
   * OperatorSubtaskState: a restore plans and reports per handle from `_metadata` alone, before
   * any state file is read. Absent from `_metadata` written before handles were listed.
   */
  handles?: StateHandleRef[];
}

/** The `_metadata` file: Flink's CheckpointMetadata, with the playground's completed-checkpoint fields. */
export interface CheckpointMetadata {
  checkpointId: number;
  isSavepoint: boolean;
  triggerTimestamp: number;
  completionTimestamp: number;
  externalPath: string;
  parallelism: Record<string, number>;
  stateSize: number;
  checkpointedSize: number;
  subtasks: SubtaskStateReference[];
}

export function sharedFileLocation(placement: CheckpointPlacement, name: string): string {
  if (name.length === 0 || name.includes('/')) throw new RangeError(`a shared file name must not be empty or contain '/', got ${JSON.stringify(name)}`);
  return `${placement.sharedDirectory}/${name}`;
}

/** The snapshot as the exclusive file holds it: shared handles without their contents. */
function privatePart(snapshot: TaskStateSnapshot): TaskStateSnapshot {
  if (!('sharedFiles' in snapshot)) return snapshot;
  return {
    ...snapshot,
    sharedFiles: snapshot.sharedFiles?.map((f) => {
      const { contents: _contents, ...handle } = f;
      return handle;
    }),
  };
}

export interface TaskUpload {
  /** the files the task uploads: its private state and the shared files it is the first to use */
  files: CheckpointFile[];
  /** its state handle, for `_metadata` */
  reference: SubtaskStateReference;
}

/**
 * What a task uploads in the asynchronous part of checkpoint `placement`: its private state and
 * every shared file whose contents its snapshot carries. `key` defaults to `vertex#index`. Private
 * state of at most `inlineThresholdBytes` goes into the reference instead of a file (Flink's
 * FsCheckpointStateOutputStream#closeAndGetHandle: `pos <= localStateThreshold`); 0, the default
 * here, writes every state file.
 */
export function taskSnapshotFiles(placement: CheckpointPlacement, snapshot: TaskStateSnapshot, key = `${snapshot.subtask.vertexId}#${snapshot.subtask.subtaskIndex}`, inlineThresholdBytes = 0): TaskUpload {
  const statePath = exclusiveStatePath(placement.directory, snapshot.subtask);
  const stateBytes = encodeTaskStateSnapshot(privatePart(snapshot));
  const inline = stateBytes.byteLength <= inlineThresholdBytes;
  const files: CheckpointFile[] = inline ? [] : [{ path: statePath, bytes: stateBytes }];
  const sharedFiles: SharedFileReference[] = [];
  for (const f of snapshot.sharedFiles ?? []) {
    const path = sharedFileLocation(placement, f.name);
    const uploaded = f.contents !== undefined;
    if (uploaded) files.push({ path, bytes: encodeSharedFile(f.name, f.contents) });
    sharedFiles.push({ name: f.name, sizeBytes: f.sizeBytes, path, uploaded });
  }
  return {
    files,
    reference: {
      key,
      subtask: { ...snapshot.subtask },
      statePath,
      ...(inline ? { inline: stateBytes } : {}),
      stateSize: snapshot.stateSize,
      checkpointedSize: snapshot.checkpointedSize,
      sharedFiles,
      handles: stateHandleRefsOf(operatorSubtaskStateOf(snapshot)),
    },
  };
}

/** The encoded private state of an upload, whether it went to a file or inline. */
export function privateStateBytes(upload: TaskUpload): Uint8Array {
  return upload.reference.inline ?? upload.files.find((f) => f.path === upload.reference.statePath)!.bytes;
}

/** The `_metadata` the JobManager writes once every task acknowledged. */
export function metadataFile(placement: CheckpointPlacement, checkpoint: CompletedCheckpoint, subtasks: readonly SubtaskStateReference[]): CheckpointFile {
  const metadata: CheckpointMetadata = {
    checkpointId: checkpoint.id,
    isSavepoint: checkpoint.isSavepoint,
    triggerTimestamp: checkpoint.triggerTimestamp,
    completionTimestamp: checkpoint.completionTimestamp,
    externalPath: checkpoint.externalPath,
    parallelism: { ...checkpoint.parallelism },
    stateSize: checkpoint.stateSize,
    checkpointedSize: checkpoint.checkpointedSize,
    subtasks: [...subtasks],
  };
  return { path: metadataPath(placement.directory), bytes: encodeMetadataDocument(metadata) };
}

export interface CheckpointFilesOptions {
  /**
   * Contents of a shared file this checkpoint reuses but that is not in storage yet (a
   * write-behind mirror that never wrote the checkpoint which uploaded it): the shared state
   * registry's `contents(name)`. Return undefined (or throw) if unknown.
   */
  missingSharedContents?: (name: string) => unknown;
  /** shared paths already in storage: not written again */
  storedSharedPaths?: ReadonlySet<string>;
  /** `execution.checkpointing.data-inline-threshold` in bytes (default 0: every state file written) */
  inlineThresholdBytes?: number;
}

/**
 * Every file of a completed checkpoint, `_metadata` last: the task uploads and the metadata,
 * for one `writeCheckpoint` transaction.
 */
export function checkpointFiles(placement: CheckpointPlacement, checkpoint: CompletedCheckpoint, options: CheckpointFilesOptions = {}): CheckpointFile[] {
  const files: CheckpointFile[] = [];
  const subtasks: SubtaskStateReference[] = [];
  const planned = new Set<string>();
  for (const [key, snapshot] of checkpoint.taskStates) {
    const upload = taskSnapshotFiles(placement, snapshot, key, options.inlineThresholdBytes);
    for (const file of upload.files) {
      if (options.storedSharedPaths?.has(file.path) || planned.has(file.path)) continue;
      planned.add(file.path);
      files.push(file);
    }
    for (const ref of upload.reference.sharedFiles) {
      if (ref.uploaded || planned.has(ref.path) || options.storedSharedPaths?.has(ref.path) || !options.missingSharedContents) continue;
      let contents: unknown;
      try {
        contents = options.missingSharedContents(ref.name);
      } catch {
        contents = undefined;
      }
      if (contents === undefined) continue;
      planned.add(ref.path);
      files.push({ path: ref.path, bytes: encodeSharedFile(ref.name, contents) });
    }
    subtasks.push(upload.reference);
  }
  files.push(metadataFile(placement, checkpoint, subtasks));
  return files;
}

/** Reads and checks a `_metadata` file's document. */
export function decodeCheckpointMetadata(bytes: Uint8Array): CheckpointMetadata {
  const m = decodeMetadataDocument(bytes) as CheckpointMetadata;
  if (m === null || typeof m !== 'object' || typeof m.checkpointId !== 'number' || !Array.isArray(m.subtasks)) {
    throw new SnapshotCodecError('a _metadata document without a checkpoint id or subtasks');
  }
  return m;
}

/** Every file a checkpoint's `_metadata` refers to, itself included. */
export function referencedFiles(directory: string, metadata: CheckpointMetadata): string[] {
  const paths = [metadataPath(directory)];
  for (const s of metadata.subtasks) {
    if (!s.inline) paths.push(s.statePath);
    for (const f of s.sharedFiles) paths.push(f.path);
  }
  return paths;
}

export type ReadCheckpointResult =
  | { ok: true; checkpoint: CompletedCheckpoint; metadata: CheckpointMetadata }
  | { ok: false; error: StorageError; missing: string[] };

function notFound(directory: string, missing: string[], detail: string): ReadCheckpointResult {
  return {
    ok: false,
    missing,
    error: { reason: 'IO_EXCEPTION', cause: 'storage-error', message: `Failed to restore checkpoint from ${directory}. Caused by: ${detail}` },
  };
}

export interface ReadCheckpointOptions {
  /**
   * Called once `_metadata` is read: the subtasks (taskStates keys) whose state files to read.
   * The others are left out of the result's taskStates, and their files are not read (as in
   * Flink, where the JobManager reads `_metadata` and each task downloads only its own state,
   * none at all when it restores from its local copy). Default: every subtask. It may be async:
   * a restart decides once the hosts' local copies are read, which runs beside the `_metadata` read.
   */
  select?: (metadata: CheckpointMetadata) => ReadonlySet<string> | Promise<ReadonlySet<string>>;
}

/**
 * Reads a checkpoint (or savepoint) directory back into the CompletedCheckpoint it was written
 * from, or the selected subtasks of it. A missing or corrupt file is an error value naming it
 * (restoring from it would fail).
 */
export async function readCompletedCheckpoint(storage: CheckpointFileReader, directory: string, options: ReadCheckpointOptions = {}): Promise<ReadCheckpointResult> {
  const metaPath = metadataPath(directory);
  const metaBytes = await storage.readFile(metaPath);
  if (!metaBytes) return notFound(directory, [metaPath], `java.io.FileNotFoundException: Cannot find meta data file '_metadata' in directory '${directory}'. Please try to load the checkpoint/savepoint directly from the metadata file instead of the directory.`);
  let metadata: CheckpointMetadata;
  try {
    metadata = decodeCheckpointMetadata(metaBytes);
  } catch (error) {
    return notFound(directory, [], `java.io.IOException: Cannot read ${metaPath}: ${(error as Error).message}`);
  }
  const selected = await options.select?.(metadata);
  const read = await readSubtaskStates(storage, directory, selected ? { ...metadata, subtasks: metadata.subtasks.filter((ref) => selected.has(ref.key)) } : metadata);
  return read.ok ? { ...read, metadata } : read;
}

/**
 * The state files (and the shared files they uploaded) of the subtasks `metadata` lists, as
 * `_metadata` references them: what a task downloads of its own handles once the JobManager sent
 * them, without reading `_metadata` itself. The result's checkpoint holds those subtasks' state.
 */
export async function readSubtaskStates(storage: CheckpointFileReader, directory: string, metadata: CheckpointMetadata): Promise<ReadCheckpointResult> {
  const missing: string[] = [];
  const corrupt: string[] = [];
  const sharedCache = new Map<string, unknown>();
  const taskStates = new Map<string, TaskStateSnapshot>();
  const refs = metadata.subtasks;
  // The state files are independent requests, in flight together (as each task downloads its own in Flink).
  // An inline state came with `_metadata`: nothing to read.
  const stateFiles = await Promise.all(refs.map((ref) => ref.inline ?? storage.readFile(ref.statePath)));
  for (const [r, ref] of refs.entries()) {
    const bytes = stateFiles[r];
    if (!bytes) {
      missing.push(ref.statePath);
      continue;
    }
    let snapshot: TaskStateSnapshot;
    try {
      snapshot = decodeTaskStateSnapshot(bytes, OWNED);
    } catch {
      corrupt.push(ref.statePath);
      continue;
    }
    if (snapshot.sharedFiles) {
      const handles: SharedFileHandle[] = [];
      for (let i = 0; i < snapshot.sharedFiles.length; i++) {
        const handle = snapshot.sharedFiles[i]!;
        const shared = ref.sharedFiles[i];
        if (!shared?.uploaded) {
          handles.push(handle);
          continue;
        }
        if (!sharedCache.has(shared.path)) {
          const fileBytes = await storage.readFile(shared.path);
          if (!fileBytes) {
            missing.push(shared.path);
            continue;
          }
          try {
            sharedCache.set(shared.path, decodeSharedFile(fileBytes, OWNED).contents);
          } catch {
            corrupt.push(shared.path);
            continue;
          }
        }
        handles.push({ ...handle, contents: sharedCache.get(shared.path) });
      }
      snapshot.sharedFiles = handles;
    }
    taskStates.set(ref.key, snapshot);
  }
  // Reused shared files must be there too, or the checkpoint cannot be restored.
  for (const ref of refs) {
    for (const f of ref.sharedFiles) {
      if (f.uploaded || sharedCache.has(f.path) || missing.includes(f.path)) continue;
      if ((await storage.list(f.path)).every((s) => s.path !== f.path)) missing.push(f.path);
    }
  }
  if (missing.length > 0) return notFound(directory, [...new Set(missing)].sort(), `java.io.FileNotFoundException: File does not exist: ${[...new Set(missing)].sort().join(', ')}`);
  if (corrupt.length > 0) return notFound(directory, [], `java.io.IOException: Corrupt state file(s): ${corrupt.sort().join(', ')}`);
  const checkpoint: CompletedCheckpoint = {
    id: metadata.checkpointId,
    isSavepoint: metadata.isSavepoint,
    triggerTimestamp: metadata.triggerTimestamp,
    completionTimestamp: metadata.completionTimestamp,
    externalPath: metadata.externalPath,
    taskStates,
    parallelism: metadata.parallelism,
    stateSize: metadata.stateSize,
    checkpointedSize: metadata.checkpointedSize,
  };
  return { ok: true, checkpoint, metadata };
}

/** A shared file's contents (restoring a reused SST run), or undefined if it is not there. */
export async function readSharedFile(storage: CheckpointFileReader, path: string): Promise<unknown> {
  const bytes = await storage.readFile(path);
  return bytes === undefined ? undefined : decodeSharedFile(bytes, OWNED).contents;
}

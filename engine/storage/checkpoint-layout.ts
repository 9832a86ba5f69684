/**
 * Where Flink puts a job's checkpoint files (FsCheckpointStorageAccess and
 * AbstractFsCheckpointStorageAccess), as pure path functions:
 *
 *   <checkpoint dir>/<job id>/chk-<n>/_metadata        the checkpoint's metadata (written last)
 *   <checkpoint dir>/<job id>/chk-<n>/<file>           state private to checkpoint n (exclusive)
 *   <checkpoint dir>/<job id>/shared/<file>            state several checkpoints share (incremental SST runs)
 *   <checkpoint dir>/<job id>/taskowned/<file>         state the TaskManagers own (never deleted by the JobManager)
 *   <savepoint dir>/savepoint-<job id[0..6)>-<12 hex>/_metadata   a savepoint: self-contained
 *
 * Flink draws the savepoint directory's 12 hex characters at random (FileUtils.getRandomFilename);
 * here they come from a seed, so a run is replayable.
 */
import type { SubtaskId } from '../protocol.ts';
import { RandomSource } from '../sim/random-source.ts';

/** The job's place in checkpoint storage (`execution.checkpointing.dir` and the job id). */
export interface CheckpointLocation {
  checkpointDir: string;
  jobId: string;
}

export const METADATA_FILE_NAME = '_metadata';
export const SHARED_STATE_DIR = 'shared';
export const TASK_OWNED_STATE_DIR = 'taskowned';
export const CHECKPOINT_DIR_PREFIX = 'chk-';
export const SAVEPOINT_DIR_PREFIX = 'savepoint-';

/** Drops trailing slashes (`s3://bucket/ckpts/` → `s3://bucket/ckpts`); a root (`/`, `file:///`) stays as it is. */
export function normalizeDirectory(dir: string): string {
  if (dir.length === 0) throw new RangeError('a checkpoint directory must not be empty');
  const out = dir.replace(/\/+$/, '');
  return out === '' || out.endsWith(':') ? dir : out;
}

function join(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

function checkName(name: string, what: string): void {
  if (name.length === 0 || name.includes('/')) throw new RangeError(`${what} must be a non-empty file name without '/', got ${JSON.stringify(name)}`);
}

/** `<checkpoint dir>/<job id>` */
export function jobDirectory(location: CheckpointLocation): string {
  checkName(location.jobId, 'a job id');
  return join(normalizeDirectory(location.checkpointDir), location.jobId);
}

/** `<checkpoint dir>/<job id>/chk-<n>` (Flink's exclusive checkpoint directory, and its external path) */
export function checkpointDirectory(location: CheckpointLocation, checkpointId: number): string {
  if (!Number.isSafeInteger(checkpointId) || checkpointId < 0) throw new RangeError(`a checkpoint id must be a non-negative integer, got ${checkpointId}`);
  return `${jobDirectory(location)}/${CHECKPOINT_DIR_PREFIX}${checkpointId}`;
}

/** `<directory>/_metadata`, for a checkpoint or a savepoint directory. */
export function metadataPath(directory: string): string {
  return `${directory}/${METADATA_FILE_NAME}`;
}

/** `<checkpoint dir>/<job id>/shared` */
export function sharedDirectory(location: CheckpointLocation): string {
  return `${jobDirectory(location)}/${SHARED_STATE_DIR}`;
}

export function sharedFilePath(location: CheckpointLocation, fileName: string): string {
  checkName(fileName, 'a shared file name');
  return `${sharedDirectory(location)}/${fileName}`;
}

/** `<checkpoint dir>/<job id>/taskowned` */
export function taskOwnedDirectory(location: CheckpointLocation): string {
  return `${jobDirectory(location)}/${TASK_OWNED_STATE_DIR}`;
}

export function taskOwnedFilePath(location: CheckpointLocation, fileName: string): string {
  checkName(fileName, 'a task-owned file name');
  return `${taskOwnedDirectory(location)}/${fileName}`;
}

/**
 * The file holding one subtask's private state inside a checkpoint (or savepoint) directory.
 * Flink names these with UUIDs; the playground names them after the subtask, so they are stable.
 */
export function exclusiveStatePath(directory: string, subtask: SubtaskId): string {
  return `${directory}/op-${encodeURIComponent(subtask.vertexId)}-${subtask.subtaskIndex}`;
}

/** The 12 lower-case hex characters Flink's `FileUtils.getRandomFilename` appends, from a seed. */
export function randomHex(seed: number, length = 12): string {
  const random = new RandomSource(seed);
  let out = '';
  for (let i = 0; i < length; i++) out += '0123456789abcdef'[random.nextInt(0, 15)];
  return out;
}

/** `<savepoint dir>/savepoint-<first 6 characters of the job id>-<12 hex from seed>` */
export function savepointDirectory(savepointDir: string, jobId: string, seed: number): string {
  return join(normalizeDirectory(savepointDir), `${SAVEPOINT_DIR_PREFIX}${jobId.slice(0, 6)}-${randomHex(seed)}`);
}

/** What a path under the job directory is. */
export type JobPath =
  | { kind: 'checkpoint'; checkpointId: number; /** inside chk-<n>/ */ name: string }
  | { kind: 'shared'; name: string }
  | { kind: 'taskowned'; name: string }
  /** under the job directory, but in no place Flink writes to */
  | { kind: 'other'; name: string };

/** Classifies `path` inside the job directory; undefined if it is not under it. */
export function parseJobPath(location: CheckpointLocation, path: string): JobPath | undefined {
  const root = `${jobDirectory(location)}/`;
  if (!path.startsWith(root)) return undefined;
  const rest = path.slice(root.length);
  const slash = rest.indexOf('/');
  if (slash > 0) {
    const dir = rest.slice(0, slash);
    const name = rest.slice(slash + 1);
    if (dir === SHARED_STATE_DIR) return { kind: 'shared', name };
    if (dir === TASK_OWNED_STATE_DIR) return { kind: 'taskowned', name };
    const id = /^chk-(0|[1-9][0-9]*)$/.exec(dir);
    if (id) return { kind: 'checkpoint', checkpointId: Number(id[1]), name };
  }
  return { kind: 'other', name: rest };
}

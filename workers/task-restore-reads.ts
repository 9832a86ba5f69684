/**
 * A TaskManager reads its own subtask's state for a restore, as Flink's tasks do
 * (PrioritizedOperatorSubtaskState read by the task, never shipped by the JobManager): the local
 * alternative from its host's disk first, checked against its checksums here, and only what it
 * cannot serve from remote storage (IndexedDB); then the share is cut as Flink's
 * StateAssignmentOperation does (assignRestoredState). The JobManager only names the handles.
 */
import { subtaskKey, type CompletedCheckpoint } from '../engine/checkpoint/completed-checkpoint.ts';
import { assignRestoredState, type AssignmentTarget, type SharedFileReader } from '../engine/checkpoint/state-assignment.ts';
import type { TaskStateSnapshot } from '../engine/protocol.ts';
import { verifyLocalCopy, type LocalCopy, type LocalRun } from '../engine/recovery/host-local-disk.ts';
import type { LocalRecoveryFallbackReason } from '../engine/recovery/local-recovery.ts';
import type { KeyGroupRange } from '../engine/state/key-group-range.ts';
import { readCompletedCheckpoint, readSharedFile, type CheckpointMetadata } from '../engine/storage/checkpoint-files.ts';
import type { CheckpointStorage } from '../engine/storage/checkpoint-storage.ts';
import type { TaskRestore } from '../engine/task/stream-task.ts';
import { readLocalCopy, type IndexedDbLocalDiskStore } from './storage/indexeddb-local-disk-store.ts';

/** What a deployment names of its subtask's state: no state bytes, only where to read them. */
export interface TaskRestoreHandles {
  checkpointId: number;
  /** the checkpoint's directory in remote storage (`_metadata` and the state files) */
  directory: string;
  /** each vertex's parallelism when the checkpoint was taken */
  parallelism: Record<string, number>;
  target: AssignmentTarget;
  /** the local alternative the plan chose: its path on the host's disk and, when only part of it serves, the key groups it serves and why not the rest */
  local?: { path: string; keyGroupRanges?: KeyGroupRange[]; reason?: LocalRecoveryFallbackReason };
}

/** A subtask's state as read: where it came from (and why not locally), and the bytes read. */
export interface TaskRestoreRead {
  restore: TaskRestore;
  source: 'local' | 'remote';
  /** why the local alternative (or part of it) did not serve */
  reason?: LocalRecoveryFallbackReason;
  bytes: number;
  remoteBytes: number;
}

/** Where a TaskManager reads: its host's disk (absent: the host has none) and remote checkpoint storage. */
export interface TaskRestoreStores {
  local?: IndexedDbLocalDiskStore;
  remote: CheckpointStorage;
}

/**
 * Reads subtask `handles.target`'s share: wholly from the local copy when it is there and intact
 * (every run it references too), else the intact key groups the plan named from it and the rest
 * from remote storage, else all from remote storage (`missing` or `corrupt`). A message when
 * remote storage cannot give what the local copy lacks.
 */
export async function readTaskRestore(handles: TaskRestoreHandles, stores: TaskRestoreStores): Promise<TaskRestoreRead | { error: string }> {
  const local = handles.local && stores.local ? await examineLocal(stores.local, handles.local.path) : { reason: 'missing' as const };
  const wholeLocal = 'snapshot' in local && handles.local?.keyGroupRanges === undefined;
  if (wholeLocal) {
    const assignment = assignRestoredState(shell(handles, new Map()), handles.target, local.snapshot, noRemote(handles));
    return { restore: assignment.restore, source: 'local', bytes: assignment.bytes, remoteBytes: 0 };
  }
  const remote = await readRemote(handles, stores.remote);
  if ('error' in remote) return remote;
  if ('snapshot' in local) {
    const localPart = { snapshot: local.snapshot, keyGroupRanges: handles.local!.keyGroupRanges!, bytes: local.bytes };
    const assignment = assignRestoredState(remote.checkpoint, handles.target, undefined, remote.sharedFile, localPart);
    return { restore: assignment.restore, source: 'remote', reason: handles.local!.reason ?? 'partial', bytes: assignment.bytes, remoteBytes: assignment.remoteBytes };
  }
  const assignment = assignRestoredState(remote.checkpoint, handles.target, undefined, remote.sharedFile);
  return { restore: assignment.restore, source: 'remote', reason: local.reason, bytes: assignment.bytes, remoteBytes: assignment.remoteBytes };
}

/** The local copy with its runs' contents put back, or why it cannot serve. */
async function examineLocal(store: IndexedDbLocalDiskStore, path: string): Promise<{ snapshot: TaskStateSnapshot; bytes: number } | { reason: 'missing' | 'corrupt' }> {
  const read = await readLocalCopy(store, path);
  if (!read) return { reason: 'missing' };
  if (!verifyLocalCopy(read.copy)) return { reason: 'corrupt' };
  const runs = new Map(read.runs.map((r) => [r.name, r]));
  if (read.copy.runs.some((name) => !runs.has(name))) return { reason: 'missing' };
  if (read.runs.some((r) => r.verifiedOnRead !== true)) return { reason: 'corrupt' };
  return { snapshot: withRuns(read.copy, runs), bytes: read.copy.bytes };
}

function withRuns(copy: LocalCopy, runs: ReadonlyMap<string, LocalRun>): TaskStateSnapshot {
  const { snapshot } = copy;
  if (!snapshot.sharedFiles) return snapshot;
  return { ...snapshot, sharedFiles: snapshot.sharedFiles.map((f) => ({ ...f, contents: runs.get(f.name)?.contents })) };
}

/**
 * The state files of the old subtasks the share is cut from (its own; after a rescale every old
 * subtask of its vertex) and the shared runs they reference, read from remote storage.
 */
async function readRemote(handles: TaskRestoreHandles, storage: CheckpointStorage): Promise<{ checkpoint: CompletedCheckpoint; sharedFile: SharedFileReader } | { error: string }> {
  const { target } = handles;
  const old = handles.parallelism[target.vertexId] ?? target.parallelism;
  const keys = new Set(old === target.parallelism ? [subtaskKey(target)] : Array.from({ length: old }, (_, i) => subtaskKey({ vertexId: target.vertexId, subtaskIndex: i })));
  const read = await readCompletedCheckpoint(storage, handles.directory, { select: () => keys });
  if (!read.ok) return { error: read.error.message };
  const shared = await readSharedRuns(storage, read.checkpoint, read.metadata);
  if (typeof shared === 'string') return { error: shared };
  return {
    checkpoint: read.checkpoint,
    sharedFile: (name) => {
      if (!shared.has(name)) throw new Error(`shared file ${name} is not in checkpoint ${read.checkpoint.id}`);
      return shared.get(name);
    },
  };
}

/** Every shared run the read state files reference: those uploaded with them came along, reused ones are read now. */
async function readSharedRuns(storage: CheckpointStorage, checkpoint: CompletedCheckpoint, metadata: CheckpointMetadata): Promise<Map<string, unknown> | string> {
  const contents = new Map<string, unknown>();
  for (const ref of metadata.subtasks) {
    const snapshot = checkpoint.taskStates.get(ref.key);
    if (!snapshot) continue;
    for (const [i, file] of ref.sharedFiles.entries()) {
      if (contents.has(file.name)) continue;
      const carried = snapshot.sharedFiles?.[i]?.contents;
      const value = carried !== undefined ? carried : await readSharedFile(storage, file.path);
      if (value === undefined) return `Failed to restore checkpoint ${checkpoint.id}: java.io.FileNotFoundException: File does not exist: ${file.path}`;
      contents.set(file.name, value);
    }
  }
  return contents;
}

/** The checkpoint as far as a whole-local restore needs it: its id and parallelism. */
function shell(handles: TaskRestoreHandles, taskStates: Map<string, TaskStateSnapshot>): CompletedCheckpoint {
  return { id: handles.checkpointId, isSavepoint: false, triggerTimestamp: 0, completionTimestamp: 0, externalPath: handles.directory, taskStates, parallelism: handles.parallelism, stateSize: 0, checkpointedSize: 0 };
}

/** A whole-local restore reads nothing remotely: its copy carries every run it references. */
function noRemote(handles: TaskRestoreHandles): SharedFileReader {
  return (name) => {
    throw new Error(`shared file ${name} of checkpoint ${handles.checkpointId} is not on the local copy`);
  };
}

/**
 * A TaskManager reads its own subtask's state for a restore, as Flink's tasks do
 * (PrioritizedOperatorSubtaskState read by the task, never shipped by the JobManager): the local
 * alternative from its host's disk first, checked here against its checksums handle by handle,
 * and only what it cannot serve from remote storage (IndexedDB), the files `_metadata` names for
 * the share; then the share is cut as Flink's StateAssignmentOperation does (assignRestoredState).
 * The JobManager only names the handles, from `_metadata` and its hosts' disk listings.
 */
import { subtaskKey, type CompletedCheckpoint } from '../engine/checkpoint/completed-checkpoint.ts';
import { assignRestoredState, assignedHandleRefs, type AssignmentTarget, type SharedFileReader } from '../engine/checkpoint/state-assignment.ts';
import type { TaskStateSnapshot } from '../engine/protocol.ts';
import { keyGroupHandlesOfCopy, verifyLocalCopy, type LocalCopy, type LocalRun } from '../engine/recovery/host-local-disk.ts';
import { verifyLocalHandle, type LocalKeyGroupsHandle } from '../engine/recovery/local-key-groups-handles.ts';
import { keyGroupsRestore, localHandles, type HandleRestore, type LocalRecoveryFallbackReason } from '../engine/recovery/local-recovery.ts';
import type { StateHandleRef } from '../engine/state/handles/operator-subtask-state.ts';
import type { KeyGroupRange } from '../engine/state/key-group-range.ts';
import { readCompletedCheckpoint, readSharedFile, readSubtaskStates, type CheckpointFileReader, type CheckpointMetadata, type ReadCheckpointResult } from '../engine/storage/checkpoint-files.ts';
import type { TaskRestore } from '../engine/task/stream-task.ts';
import { transferMs } from '../engine/storage/transfer-cost.ts';
import { readLocalCopy, type IndexedDbLocalDiskStore } from './storage/indexeddb-local-disk-store.ts';
import { measureRestorePhase } from './restore-phase-measures.ts';

/** What a deployment names of its subtask's state: no state bytes, only where to read them. */
export interface TaskRestoreHandles {
  checkpointId: number;
  /** the checkpoint's directory in remote storage (`_metadata` and the state files) */
  directory: string;
  /** each vertex's parallelism when the checkpoint was taken */
  parallelism: Record<string, number>;
  target: AssignmentTarget;
  /**
   * `_metadata` as the JobManager read it, with the references of only the old subtasks the share
   * is cut from (its own; after a rescale every old subtask of its vertex): the TaskManager reads
   * those state files and shared runs, never `_metadata` again. Absent: it reads `_metadata` itself.
   */
  remote?: CheckpointMetadata;
  /** the local alternative the plan chose: its path on the host's disk and, when only part of it serves, the key groups it serves and why not the rest */
  local?: { path: string; keyGroupRanges?: KeyGroupRange[]; reason?: LocalRecoveryFallbackReason };
  /** why the plan offers no local alternative (rescaled, different-slot, …); default `missing` */
  fallbackReason?: LocalRecoveryFallbackReason;
}

/** A subtask's state as read: where it came from (and why not locally), per handle, and the bytes read where. */
export interface TaskRestoreRead {
  restore: TaskRestore;
  source: 'local' | 'remote';
  /** why the local alternative (or part of it) did not serve */
  reason?: LocalRecoveryFallbackReason;
  bytes: number;
  remoteBytes: number;
  /** per handle of the share, where it came from and why (listed when the JobManager sent `_metadata`'s references) */
  handles?: HandleRestore[];
  /**
   * bytes read from the host's disk, those of handles found damaged included (the restore's
   * modelled local read): the stored files' bytes, as remote storage's model counts a state file's,
   * not the state's size
   */
  localBytesRead: number;
  /** what was read from remote storage: state files and shared runs */
  remoteRead: { bytes: number; requests: number };
}

/** Where a TaskManager reads: its host's disk (absent: the host has none) and remote checkpoint storage. */
export interface TaskRestoreStores {
  local?: IndexedDbLocalDiskStore;
  remote: CheckpointFileReader;
  /**
   * Job ms now (the TaskManager's job clock), to time each handle's read; and the host disk's
   * modelled cost, added to a local handle's measured read as the driver adds it to the subtask's
   * (remote reads sleep their modelled cost inside `remote`). Absent: handles carry no duration.
   */
  timing?: { now: () => number; local: { latencyMs: number; bandwidthMbPerS: number } };
}

/** What the local copy can serve once read and verified. */
type LocalExamination =
  | { usable: 'whole'; snapshot: TaskStateSnapshot; bytesRead: number; onDisk: DiskShare; handles: readonly LocalKeyGroupsHandle[] }
  | { usable: 'partly'; snapshot: TaskStateSnapshot; reason: LocalRecoveryFallbackReason; local: LocalKeyGroupsHandle[]; fallBack: HandleRestore[]; bytesRead: number; onDisk: DiskShare }
  | { usable: false; reason: LocalRecoveryFallbackReason; bytesRead: number };

/**
 * The bytes on the host's disk of a part of the copy given by its state size: its share of the
 * stored files. A handle is counted by what its file holds, as a remote state file is by its length.
 */
type DiskShare = (stateBytes: number) => number;

/**
 * Reads subtask `handles.target`'s share: wholly from the local copy when it is there and intact
 * (every run and key-group handle of it), else its intact key-group handles from it and the rest
 * from remote storage, else all from remote storage (`missing`, `partial` or `corrupt`). A
 * message when remote storage cannot give what the local copy lacks.
 */
export async function readTaskRestore(handles: TaskRestoreHandles, stores: TaskRestoreStores): Promise<TaskRestoreRead | { error: string }> {
  const clock = readClock(stores.timing);
  const local = handles.local && stores.local ? await examineLocal(stores.local, handles.local) : { usable: false as const, reason: handles.local ? ('missing' as const) : (handles.fallbackReason ?? 'missing'), bytesRead: 0 };
  const localMs = clock.lap();
  const share = handles.remote && shareHandles(handles, handles.remote);
  const remoteRead = { bytes: 0, requests: 0 };
  if (local.usable === 'whole') {
    const assigning = performance.now();
    const assignment = assignRestoredState(shell(handles, new Map()), handles.target, local.snapshot, noRemote(handles));
    measureRestorePhase('assignment', subtaskKey(handles.target), assigning);
    const listed = share ? { handles: clock.timed(localHandles(local.snapshot, local.handles), localMs, 0, local.onDisk) } : {};
    return { restore: assignment.restore, source: 'local', bytes: assignment.bytes, remoteBytes: 0, ...listed, localBytesRead: local.bytesRead, remoteRead };
  }
  const remoteStart = performance.now();
  const remote = await readRemote(handles, counted(stores.remote, remoteRead));
  measureRestorePhase('remote read (modelled cost included)', subtaskKey(handles.target), remoteStart);
  if ('error' in remote) return remote;
  const remoteMs = clock.lap();
  if (local.usable === 'partly') {
    const keyGroupRanges = local.local.map((h) => h.keyGroupRange);
    const localPart = { snapshot: local.snapshot, keyGroupRanges, bytes: local.local.reduce((n, h) => n + h.bytes, 0) };
    const assignment = assignRestoredState(remote.checkpoint, handles.target, undefined, remote.sharedFile, localPart);
    const keyed = [...local.local.map((h) => keyGroupsRestore(h, 'local')), ...local.fallBack].sort((a, b) => a.keyGroupRange!.start - b.keyGroupRange!.start);
    const listed = share ? { handles: clock.timed([...keyed, ...fellBack(share.filter((h) => !isKeyed(h)), local.reason)], localMs, remoteMs, local.onDisk) } : {};
    return { restore: assignment.restore, source: 'remote', reason: local.reason, bytes: assignment.bytes, remoteBytes: assignment.remoteBytes, ...listed, localBytesRead: local.bytesRead, remoteRead };
  }
  const assignment = assignRestoredState(remote.checkpoint, handles.target, undefined, remote.sharedFile);
  const listed = share ? { handles: clock.timed(fellBack(share, local.reason), localMs, remoteMs, (bytes) => bytes) } : {};
  return { restore: assignment.restore, source: 'remote', reason: local.reason, bytes: assignment.bytes, remoteBytes: assignment.remoteBytes, ...listed, localBytesRead: local.bytesRead, remoteRead };
}

/**
 * Times a subtask's reads: `lap()` is the job ms since the last lap (the read of the host's disk,
 * then of remote storage), and `timed` gives each handle the time of the read that brought it.
 * Handles read together (a local copy's key-group handles are one record; a share's keyed handles
 * one state file) each took that whole read; a local one also its modelled transfer, by its own
 * bytes on the disk (`onDisk`).
 */
function readClock(timing: TaskRestoreStores['timing']) {
  let last = timing?.now() ?? 0;
  return {
    lap(): number {
      const now = timing?.now() ?? 0;
      const ms = now - last;
      last = now;
      return ms;
    },
    timed(handles: HandleRestore[], localMs: number, remoteMs: number, onDisk: DiskShare): HandleRestore[] {
      if (!timing) return handles;
      const { latencyMs, bandwidthMbPerS } = timing.local;
      return handles.map((h) => (h.source === 'local' ? { ...h, durationMs: localMs + transferMs(onDisk(h.bytes), latencyMs, bandwidthMbPerS) } : h.source === 'remote' ? { ...h, durationMs: remoteMs } : h));
    },
  };
}

/**
 * The local copy with its runs' contents put back, and which of its key-group handles serve: the
 * present and intact ones the plan named (all of them when it named none); the others fall back
 * with their reason, `partial` for a handle not on the disk, `corrupt` for one that fails its checksum.
 */
async function examineLocal(store: IndexedDbLocalDiskStore, planned: NonNullable<TaskRestoreHandles['local']>): Promise<LocalExamination> {
  const read = await readLocalCopy(store, planned.path);
  if (!read) return { usable: false, reason: 'missing', bytesRead: 0 };
  // A damaged copy is only found out after reading it: those bytes were read for nothing.
  if (!verifyLocalCopy(read.copy)) return { usable: false, reason: 'corrupt', bytesRead: read.storedBytes };
  const runs = new Map(read.runs.map((r) => [r.name, r]));
  if (read.copy.runs.some((name) => !runs.has(name))) return { usable: false, reason: 'missing', bytesRead: 0 };
  if (read.runs.some((r) => r.verifiedOnRead !== true)) return { usable: false, reason: 'corrupt', bytesRead: read.storedBytes };
  const snapshot = withRuns(read.copy, runs);
  const handles = keyGroupHandlesOfCopy(read.copy);
  // The record holds every handle's bytes, those of handles lost from the copy too (its `bytes` then counts only what is left).
  const wholeState = handles.reduce((n, h) => n + h.bytes, 0) || read.copy.bytes;
  const onDisk: DiskShare = (stateBytes) => (wholeState > 0 ? Math.round((stateBytes * read.storedBytes) / wholeState) : 0);
  const local: LocalKeyGroupsHandle[] = [];
  const fallBack: HandleRestore[] = [];
  let wasted = 0;
  const checks = performance.now();
  for (const h of handles) {
    const named = planned.keyGroupRanges === undefined || planned.keyGroupRanges.some((r) => r.start <= h.keyGroupRange.start && h.keyGroupRange.end <= r.end);
    if (!h.present || !named) fallBack.push(keyGroupsRestore(h, 'remote', h.present ? (planned.reason ?? 'partial') : 'partial'));
    else if (!verifyLocalHandle(snapshot, h)) {
      fallBack.push(keyGroupsRestore(h, 'remote', 'corrupt'));
      wasted += h.bytes;
    } else local.push(h);
  }
  measureRestorePhase('key-group handle checks', planned.path, checks);
  if (fallBack.length === 0) return { usable: 'whole', snapshot, bytesRead: read.storedBytes, onDisk, handles };
  const reason = fallBack.some((h) => h.reason === 'partial') ? 'partial' : 'corrupt';
  if (local.length === 0) return { usable: false, reason, bytesRead: onDisk(wasted) };
  return { usable: 'partly', snapshot, reason, local, fallBack, bytesRead: onDisk(local.reduce((n, h) => n + h.bytes, wasted)), onDisk };
}

function withRuns(copy: LocalCopy, runs: ReadonlyMap<string, LocalRun>): TaskStateSnapshot {
  const { snapshot } = copy;
  if (!snapshot.sharedFiles) return snapshot;
  return { ...snapshot, sharedFiles: snapshot.sharedFiles.map((f) => ({ ...f, contents: runs.get(f.name)?.contents })) };
}

/** The handles of the share as `_metadata` lists them (its key-group ranges after a rescale). */
function shareHandles(handles: TaskRestoreHandles, metadata: CheckpointMetadata): StateHandleRef[] {
  const refs = new Map(metadata.subtasks.map((ref) => [ref.key, ref]));
  return assignedHandleRefs(handles.parallelism, handles.target, (key) => refs.get(key)?.handles);
}

function isKeyed(h: StateHandleRef): boolean {
  return h.kind === 'key-groups' || h.kind === 'incremental';
}

function fellBack(refs: readonly StateHandleRef[], reason: LocalRecoveryFallbackReason): HandleRestore[] {
  return refs.map((h) => ({ ...h, source: 'remote', reason }));
}

/**
 * The state files of the old subtasks the share is cut from (its own; after a rescale every old
 * subtask of its vertex) and the shared runs they reference, read from remote storage: the files
 * the JobManager's `_metadata` named, or, without them, as `_metadata` names them.
 */
async function readRemote(handles: TaskRestoreHandles, storage: CheckpointFileReader): Promise<{ checkpoint: CompletedCheckpoint; sharedFile: SharedFileReader } | { error: string }> {
  const read = handles.remote ? await readSubtaskStates(storage, handles.directory, handles.remote) : await readOwnMetadata(handles, storage);
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

function readOwnMetadata(handles: TaskRestoreHandles, storage: CheckpointFileReader): Promise<ReadCheckpointResult> {
  const { target } = handles;
  const old = handles.parallelism[target.vertexId] ?? target.parallelism;
  const keys = new Set(old === target.parallelism ? [subtaskKey(target)] : Array.from({ length: old }, (_, i) => subtaskKey({ vertexId: target.vertexId, subtaskIndex: i })));
  return readCompletedCheckpoint(storage, handles.directory, { select: () => keys });
}

/** Every shared run the read state files reference: those uploaded with them came along, reused ones are read now. */
async function readSharedRuns(storage: CheckpointFileReader, checkpoint: CompletedCheckpoint, metadata: CheckpointMetadata): Promise<Map<string, unknown> | string> {
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

/** The store, counting the bytes and requests of the reads made through it (this subtask's only, whatever else reads the store meanwhile). */
function counted(storage: CheckpointFileReader, read: { bytes: number; requests: number }): CheckpointFileReader {
  return {
    readFile: async (path) => {
      read.requests++;
      const bytes = await storage.readFile(path);
      read.bytes += bytes?.byteLength ?? 0;
      return bytes;
    },
    list: (prefix) => {
      read.requests++;
      return storage.list(prefix);
    },
  };
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

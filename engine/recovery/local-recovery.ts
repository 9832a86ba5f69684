import type { SubtaskId, TaskStateSnapshot } from '../protocol.ts';
import type { CostSpec } from '../scenario/scenario-types.ts';
import { transferMs } from '../storage/transfer-cost.ts';
import type { StateHandleRef } from '../state/handles/operator-subtask-state.ts';
import type { KeyGroupRange } from '../state/key-group-range.ts';
import { keyGroupHandlesOfCopy, verifyLocalCopy, type HostLocalDisk, type LocalCopy, type LocalRun } from './host-local-disk.ts';
import { verifyLocalHandle, type LocalKeyGroupsHandle } from './local-key-groups-handles.ts';

/** Why a subtask did not restore from its local copy (checked in this order). */
export type LocalRecoveryFallbackReason =
  /** `execution.state-recovery.from-local` is false */
  | 'local-recovery-disabled'
  /** the vertex's parallelism changed: the remote state is split or merged, no local copy matches it */
  | 'rescaled'
  /** the subtask did not run before (first deployment, or a savepoint loaded into a new job) */
  | 'no-previous-slot'
  /** the subtask restarts in another slot (its TaskManager died, or its slot went to someone else) */
  | 'different-slot'
  /** the slot is on another host than before, so its disk is another one */
  | 'different-host'
  /** the disk has no copy of exactly this checkpoint (never written, pruned, deleted, or wiped with the host), or lacks a shared run it references */
  | 'missing'
  /** the local write stopped part way (a failed local copy never fails the checkpoint) */
  | 'partial'
  /** the copy, or a shared run it references, no longer matches its checksum */
  | 'corrupt';

/** Every fallback reason, in the order they are checked (an expectation names one). */
export const LOCAL_RECOVERY_FALLBACK_REASONS = [
  'local-recovery-disabled',
  'rescaled',
  'no-previous-slot',
  'different-slot',
  'different-host',
  'missing',
  'partial',
  'corrupt',
] as const satisfies readonly LocalRecoveryFallbackReason[];

/** The storage costs of the scenario that a restore reads over. */
export type RestoreCosts = Pick<CostSpec, 'local_latency_ms' | 'local_bandwidth_mb_per_s' | 'remote_latency_ms' | 'remote_bandwidth_mb_per_s'>;

/** A slot as the restore sees it: which allocation, on which host's disk. */
export interface SlotLocation {
  slotId: string;
  host: string;
}

export interface SubtaskRestoreRequest {
  jobId: string;
  subtask: SubtaskId;
  /** the checkpoint (or savepoint) being restored */
  checkpointId: number;
  /** `execution.state-recovery.from-local` (config.localRecovery) */
  localRecovery: boolean;
  /** the vertex's parallelism differs from the checkpoint's */
  rescaled: boolean;
  /** where the subtask ran before the failure (undefined: it did not run) */
  previousSlot: SlotLocation | undefined;
  /** where it restarts now */
  slot: SlotLocation;
  /** the disk of `slot.host` (undefined when the host has none) */
  disk: HostLocalDisk | undefined;
  /** the subtask's share of the checkpoint in remote storage: its bytes, or 'missing' when it cannot be read */
  remote: { bytes: number } | 'missing';
  /** the handles of that share (its key-group ranges after a rescale), for the report; absent: not known (listed as none) */
  remoteHandles?: readonly StateHandleRef[];
  costs: RestoreCosts;
  /**
   * How the local copy is examined: `verified` (default) reads it and checks its checksums, as a
   * task does (the sim, whose disks hold the bytes in memory); `listed` decides from the disk's
   * listing alone (which copies, handles and runs are on it, their sizes and recorded checksums),
   * reading no state bytes: the live JobManager, whose TaskManagers read and verify their copies
   * themselves and fall back per handle (workers/task-restore-reads.ts).
   */
  localCopies?: 'verified' | 'listed';
}

/**
 * Where one subtask's state comes from (Flink's PrioritizedOperatorSubtaskState with
 * BackendRestorerProcedure): the local copy when it can be used, else the remote copy, with the
 * reason local was not used. `durationMs` includes a local read that turned out corrupt.
 */
export type SubtaskRestoreDecision =
  | { source: 'local'; bytes: number; durationMs: number; snapshot: TaskStateSnapshot; handles: HandleRestore[] }
  | { source: 'remote'; reason: LocalRecoveryFallbackReason; bytes: number; durationMs: number; handles: HandleRestore[]; localPart?: LocalPart }
  | { source: 'failed'; reason: string; localReason: LocalRecoveryFallbackReason; handles: HandleRestore[] };

/**
 * Where one state handle of a subtask was restored from (Flink's BackendRestorerProcedure trying
 * the alternatives of PrioritizedOperatorSubtaskState in order): the local alternative, the remote
 * (job manager's) copy with the reason the local one could not serve, or nowhere. `durationMs`:
 * how long reading it took (absent for a failed handle and in older traces). The sim models it
 * (withModelledReadMs); the live runtime measures its TaskManager's read and adds the modelled transfer.
 */
export type HandleRestore = StateHandleRef & { source: 'local' | 'remote' | 'failed'; reason?: LocalRecoveryFallbackReason; durationMs?: number };

/**
 * A handle's modelled read: its bytes over the latency and bandwidth of where it came from (each
 * handle a file of its own, one request each, as Flink reads them); nothing for an empty or failed one.
 */
export function withModelledReadMs(handle: HandleRestore, costs: RestoreCosts): HandleRestore {
  if (handle.source === 'failed') return handle;
  const durationMs = handle.source === 'local' ? readMs(handle.bytes, costs.local_latency_ms, costs.local_bandwidth_mb_per_s) : readMs(handle.bytes, costs.remote_latency_ms, costs.remote_bandwidth_mb_per_s);
  return { ...handle, durationMs };
}

/**
 * The part of a partial or partly damaged local copy a restore still reads locally: the key groups
 * of its intact handles (every other handle comes from remote storage).
 */
export interface LocalPart {
  snapshot: TaskStateSnapshot;
  keyGroupRanges: KeyGroupRange[];
  bytes: number;
}

/**
 * Decides one subtask's restore, handle by handle (PrioritizedOperatorSubtaskState): the local
 * copy is tried first and used only if local recovery is on, the subtask is back in its exact
 * previous slot on the same host, the parallelism did not change, and exactly this checkpoint's
 * copy passes its checksum. Then each of its key-group handles that is on the disk and intact
 * restores locally, and only the others from the remote copy, transparently; a handle that can
 * be read from neither fails the restore, with both reasons.
 * Reads the disk, changes nothing: pruning after the restore is the caller's (`pruneAllBut`).
 */
export function decideSubtaskRestore(request: SubtaskRestoreRequest): SubtaskRestoreDecision {
  const local = examineLocalCopy(request);
  const { costs } = request;
  if (local.usable === true) {
    const durationMs = readMs(local.bytes, costs.local_latency_ms, costs.local_bandwidth_mb_per_s);
    return { source: 'local', bytes: local.bytes, durationMs, snapshot: local.snapshot, handles: localHandles(local.snapshot, local.handles) };
  }
  if (local.usable === 'partly') return decidePartly(request, local);
  // A corrupt copy is only found out after reading it; a partial one is known from its missing marker.
  const wastedMs = local.reason === 'corrupt' ? readMs(local.bytes, costs.local_latency_ms, costs.local_bandwidth_mb_per_s) : 0;
  if (request.remote === 'missing') {
    return { source: 'failed', reason: failureMessage(request, local.reason), localReason: local.reason, handles: remoteHandles(request, 'failed', local.reason) };
  }
  const { bytes } = request.remote;
  const durationMs = wastedMs + readMs(bytes, costs.remote_latency_ms, costs.remote_bandwidth_mb_per_s);
  return { source: 'remote', reason: local.reason, bytes, durationMs, handles: remoteHandles(request, 'remote', local.reason) };
}

/**
 * A copy with some intact key-group handles: those restore locally, the missing and damaged ones
 * from remote storage, each with its reason; the subtask fails only if remote storage cannot give
 * what the local copy lacks.
 */
function decidePartly(request: SubtaskRestoreRequest, local: PartlyUsable): SubtaskRestoreDecision {
  const { costs } = request;
  const keyed = [
    ...local.local.map((h) => keyGroupsRestore(h, 'local')),
    ...local.remote.map((r) => keyGroupsRestore(r.handle, request.remote === 'missing' ? 'failed' : 'remote', r.reason)),
  ].sort((a, b) => a.keyGroupRange!.start - b.keyGroupRange!.start);
  const handles = [...keyed, ...nonKeyedRemote(request, request.remote === 'missing' ? 'failed' : 'remote', local.reason)];
  if (request.remote === 'missing') return { source: 'failed', reason: failureMessage(request, local.reason), localReason: local.reason, handles };
  const localBytes = sum(local.local);
  const remoteBytes = Math.max(0, request.remote.bytes - localBytes);
  const durationMs = readMs(localBytes + local.wastedBytes, costs.local_latency_ms, costs.local_bandwidth_mb_per_s) + readMs(remoteBytes, costs.remote_latency_ms, costs.remote_bandwidth_mb_per_s);
  const localPart = { snapshot: local.snapshot, keyGroupRanges: local.local.map((h) => h.keyGroupRange), bytes: localBytes };
  return { source: 'remote', reason: local.reason, bytes: request.remote.bytes, durationMs, handles, localPart };
}

export function keyGroupsRestore(h: LocalKeyGroupsHandle, source: HandleRestore['source'], reason?: LocalRecoveryFallbackReason): HandleRestore {
  return { kind: 'key-groups', keyGroupRange: h.keyGroupRange, bytes: h.bytes, source, ...(reason === undefined ? {} : { reason }) };
}

/** A local restore: the copy's key-group handles, or its one keyed handle (an incremental copy), all from the disk. */
export function localHandles(snapshot: TaskStateSnapshot, handles: readonly LocalKeyGroupsHandle[]): HandleRestore[] {
  if (handles.length === 0) return [{ kind: snapshot.sharedFiles ? 'incremental' : 'key-groups', bytes: snapshot.stateSize, source: 'local' }];
  return handles.map((h) => keyGroupsRestore(h, 'local'));
}

function remoteHandles(request: SubtaskRestoreRequest, source: 'remote' | 'failed', reason: LocalRecoveryFallbackReason): HandleRestore[] {
  return (request.remoteHandles ?? []).map((h) => ({ ...h, source, reason }));
}

/** Task-local recovery covers keyed state only: operator and channel state always come from remote storage. */
function nonKeyedRemote(request: SubtaskRestoreRequest, source: 'remote' | 'failed', reason: LocalRecoveryFallbackReason): HandleRestore[] {
  return remoteHandles(request, source, reason).filter((h) => h.kind !== 'key-groups' && h.kind !== 'incremental');
}

function sum(handles: readonly LocalKeyGroupsHandle[]): number {
  return handles.reduce((n, h) => n + h.bytes, 0);
}

export interface LocalCopyWrite {
  /** `execution.checkpointing.local-backup.enabled` (config.localBackupEnabled) */
  localBackupEnabled: boolean;
  isSavepoint: boolean;
  /** this subtask's snapshot was unaligned (SubtaskCheckpointMetrics.unalignedCheckpoint) */
  unalignedCheckpoint: boolean;
  snapshot: TaskStateSnapshot;
}

/**
 * Whether a task writes a secondary, local copy of this snapshot. Flink writes one for
 * checkpoints only (never savepoints), not with unaligned checkpoints, and only of keyed state
 * ("local recovery currently only covers keyed state backends").
 */
export function writesLocalCopy(w: LocalCopyWrite): boolean {
  return w.localBackupEnabled && !w.isSavepoint && !w.unalignedCheckpoint && w.snapshot.keyedState !== undefined;
}

/**
 * A task-local copy of `snapshot` and what writing it costs. An incremental snapshot carries the
 * contents of the runs it uploaded only; its local copy references every run (Flink's native
 * RocksDB checkpoint hard-links all the DB's SST files): the runs the subtask's store on the disk
 * lacks (say, after a remote restore) come from the task's own backend (`runContents`), never from
 * remote storage, and the runs the disk holds already are linked, not written.
 */
export function localCopyOf(snapshot: TaskStateSnapshot, heldRuns: ReadonlySet<string>, runContents: (name: string) => unknown): { copy: TaskStateSnapshot; writtenBytes: number } {
  if (!snapshot.sharedFiles) return { copy: snapshot, writtenBytes: snapshot.stateSize };
  const sharedFiles = snapshot.sharedFiles.map((f) => {
    if (f.contents !== undefined || heldRuns.has(f.name)) return f;
    const contents = runContents(f.name);
    return contents === undefined ? f : { ...f, contents };
  });
  const linked = sharedFiles.reduce((n, f, i) => n + (snapshot.sharedFiles![i]!.contents === undefined && f.contents === undefined ? f.sizeBytes : 0), 0);
  return { copy: { ...snapshot, sharedFiles }, writtenBytes: snapshot.stateSize - linked };
}

type PartlyUsable = {
  usable: 'partly';
  reason: 'partial' | 'corrupt';
  snapshot: TaskStateSnapshot;
  local: LocalKeyGroupsHandle[];
  remote: Array<{ handle: LocalKeyGroupsHandle; reason: 'partial' | 'corrupt' }>;
  /** bytes of damaged handles read before their checksum failed */
  wastedBytes: number;
};

type LocalExamination =
  | { usable: true; bytes: number; snapshot: TaskStateSnapshot; handles: readonly LocalKeyGroupsHandle[] }
  | PartlyUsable
  | { usable: false; reason: LocalRecoveryFallbackReason; bytes: number };

function examineLocalCopy(r: SubtaskRestoreRequest): LocalExamination {
  const unusable = (reason: LocalRecoveryFallbackReason, bytes = 0): LocalExamination => ({ usable: false, reason, bytes });
  if (!r.localRecovery) return unusable('local-recovery-disabled');
  if (r.rescaled) return unusable('rescaled');
  if (!r.previousSlot) return unusable('no-previous-slot');
  if (r.previousSlot.slotId !== r.slot.slotId) return unusable('different-slot');
  if (r.previousSlot.host !== r.slot.host) return unusable('different-host');
  const copy = r.disk?.retrieve({ allocationId: r.slot.slotId, jobId: r.jobId, subtask: r.subtask }, r.checkpointId);
  if (!copy) return unusable('missing');
  const handles = keyGroupHandlesOfCopy(copy);
  if (!copy.complete && !handles.some((h) => h.present)) return unusable('partial');
  if (r.localCopies === 'listed') return examineListed(copy, r.disk!.runsOf(copy.key), handles);
  if (!verifyLocalCopy(copy)) return unusable('corrupt', copy.bytes);
  // An incremental copy: every run it references, the reused ones too, from this disk only.
  const runs = r.disk!.readRuns(copy);
  if (!runs.ok) return unusable(runs.reason, runs.reason === 'corrupt' ? copy.bytes : 0);
  return examineHandles(runs.snapshot, copy.bytes, handles);
}

/**
 * A copy as the disk's listing shows it: every run it references listed beside it (a run the
 * listing lacks is `missing`), and its present handles taken as they are listed. Damage is only
 * found by reading: the task that reads the copy verifies it and falls back then.
 */
function examineListed(copy: LocalCopy, runs: readonly LocalRun[], handles: readonly LocalKeyGroupsHandle[]): LocalExamination {
  const listed = new Set(runs.map((run) => run.name));
  if (copy.runs.some((name) => !listed.has(name))) return { usable: false, reason: 'missing', bytes: 0 };
  return examineHandles(copy.snapshot, copy.bytes, handles, false);
}

/** Each key-group handle of a copy on its own: present and intact ones serve locally, the others fall back. */
function examineHandles(snapshot: TaskStateSnapshot, bytes: number, handles: readonly LocalKeyGroupsHandle[], verify = true): LocalExamination {
  const local: LocalKeyGroupsHandle[] = [];
  const remote: PartlyUsable['remote'] = [];
  for (const h of handles) {
    if (!h.present) remote.push({ handle: h, reason: 'partial' });
    else if (verify && !verifyLocalHandle(snapshot, h)) remote.push({ handle: h, reason: 'corrupt' });
    else local.push(h);
  }
  if (remote.length === 0) return { usable: true, bytes, snapshot, handles };
  const reason = remote.some((x) => x.reason === 'partial') ? 'partial' : 'corrupt';
  const wastedBytes = remote.reduce((n, x) => n + (x.reason === 'corrupt' ? x.handle.bytes : 0), 0);
  if (local.length === 0) return { usable: false, reason, bytes: wastedBytes };
  return { usable: 'partly', reason, snapshot, local, remote, wastedBytes };
}

function readMs(bytes: number, latencyMs: number, bandwidthMbPerS: number): number {
  return bytes > 0 ? transferMs(bytes, latencyMs, bandwidthMbPerS) : 0;
}

function failureMessage(r: SubtaskRestoreRequest, localReason: LocalRecoveryFallbackReason): string {
  const who = `${r.subtask.vertexId}#${r.subtask.subtaskIndex}`;
  return `cannot restore ${who} from checkpoint ${r.checkpointId}: the remote copy is missing and the local copy cannot be used (${localReason})`;
}

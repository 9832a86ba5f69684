import type { TaskStateSnapshot } from '../protocol.ts';
import type { KeyedStateSnapshot } from '../state/keyed-state-backend.ts';
import { intersectHandle, keyGroupsStateHandleOf, keyGroupsWhere, type KeyGroupsState } from '../state/handles/key-groups-state-handle.ts';
import { operatorSubtaskStateOf, stateHandleRefsOf, type StateHandleRef } from '../state/handles/operator-subtask-state.ts';
import { containsKeyGroup, intersectKeyGroups, keyGroupCount, type KeyGroupRange } from '../state/key-group-range.ts';
import type { TaskRestore } from '../task/stream-task.ts';
import { subtaskKey, type CompletedCheckpoint } from './completed-checkpoint.ts';
import { message, renderEnglish } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

/** One subtask's share of a checkpoint, and how many bytes it reads to restore. */
export interface SubtaskAssignment {
  restore: TaskRestore;
  bytes: number;
}

export interface AssignmentTarget {
  vertexId: string;
  subtaskIndex: number;
  parallelism: number;
  keyGroupRange: KeyGroupRange;
}

/** Why a checkpoint cannot be restored with the requested parallelism (in English), or undefined when it can. */
export function rescaleProblem(checkpoint: CompletedCheckpoint, vertexId: string, parallelism: number, isSource: boolean, edges: readonly JobEdgeEnds[]): string | undefined {
  const refusal = rescaleRefusal(checkpoint, vertexId, parallelism, isSource, edges);
  return refusal === undefined ? undefined : renderEnglish(refusal);
}

/** Why a checkpoint cannot be restored with the requested parallelism, as a message, or undefined when it can. */
export function rescaleRefusal(checkpoint: CompletedCheckpoint, vertexId: string, parallelism: number, isSource: boolean, edges: readonly JobEdgeEnds[]): EngineMessage | undefined {
  const old = checkpoint.parallelism[vertexId];
  if (old === undefined || old === parallelism) return undefined;
  if (isSource) return message('refusal.rescale-source', { vertex: vertexId, splits: old });
  const holder = inFlightDataAcross(checkpoint, vertexId, edges);
  if (holder === undefined) return undefined;
  return message('refusal.rescale-in-flight', { vertex: vertexId, checkpoint: checkpoint.id, holder });
}

/** The ends of a job edge, as far as rescaling cares. */
export interface JobEdgeEnds {
  from: string;
  to: string;
}

/**
 * Which vertex holds unaligned in-flight data on a channel whose other end a rescale of `vertexId`
 * would change, or undefined: the vertex's own channels, what an upstream vertex persisted on its
 * outputs (partitioned for the old parallelism) and what a downstream one persisted on its inputs
 * (one channel per old upstream subtask). Flink redistributes such channel state on a rescale
 * (since 1.13); the playground does not yet, and replaying it to the wrong subtasks would write
 * window results twice and lose others, so it refuses.
 */
function inFlightDataAcross(checkpoint: CompletedCheckpoint, vertexId: string, edges: readonly JobEdgeEnds[]): EngineMessage | undefined {
  const upstream = new Set(edges.filter((e) => e.to === vertexId).map((e) => e.from));
  const downstream = new Set(edges.filter((e) => e.from === vertexId).map((e) => e.to));
  for (const [key, snapshot] of checkpoint.taskStates) {
    const owner = key.slice(0, key.lastIndexOf('#'));
    const inputs = (snapshot.channelState?.inputs.length ?? 0) > 0;
    const outputs = (snapshot.channelState?.outputs.length ?? 0) > 0;
    if (owner === vertexId && (inputs || outputs)) return message('refusal.holder-self', { vertex: vertexId });
    if (upstream.has(owner) && outputs) return message('refusal.holder-upstream', { vertex: owner });
    if (downstream.has(owner) && inputs) return message('refusal.holder-downstream', { vertex: owner });
  }
  return undefined;
}

/**
 * Assigns a completed checkpoint's state to a subtask, as Flink's StateAssignmentOperation:
 * with the same parallelism each subtask gets its own snapshot back; with another parallelism
 * each new subtask takes the key groups of its range from every old snapshot that overlaps it
 * (reDistributeKeyedStates), and list-style operator state (pending sink transactions) is
 * spread round robin.
 */
export function assignSubtaskState(checkpoint: CompletedCheckpoint, target: AssignmentTarget, sharedFile: SharedFileReader): SubtaskAssignment {
  const oldParallelism = checkpoint.parallelism[target.vertexId] ?? target.parallelism;
  if (oldParallelism === target.parallelism) return sameParallelism(checkpoint, target, sharedFile);
  const restore: TaskRestore = { checkpointId: checkpoint.id, keyedState: [], pendingTransactions: [] };
  let bytes = 0;
  for (let old = 0; old < oldParallelism; old++) {
    const snapshot = checkpoint.taskStates.get(subtaskKey({ vertexId: target.vertexId, subtaskIndex: old }));
    if (!snapshot) continue;
    const range = keyGroupRangeOf(snapshot);
    const overlap = range ? intersectKeyGroups(range, target.keyGroupRange) : undefined;
    if (range && overlap) {
      addKeyedState(restore, snapshot, sharedFile, target.keyGroupRange);
      bytes += Math.round((snapshot.stateSize * keyGroupCount(overlap)) / keyGroupCount(range));
    }
    if (old % target.parallelism === target.subtaskIndex) restore.pendingTransactions!.push(...(snapshot.pendingTransactions ?? []));
  }
  return { restore, bytes };
}

/**
 * A subtask's share of a checkpoint as its restore plan has it: its own part from its host's
 * local copy when there is one (the copy carries every shared run it references), else all from
 * remote; with the bytes of it read from remote storage (runs the local copy did not carry).
 * With `localPart`, the copy serves only the key groups of its intact handles, and the rest of the
 * keyed state and all other state come from remote storage.
 */
export function assignRestoredState(
  checkpoint: CompletedCheckpoint,
  target: AssignmentTarget,
  localCopy: TaskStateSnapshot | undefined,
  sharedFile: SharedFileReader,
  localPart?: { snapshot: TaskStateSnapshot; keyGroupRanges: readonly KeyGroupRange[]; bytes: number },
): SubtaskAssignment & { remoteBytes: number } {
  if (localPart) return mixedAssignment(checkpoint, target, localPart, sharedFile);
  if (!localCopy) {
    const assignment = assignSubtaskState(checkpoint, target, sharedFile);
    return { ...assignment, remoteBytes: assignment.bytes };
  }
  const sizes = new Map<string, number>();
  for (const s of checkpoint.taskStates.values()) for (const f of s.sharedFiles ?? []) sizes.set(f.name, f.sizeBytes);
  const carried = new Map((localCopy.sharedFiles ?? []).map((f) => [f.name, f.contents]));
  let remoteBytes = 0;
  const local = { ...checkpoint, taskStates: new Map(checkpoint.taskStates).set(subtaskKey(target), localCopy) };
  const assignment = assignSubtaskState(local, target, (name) => {
    if (carried.get(name) !== undefined) return carried.get(name);
    remoteBytes += sizes.get(name) ?? 0;
    return sharedFile(name);
  });
  return { ...assignment, remoteBytes };
}

/**
 * A restore that mixes one subtask's alternatives per key-group handle: the key groups of the
 * local part from the host's copy, every other key group, and the operator and channel state, from
 * the checkpoint's (remote) snapshot.
 */
function mixedAssignment(checkpoint: CompletedCheckpoint, target: AssignmentTarget, localPart: { snapshot: TaskStateSnapshot; keyGroupRanges: readonly KeyGroupRange[]; bytes: number }, sharedFile: SharedFileReader): SubtaskAssignment & { remoteBytes: number } {
  const remote = sameParallelism(checkpoint, target, sharedFile);
  const isLocal = (keyGroup: number) => localPart.keyGroupRanges.some((r) => containsKeyGroup(r, keyGroup));
  const local = localPart.snapshot.keyedState as KeyGroupsState;
  const keyedState = [keyGroupsWhere(local, isLocal), ...remote.restore.keyedState.map((k) => keyGroupsWhere(k as KeyGroupsState, (g) => !isLocal(g)))] as KeyedStateSnapshot[];
  return { restore: { ...remote.restore, keyedState }, bytes: remote.bytes, remoteBytes: Math.max(0, remote.bytes - localPart.bytes) };
}

/**
 * The handles a subtask of the new graph reads from the checkpoint (its share, for the restore
 * report): its own with the same parallelism; after a rescale the part of every old keyed handle
 * inside its key-group range, and the operator state round robin gives it.
 */
export function assignedHandles(checkpoint: CompletedCheckpoint, target: AssignmentTarget): StateHandleRef[] {
  return assignedHandleRefs(checkpoint.parallelism, target, (key) => {
    const snapshot = checkpoint.taskStates.get(key);
    return snapshot && stateHandleRefsOf(operatorSubtaskStateOf(snapshot));
  });
}

/**
 * The same from each old subtask's handle references (`vertex#index` → its handles), as
 * `_metadata` lists them: the live JobManager plans and reports per handle without reading state.
 */
export function assignedHandleRefs(parallelism: Readonly<Record<string, number>>, target: AssignmentTarget, handlesOf: (key: string) => readonly StateHandleRef[] | undefined): StateHandleRef[] {
  const oldParallelism = parallelism[target.vertexId] ?? target.parallelism;
  if (oldParallelism === target.parallelism) return [...(handlesOf(subtaskKey(target)) ?? [])];
  const refs: StateHandleRef[] = [];
  for (let old = 0; old < oldParallelism; old++) {
    const handles = handlesOf(subtaskKey({ vertexId: target.vertexId, subtaskIndex: old })) ?? [];
    for (const h of handles) {
      if (h.kind !== 'key-groups' && h.kind !== 'incremental') continue;
      const overlap = intersectKeyGroups(h.keyGroupRange!, target.keyGroupRange);
      if (overlap) refs.push({ kind: h.kind, keyGroupRange: overlap, bytes: Math.round((h.bytes * keyGroupCount(overlap)) / keyGroupCount(h.keyGroupRange!)) });
    }
    if (old % target.parallelism === target.subtaskIndex) refs.push(...handles.filter((h) => h.kind === 'operator').map((h) => ({ kind: h.kind, bytes: h.bytes })));
  }
  return refs;
}

/** Reads a shared file of an incremental checkpoint from checkpoint storage. */
export type SharedFileReader = (name: string) => unknown;

/** A snapshot's keyed state is either whole (KeyedStateSnapshot) or incremental ({ incremental: private state }). */
function keyGroupRangeOf(snapshot: TaskStateSnapshot): KeyGroupRange | undefined {
  const keyed = snapshot.keyedState as (KeyedStateSnapshot & { incremental?: { keyGroupRange: KeyGroupRange } }) | undefined;
  if (!keyed) return undefined;
  return keyed.incremental ? keyed.incremental.keyGroupRange : keyed.keyGroupRange;
}

/**
 * Adds a snapshot's keyed state to a restore; with `owned` (a rescale), of a full snapshot only
 * the key groups of that range (KeyGroupsStateHandle.getIntersection: the rest is never read). An
 * incremental one is restored whole and clipped by the backend, as RocksDB does.
 */
function addKeyedState(restore: TaskRestore, snapshot: TaskStateSnapshot, sharedFile: SharedFileReader, owned?: KeyGroupRange): void {
  const keyed = snapshot.keyedState as (KeyedStateSnapshot & { incremental?: unknown }) | undefined;
  if (!keyed) return;
  if (keyed.incremental === undefined) {
    const part = owned ? intersectHandle(keyGroupsStateHandleOf(keyed, snapshot.stateSize), owned) : undefined;
    restore.keyedState.push((part ? part.state : keyed) as KeyedStateSnapshot);
    return;
  }
  const files = (snapshot.sharedFiles ?? []).map((f) => sharedFile(f.name));
  (restore.incremental ??= []).push({ privateState: keyed.incremental, files });
}

function sameParallelism(checkpoint: CompletedCheckpoint, target: AssignmentTarget, sharedFile: SharedFileReader): SubtaskAssignment {
  const snapshot = checkpoint.taskStates.get(subtaskKey(target));
  if (!snapshot) return { restore: { checkpointId: checkpoint.id, keyedState: [], pendingTransactions: [] }, bytes: 0 };
  const restore: TaskRestore = { checkpointId: checkpoint.id, keyedState: [], pendingTransactions: snapshot.pendingTransactions ?? [] };
  addKeyedState(restore, snapshot, sharedFile);
  if (snapshot.sourceOffset !== undefined) restore.sourceOffset = snapshot.sourceOffset;
  if (snapshot.channelState) restore.channelState = snapshot.channelState;
  return { restore, bytes: snapshot.stateSize };
}

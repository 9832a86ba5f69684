import type { TaskStateSnapshot } from '../../protocol.ts';
import type { KeyedStateSnapshot } from '../keyed-state-backend.ts';
import type { KeyGroupRange } from '../key-group-range.ts';
import { isCompressedSnapshot } from '../snapshot-compression.ts';
import { buffersSize, type InputChannelStateHandle, type ResultSubpartitionStateHandle } from './channel-state-handles.ts';
import type { IncrementalRemoteKeyedStateHandle } from './incremental-remote-keyed-state-handle.ts';
import { keyGroupsStateHandleOf, type KeyGroupsStateHandle } from './key-groups-state-handle.ts';
import type { OperatorStateHandle } from './operator-state-handle.ts';

export type KeyedStateHandle = KeyGroupsStateHandle | IncrementalRemoteKeyedStateHandle;

/** Any handle of a subtask's state, by its kind. */
export type StateObject = KeyedStateHandle | OperatorStateHandle | InputChannelStateHandle | ResultSubpartitionStateHandle;

/**
 * Flink's OperatorSubtaskState: one operator subtask's snapshot as collections of state handles.
 * Raw keyed and raw operator state, which Flink also has, the playground's operators never write.
 */
export interface OperatorSubtaskState {
  managedKeyedState: KeyedStateHandle[];
  managedOperatorState: OperatorStateHandle[];
  inputChannelState: InputChannelStateHandle[];
  resultSubpartitionState: ResultSubpartitionStateHandle[];
}

/**
 * Flink's TaskStateSnapshot: the state of every operator of a task, by operator id. A task of the
 * playground runs one operator (its vertex), so the map has one entry.
 */
export type TaskStateHandles = ReadonlyMap<string, OperatorSubtaskState>;

/**
 * The handles of a subtask's snapshot as the engine stores it (protocol.ts TaskStateSnapshot), so
 * `_metadata`, restores and rescales can speak of handles while snapshots keep their shape. The
 * keyed handle weighs the snapshot's state size less its channel state.
 */
export function operatorSubtaskStateOf(snapshot: TaskStateSnapshot): OperatorSubtaskState {
  const inputChannelState = (snapshot.channelState?.inputs ?? []).map((c): InputChannelStateHandle => ({ kind: 'input-channel', gate: c.gate, channel: c.channel, buffers: c.buffers, stateSize: buffersSize(c.buffers) }));
  const resultSubpartitionState = (snapshot.channelState?.outputs ?? []).map((c): ResultSubpartitionStateHandle => ({ kind: 'result-subpartition', channelId: c.channelId, buffers: c.buffers, stateSize: buffersSize(c.buffers) }));
  const channelBytes = [...inputChannelState, ...resultSubpartitionState].reduce((n, h) => n + h.stateSize, 0);
  const keyedBytes = Math.max(0, snapshot.stateSize - channelBytes);
  return {
    managedKeyedState: keyedHandlesOf(snapshot, keyedBytes),
    managedOperatorState: operatorHandlesOf(snapshot),
    inputChannelState,
    resultSubpartitionState,
  };
}

export function taskStateHandlesOf(snapshot: TaskStateSnapshot): TaskStateHandles {
  return new Map([[snapshot.subtask.vertexId, operatorSubtaskStateOf(snapshot)]]);
}

/** Every handle of a subtask's state, keyed first, in Flink's order of OperatorSubtaskState's collections. */
export function stateObjectsOf(state: OperatorSubtaskState): StateObject[] {
  return [...state.managedKeyedState, ...state.managedOperatorState, ...state.inputChannelState, ...state.resultSubpartitionState];
}

type StoredKeyedState = KeyedStateSnapshot & { incremental?: { keyGroupRange: KeyGroupRange } };

function keyedHandlesOf(snapshot: TaskStateSnapshot, stateSize: number): KeyedStateHandle[] {
  const keyed = snapshot.keyedState as StoredKeyedState | undefined;
  if (keyed?.incremental?.keyGroupRange) {
    return [{ kind: 'incremental', keyGroupRange: keyed.incremental.keyGroupRange, privateState: keyed.incremental, sharedState: snapshot.sharedFiles ?? [], stateSize }];
  }
  // Keyed state the backend does not recognise (damaged bytes, a test's stand-in) has no handle to name.
  if (!keyed?.keyGroupRange || !(Array.isArray(keyed.keyGroups) || isCompressedSnapshot(keyed))) return [];
  return [keyGroupsStateHandleOf(keyed, stateSize)];
}

function operatorHandlesOf(snapshot: TaskStateSnapshot): OperatorStateHandle[] {
  if (snapshot.sourceOffset === undefined && snapshot.pendingTransactions === undefined) return [];
  const handle: OperatorStateHandle = { kind: 'operator', stateSize: 0 };
  if (snapshot.sourceOffset !== undefined) handle.sourceOffset = snapshot.sourceOffset;
  if (snapshot.pendingTransactions !== undefined) handle.pendingTransactions = snapshot.pendingTransactions;
  return [handle];
}

/** A handle as a restore report names it: its kind, its key groups when keyed, its bytes. */
export interface StateHandleRef {
  kind: StateObject['kind'];
  keyGroupRange?: KeyGroupRange;
  bytes: number;
}

export function stateHandleRefsOf(state: OperatorSubtaskState): StateHandleRef[] {
  return stateObjectsOf(state).map((h) => ('keyGroupRange' in h ? { kind: h.kind, keyGroupRange: h.keyGroupRange, bytes: h.stateSize } : { kind: h.kind, bytes: h.stateSize }));
}

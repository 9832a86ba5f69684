/**
 * What a TaskManager acknowledges: the snapshot's state handle, which the JobManager's completed
 * checkpoint keeps instead of the state (as Flink's KeyedStateHandle): sizes and small operator
 * state stay, keyed and channel state do not, and an uploaded shared file stays registrable.
 */
import { describe, expect, it } from 'vitest';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { SharedStateRegistry } from '../../engine/checkpoint/shared-state-registry.ts';
import { stateHandleOf } from '../../workers/state-handle.ts';

const SNAPSHOT: TaskStateSnapshot = {
  subtask: { vertexId: 'count', subtaskIndex: 1 },
  sourceOffset: 42,
  keyedState: { keyGroupRange: { start: 0, end: 63 }, keyGroups: [{ keyGroup: 3, states: { count: [['k', 7]] } }] },
  channelState: { inputs: [], outputs: [] } as unknown as TaskStateSnapshot['channelState'],
  pendingTransactions: [{ id: 'tx-1', records: [] } as unknown as NonNullable<TaskStateSnapshot['pendingTransactions']>[number]],
  sharedFiles: [
    { name: 'sst-1', sizeBytes: 100, contents: { run: [1, 2, 3] } },
    { name: 'sst-0', sizeBytes: 50 },
  ],
  stateSize: 1000,
  checkpointedSize: 100,
};

describe('the state handle a TaskManager acknowledges', () => {
  it('drops keyed and channel state and keeps the sizes, the source offset and the pending transactions', () => {
    const handle = stateHandleOf(SNAPSHOT);
    expect(handle.keyedState).toBeUndefined();
    expect(handle.channelState).toBeUndefined();
    expect(handle).toMatchObject({ subtask: SNAPSHOT.subtask, sourceOffset: 42, stateSize: 1000, checkpointedSize: 100, pendingTransactions: SNAPSHOT.pendingTransactions });
  });

  it('keeps shared files by name and size, without their contents, and the registry still registers the uploaded one', () => {
    const handle = stateHandleOf(SNAPSHOT);
    expect(handle.sharedFiles).toEqual([
      { name: 'sst-1', sizeBytes: 100, contents: null },
      { name: 'sst-0', sizeBytes: 50 },
    ]);
    const registry = new SharedStateRegistry();
    registry.registerAll(3, handle.sharedFiles);
    expect(registry.files().map((f) => f.name)).toEqual(['sst-1']);
  });
});

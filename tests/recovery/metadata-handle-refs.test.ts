/**
 * The live JobManager plans and reports a restore per state handle from `_metadata` alone, as
 * Flink's JobManager does from CheckpointMetadata: the handles `_metadata` lists for each old
 * subtask must give every new subtask the same share (kind, key groups, bytes) as the snapshots
 * they describe do in the sim, with or without a rescale.
 */
import { describe, expect, it } from 'vitest';
import { assignedHandleRefs, assignedHandles } from '../../engine/checkpoint/state-assignment.ts';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { computeKeyGroupRangeForOperatorIndex } from '../../engine/keys/key-group-assignment.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { checkpointPlacement, taskSnapshotFiles } from '../../engine/storage/checkpoint-files.ts';
import { keyGroupCount } from '../../engine/state/key-group-range.ts';

const MAX_PARALLELISM = 128;

/** A checkpoint of a keyed vertex with pending sink transactions (operator state) at `parallelism`. */
function checkpointAt(parallelism: number): CompletedCheckpoint {
  const taskStates = new Map<string, TaskStateSnapshot>();
  for (let i = 0; i < parallelism; i++) {
    const keyGroupRange = computeKeyGroupRangeForOperatorIndex(MAX_PARALLELISM, parallelism, i);
    const keyGroups = Array.from({ length: keyGroupCount(keyGroupRange) }, (_, g) => ({ keyGroup: keyGroupRange.start + g, states: { count: [[`k${g}`, 1] as [string, number]] } }));
    const bytes = (i + 1) * 10_000;
    taskStates.set(`count#${i}`, { subtask: { vertexId: 'count', subtaskIndex: i }, keyedState: { keyGroupRange, keyGroups, sizeBytes: bytes }, pendingTransactions: [], stateSize: bytes, checkpointedSize: bytes });
  }
  return { id: 4, isSavepoint: false, triggerTimestamp: 0, completionTimestamp: 1, externalPath: 'chk-4', taskStates, parallelism: { count: parallelism }, stateSize: 0, checkpointedSize: 0 } as CompletedCheckpoint;
}

/** Each old subtask's handles as its `_metadata` reference lists them (written by the task that uploaded it). */
function metadataHandles(checkpoint: CompletedCheckpoint): Map<string, NonNullable<ReturnType<typeof taskSnapshotFiles>['reference']['handles']>> {
  const placement = checkpointPlacement({ checkpointDir: 'indexeddb://checkpoints', jobId: 'job' }, checkpoint.id);
  return new Map([...checkpoint.taskStates].map(([key, snapshot]) => [key, taskSnapshotFiles(placement, snapshot, key).reference.handles!]));
}

describe('a restore plans the same handles from _metadata as from the snapshots', () => {
  it.each([
    [2, 2],
    [2, 3],
    [3, 2],
    [4, 1],
    [1, 4],
  ])('from parallelism %i to %i', (from, to) => {
    const checkpoint = checkpointAt(from);
    const refs = metadataHandles(checkpoint);
    for (let i = 0; i < to; i++) {
      const target = { vertexId: 'count', subtaskIndex: i, parallelism: to, keyGroupRange: computeKeyGroupRangeForOperatorIndex(MAX_PARALLELISM, to, i) };
      const fromMetadata = assignedHandleRefs(checkpoint.parallelism, target, (key) => refs.get(key));
      expect(fromMetadata).toEqual(assignedHandles(checkpoint, target));
      expect(fromMetadata.filter((h) => h.kind === 'key-groups').length).toBeGreaterThan(0);
    }
  });

  it('lists no handle for a subtask whose _metadata predates handle lists', () => {
    const target = { vertexId: 'count', subtaskIndex: 0, parallelism: 2, keyGroupRange: computeKeyGroupRangeForOperatorIndex(MAX_PARALLELISM, 2, 0) };
    expect(assignedHandleRefs({ count: 2 }, target, () => undefined)).toEqual([]);
  });
});

/**
 * A rescale reads exactly the key groups a new subtask owns (Flink's
 * StateAssignmentOperation.reDistributeKeyedStates with KeyGroupsStateHandle.getIntersection):
 * of every old handle it overlaps, only the intersection, and no byte more.
 */
import { describe, expect, it } from 'vitest';
import { assignedHandles, assignSubtaskState } from '../../engine/checkpoint/state-assignment.ts';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { computeKeyGroupRangeForOperatorIndex } from '../../engine/keys/key-group-assignment.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import type { KeyedStateSnapshot } from '../../engine/state/keyed-state-backend.ts';
import { keyGroupCount } from '../../engine/state/key-group-range.ts';

const MAX_PARALLELISM = 128;
const KiB = 1024;

/** A checkpoint of `count` at `parallelism`, each key group holding one key, each subtask `bytes` big. */
function checkpointAt(parallelism: number, bytes: (index: number) => number): CompletedCheckpoint {
  const taskStates = new Map<string, TaskStateSnapshot>();
  for (let i = 0; i < parallelism; i++) {
    const keyGroupRange = computeKeyGroupRangeForOperatorIndex(MAX_PARALLELISM, parallelism, i);
    const keyGroups = Array.from({ length: keyGroupCount(keyGroupRange) }, (_, g) => ({ keyGroup: keyGroupRange.start + g, states: { count: [[`k${keyGroupRange.start + g}`, 1] as [string, number]] } }));
    taskStates.set(`count#${i}`, { subtask: { vertexId: 'count', subtaskIndex: i }, keyedState: { keyGroupRange, keyGroups, sizeBytes: bytes(i) }, stateSize: bytes(i), checkpointedSize: bytes(i) });
  }
  return { id: 3, isSavepoint: false, triggerTimestamp: 0, completionTimestamp: 1, externalPath: 'chk-3', taskStates, parallelism: { count: parallelism }, stateSize: 0, checkpointedSize: 0 } as CompletedCheckpoint;
}

function target(parallelism: number, subtaskIndex: number) {
  return { vertexId: 'count', subtaskIndex, parallelism, keyGroupRange: computeKeyGroupRangeForOperatorIndex(MAX_PARALLELISM, parallelism, subtaskIndex) };
}

describe('rescaling reads the key-group ranges a new subtask owns', () => {
  for (const [from, to] of [
    [2, 3],
    [3, 2],
    [4, 1],
    [1, 4],
  ] as const) {
    it(`from parallelism ${from} to ${to}, each new subtask gets exactly its key groups and their share of the bytes`, () => {
      const checkpoint = checkpointAt(from, (i) => (i + 1) * 64 * KiB);
      let total = 0;
      for (let i = 0; i < to; i++) {
        const t = target(to, i);
        const { restore, bytes } = assignSubtaskState(checkpoint, t, () => undefined);
        const groups = restore.keyedState.flatMap((k: KeyedStateSnapshot) => k.keyGroups.map((g) => g.keyGroup));
        expect(groups).toEqual(Array.from({ length: keyGroupCount(t.keyGroupRange) }, (_, g) => t.keyGroupRange.start + g));
        const handles = assignedHandles(checkpoint, t);
        expect(handles.reduce((n, h) => n + keyGroupCount(h.keyGroupRange!), 0)).toBe(keyGroupCount(t.keyGroupRange));
        expect(handles.reduce((n, h) => n + h.bytes, 0)).toBe(bytes);
        total += bytes;
      }
      const whole = [...checkpoint.taskStates.values()].reduce((n, s) => n + s.stateSize, 0);
      // Shares round to whole bytes: together they read the checkpoint once, within a byte per piece.
      expect(Math.abs(total - whole)).toBeLessThanOrEqual(from + to);
    });
  }

  it('reads an old subtask\'s bytes in proportion to the key groups taken from it', () => {
    const checkpoint = checkpointAt(2, () => 128 * KiB);
    // New subtask 1 of 4 owns key groups 32..63, all inside old subtask 0's 0..63.
    const handles = assignedHandles(checkpoint, target(4, 1));
    expect(handles).toEqual([{ kind: 'key-groups', keyGroupRange: { start: 32, end: 63 }, bytes: 64 * KiB }]);
  });
});

/**
 * One subtask's state for the TaskManager restore-read tests: key group 3 and key group 100 each
 * counting key `k` at a value that says where it was read from (`local` or `remote`), and
 * checkpoint 4 holding it in remote storage.
 */
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { checkpointFiles, checkpointPlacement } from '../../engine/storage/checkpoint-files.ts';
import { checkpointDirectory, type CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import type { MemoryCheckpointStorage } from '../../engine/storage/memory-checkpoint-storage.ts';
import type { TaskRestore } from '../../engine/task/stream-task.ts';

/** The size a key group's handle is said to have. */
export const KG = 1000;

/** The subtask's state: key group 3 and key group 100, each counting key `k` at `value`. */
export function twoKeyGroupSnapshot(value: string): TaskStateSnapshot {
  return {
    subtask: { vertexId: 'count', subtaskIndex: 0 },
    keyedState: {
      keyGroupRange: { start: 0, end: 127 },
      keyGroups: [
        { keyGroup: 3, states: { count: [['k', `${value}@3`]] } },
        { keyGroup: 100, states: { count: [['k', `${value}@100`]] } },
      ],
      sizeBytes: 2 * KG,
    },
    stateSize: 2 * KG,
    checkpointedSize: 2 * KG,
    pendingTransactions: [],
  };
}

/** Writes checkpoint 4 with the `remote` values to `storage`; returns its directory, or the write's error. */
export async function writeRemoteCheckpoint(storage: MemoryCheckpointStorage, location: CheckpointLocation): Promise<{ externalPath: string; error: unknown }> {
  const checkpoint: CompletedCheckpoint = {
    id: 4,
    isSavepoint: false,
    triggerTimestamp: 1,
    completionTimestamp: 2,
    externalPath: checkpointDirectory(location, 4),
    taskStates: new Map([['count#0', twoKeyGroupSnapshot('remote')]]),
    parallelism: { count: 1 },
    stateSize: 2 * KG,
    checkpointedSize: 2 * KG,
  };
  const error = await storage.writeCheckpoint(4, checkpointFiles(checkpointPlacement(location, 4), checkpoint));
  return { externalPath: checkpoint.externalPath, error };
}

/** The values a restore brought back, sorted: each says which copy it came from. */
export function restoredValues(restore: TaskRestore): string[] {
  return restore.keyedState.flatMap((k) => (k as unknown as { keyGroups: Array<{ states: { count: Array<[string, string]> } }> }).keyGroups.flatMap((g) => g.states.count.map(([, v]) => v))).sort();
}

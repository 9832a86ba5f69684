import { subtaskKey, type CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { assignedHandleRefs, type AssignmentTarget, type SharedFileReader } from '../../engine/checkpoint/state-assignment.ts';
import type { ExecutionGraph } from '../../engine/job/execution-graph.ts';
import type { RestorePlan, RestoredCheckpointView } from '../../engine/job/restore-planner.ts';
import { readCompletedCheckpoint, readSharedFile, type CheckpointMetadata } from '../../engine/storage/checkpoint-files.ts';
import type { CheckpointStorage } from '../../engine/storage/checkpoint-storage.ts';

/** What the JobManager read back for a restart: `_metadata` only, and the plan made from it and the hosts' disk listings. */
export interface RestoreReads {
  /** the checkpoint as `_metadata` describes it, without state (each TaskManager reads its subtasks' own) */
  checkpoint: CompletedCheckpoint;
  metadata: CheckpointMetadata;
  plan: RestorePlan;
  /** what the JobManager read from remote storage (`_metadata`) */
  remote: { bytes: number; requests: number };
}

type CountedStorage = CheckpointStorage & { stats: { bytesRead: number; requests: number } };

/**
 * Reads a checkpoint's `_metadata` for a restart and plans from it (the JobMaster's one restore
 * rule), once `localCopiesListed` (the hosts' disks settled) resolved: which subtasks restore from
 * their host's local copy, which handles of a partial one serve, and which read remote storage.
 * No state file is read here: each TaskManager reads its own subtasks' handles. A message instead
 * when `_metadata` cannot be read.
 */
export async function readForRestore(
  storage: CountedStorage,
  directory: string,
  graph: ExecutionGraph,
  plan: (view: Omit<RestoredCheckpointView, 'remoteUnavailable'>) => RestorePlan,
  localCopiesListed: Promise<void> = Promise.resolve(),
): Promise<RestoreReads | { error: string }> {
  const before = { ...storage.stats };
  let restorePlan: RestorePlan | undefined;
  const read = await readCompletedCheckpoint(storage, directory, {
    select: async (metadata) => {
      // The plan weighs the hosts' local copies: it waits for their writes to settle, which ran beside `_metadata`'s read.
      await localCopiesListed;
      const refs = new Map(metadata.subtasks.map((ref) => [ref.key, ref]));
      restorePlan = plan({
        checkpointId: metadata.checkpointId,
        parallelism: metadata.parallelism,
        remoteBytes: (i) => refs.get(subtaskKey(graph.subtasks[i]!.id))?.stateSize ?? 0,
        remoteHandles: (i) => assignedHandleRefs(metadata.parallelism, assignmentTarget(graph, i), (key) => refs.get(key)?.handles),
      });
      return new Set<string>();
    },
  });
  if (!read.ok) return { error: read.error.message };
  const after = storage.stats;
  return { checkpoint: read.checkpoint, metadata: read.metadata, plan: restorePlan!, remote: { bytes: after.bytesRead - before.bytesRead, requests: after.requests - before.requests } };
}

/**
 * `_metadata` with the references of only the old subtasks subtask `i`'s share is cut from: its
 * own, or after a rescale every old subtask of its vertex (their state files, their shared runs).
 */
export function shareMetadata(metadata: CheckpointMetadata, graph: ExecutionGraph, i: number): CheckpointMetadata {
  const target = assignmentTarget(graph, i);
  const old = metadata.parallelism[target.vertexId] ?? target.parallelism;
  const keys = new Set(old === target.parallelism ? [subtaskKey(target)] : Array.from({ length: old }, (_, index) => subtaskKey({ vertexId: target.vertexId, subtaskIndex: index })));
  return { ...metadata, subtasks: metadata.subtasks.filter((ref) => keys.has(ref.key)) };
}

/**
 * A checkpoint read back whole, for a JobManager failover's recovery (the page reloaded mid-run):
 * its completed-checkpoint store takes it with the shared runs it references, as Flink's
 * CompletedCheckpointStore recovers them. A message when something of it cannot be read.
 */
export async function readRecoveredCheckpoint(storage: CheckpointStorage, directory: string): Promise<{ checkpoint: CompletedCheckpoint; sharedFile: SharedFileReader } | { error: string }> {
  const read = await readCompletedCheckpoint(storage, directory);
  if (!read.ok) return { error: read.error.message };
  const shared = new Map<string, unknown>();
  for (const ref of read.metadata.subtasks) {
    const snapshot = read.checkpoint.taskStates.get(ref.key);
    for (const [i, file] of ref.sharedFiles.entries()) {
      if (shared.has(file.name)) continue;
      const carried = snapshot?.sharedFiles?.[i]?.contents;
      const value = carried !== undefined ? carried : await readSharedFile(storage, file.path);
      if (value === undefined) return { error: `Failed to restore checkpoint ${read.checkpoint.id}: java.io.FileNotFoundException: File does not exist: ${file.path}` };
      shared.set(file.name, value);
    }
  }
  return { checkpoint: read.checkpoint, sharedFile: (name) => shared.get(name) };
}

/** Subtask `i` of the new graph as a share of a checkpoint is assigned to it. */
export function assignmentTarget(graph: ExecutionGraph, i: number): AssignmentTarget {
  const s = graph.subtasks[i]!;
  return { ...s.id, parallelism: graph.vertex(s.id.vertexId).parallelism, keyGroupRange: s.keyGroupRange };
}

import { subtaskKey, type CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { assignedHandleRefs, type AssignmentTarget, type SharedFileReader } from '../../engine/checkpoint/state-assignment.ts';
import type { ExecutionGraph } from '../../engine/job/execution-graph.ts';
import type { RestorePlan, RestoredCheckpointView } from '../../engine/job/restore-planner.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { readCompletedCheckpoint, readSharedFile, type CheckpointMetadata } from '../../engine/storage/checkpoint-files.ts';
import type { CheckpointStorage } from '../../engine/storage/checkpoint-storage.ts';

/** A restart's state as read back from remote storage, with the plan it was read by. */
export interface RestoreReads {
  /** the checkpoint as `_metadata` describes it, with the state of the subtasks that restore remotely */
  checkpoint: CompletedCheckpoint;
  plan: RestorePlan;
  sharedFile: SharedFileReader;
  /** what was read from remote storage */
  remote: { bytes: number; requests: number };
}

/**
 * Reads a checkpoint back for a restart: `_metadata` first (while `localCopiesRead`, the hosts'
 * disks, is still being read), then the plan decides (the JobMaster's
 * one restore rule) which subtasks restore from their host's local copy, and only the state
 * files of the others are read (their own; after a rescale, every old subtask of their vertex),
 * then the shared runs they reference that no local copy carries. A message instead when
 * something the restore needs cannot be read.
 */
export async function readForRestore(
  storage: CheckpointStorage & { stats: { bytesRead: number; requests: number } },
  directory: string,
  graph: ExecutionGraph,
  plan: (view: Omit<RestoredCheckpointView, 'remoteUnavailable'>) => RestorePlan,
  localCopiesRead: Promise<void> = Promise.resolve(),
): Promise<RestoreReads | { error: string }> {
  const before = { ...storage.stats };
  let restorePlan: RestorePlan | undefined;
  const read = await readCompletedCheckpoint(storage, directory, {
    select: async (metadata) => {
      // The plan weighs the hosts' local copies: it waits for their read, which ran beside `_metadata`'s.
      await localCopiesRead;
      const refs = new Map(metadata.subtasks.map((ref) => [ref.key, ref]));
      restorePlan = plan({
        checkpointId: metadata.checkpointId,
        parallelism: metadata.parallelism,
        remoteBytes: (i) => refs.get(subtaskKey(graph.subtasks[i]!.id))?.stateSize ?? 0,
        remoteHandles: (i) => assignedHandleRefs(metadata.parallelism, assignmentTarget(graph, i), (key) => refs.get(key)?.handles),
      });
      return restorePlan.remoteKeys;
    },
  });
  if (!read.ok) return { error: read.error.message };
  const localCopies = new Map(
    restorePlan!.decisions.flatMap((d, i) => (d.source === 'local' ? [[subtaskKey(graph.subtasks[i]!.id), d.snapshot] as const] : [])),
  );
  const shared = await readSharedFiles(storage, read.checkpoint, read.metadata, localCopies);
  if (typeof shared === 'string') return { error: shared };
  const after = storage.stats;
  const sharedFile: SharedFileReader = (name) => {
    if (!shared.has(name)) throw new Error(`shared file ${name} is not in checkpoint ${read.checkpoint.id}`);
    return shared.get(name);
  };
  return { checkpoint: read.checkpoint, plan: restorePlan!, sharedFile, remote: { bytes: after.bytesRead - before.bytesRead, requests: after.requests - before.requests } };
}

/**
 * The contents of every shared file (an incremental checkpoint's SST runs) a checkpoint read back
 * from remote storage refers to: those it uploaded came with it, those it reuses from earlier
 * checkpoints are read now; a local copy carries every run it references.
 */
async function readSharedFiles(
  storage: CheckpointStorage,
  checkpoint: CompletedCheckpoint,
  metadata: CheckpointMetadata,
  localCopies: ReadonlyMap<string, TaskStateSnapshot>,
): Promise<Map<string, unknown> | string> {
  const contents = new Map<string, unknown>();
  for (const ref of metadata.subtasks) {
    const snapshot = checkpoint.taskStates.get(ref.key) ?? localCopies.get(ref.key);
    if (!snapshot) continue;
    const handles = snapshot.sharedFiles ?? [];
    for (const [i, file] of ref.sharedFiles.entries()) {
      if (contents.has(file.name)) continue;
      const carried = handles[i]?.contents;
      const value = carried !== undefined ? carried : await readSharedFile(storage, file.path);
      if (value === undefined) return `Failed to restore checkpoint ${checkpoint.id}: java.io.FileNotFoundException: File does not exist: ${file.path}`;
      contents.set(file.name, value);
    }
  }
  return contents;
}

/** Subtask `i` of the new graph as a share of a checkpoint is assigned to it. */
export function assignmentTarget(graph: ExecutionGraph, i: number): AssignmentTarget {
  const s = graph.subtasks[i]!;
  return { ...s.id, parallelism: graph.vertex(s.id.vertexId).parallelism, keyGroupRange: s.keyGroupRange };
}

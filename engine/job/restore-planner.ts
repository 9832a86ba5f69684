import { subtaskKey } from '../checkpoint/completed-checkpoint.ts';
import type { FlinkConfig } from '../config/flink-config.ts';
import type { HostLocalDisk } from '../recovery/host-local-disk.ts';
import { decideSubtaskRestore, type RestoreCosts, type SlotLocation, type SubtaskRestoreDecision } from '../recovery/local-recovery.ts';
import type { StateHandleRef } from '../state/handles/operator-subtask-state.ts';
import type { ExecutionGraph } from './execution-graph.ts';

/** What the planner needs to know of the checkpoint being restored: from memory (sim) or from its `_metadata` (live). */
export interface RestoredCheckpointView {
  checkpointId: number;
  /** each vertex's parallelism when the checkpoint was taken */
  parallelism: Record<string, number>;
  /** what subtask `index` of the new graph would read from remote storage (its share, after a rescale) */
  remoteBytes(index: number): number;
  /** the handles of that share, for the restore report (absent: the report lists none) */
  remoteHandles?(index: number): StateHandleRef[];
  /** remote storage cannot be read (it fails every request) */
  remoteUnavailable: boolean;
}

export interface RestorePlanRequest {
  jobId: string;
  graph: ExecutionGraph;
  checkpoint: RestoredCheckpointView;
  /** where each subtask (`vertex#index`) ran before the restart */
  previousPlacement: ReadonlyMap<string, SlotLocation>;
  disks: ReadonlyMap<string, HostLocalDisk>;
  config: Pick<FlinkConfig, 'localRecovery'>;
  costs: RestoreCosts;
  /** how local copies are examined (SubtaskRestoreRequest.localCopies): the live JobManager plans from the disks' listings */
  localCopies?: 'verified' | 'listed';
}

/** Per subtask of the new graph, where its state comes from (and why not local); and which old subtasks' files to read from remote. */
export interface RestorePlan {
  decisions: SubtaskRestoreDecision[];
  /** `vertex#index` of every subtask of the checkpoint whose remote state some new subtask reads */
  remoteKeys: Set<string>;
}

/**
 * Plans a restore for every subtask before anything is read (Flink's TaskStateAssignment with
 * PrioritizedOperatorSubtaskState): the local copy when the subtask is back in its slot and the
 * copy verifies, else the remote copy, with the reason. Both runtimes call this one function; the
 * sim with the checkpoint in memory, live with what `_metadata` says.
 */
export function planRestore(r: RestorePlanRequest): RestorePlan {
  const remoteKeys = new Set<string>();
  const decisions = r.graph.subtasks.map((s, i) => {
    const parallelism = r.graph.vertex(s.id.vertexId).parallelism;
    const oldParallelism = r.checkpoint.parallelism[s.id.vertexId] ?? parallelism;
    const decision = decideSubtaskRestore({
      jobId: r.jobId,
      subtask: s.id,
      checkpointId: r.checkpoint.checkpointId,
      localRecovery: r.config.localRecovery,
      rescaled: oldParallelism !== parallelism,
      previousSlot: r.previousPlacement.get(subtaskKey(s.id)),
      slot: { slotId: s.slot.id, host: s.slot.host },
      disk: r.disks.get(s.slot.host),
      remote: r.checkpoint.remoteUnavailable ? 'missing' : { bytes: r.checkpoint.remoteBytes(i) },
      remoteHandles: r.checkpoint.remoteHandles?.(i) ?? [],
      costs: r.costs,
      ...(r.localCopies === undefined ? {} : { localCopies: r.localCopies }),
    });
    if (decision.source !== 'local') {
      // After a rescale a subtask takes key groups from every old subtask of its vertex.
      if (oldParallelism === parallelism) remoteKeys.add(subtaskKey(s.id));
      else for (let old = 0; old < oldParallelism; old++) remoteKeys.add(subtaskKey({ vertexId: s.id.vertexId, subtaskIndex: old }));
    }
    return decision;
  });
  return { decisions, remoteKeys };
}

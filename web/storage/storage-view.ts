/**
 * What the storage view draws: each host's local disk (task-local copies) and the remote
 * checkpoint storage (Flink's DFS) with the retained checkpoints' `chk-<id>` directories, the
 * savepoints, and the shared files of incremental checkpoints. Plain data, read from the driver a
 * few times a second (SimDriver#storage).
 */
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import type { LocalDiskListing } from '../../engine/recovery/host-local-disk.ts';
import type { CheckpointDatabaseView } from '../playground/storage/sim-checkpoint-storage.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';

/** One file of a checkpoint directory: `_metadata`, or a subtask's exclusive state. */
export interface CheckpointFile {
  name: string;
  bytes: number;
  /** `vertex#index` for a subtask's state file */
  subtask?: string;
}

/** A `chk-<id>` directory of a retained checkpoint, or a savepoint's directory. */
export interface CheckpointDirectory {
  id: number;
  isSavepoint: boolean;
  path: string;
  triggerTimestamp: number;
  completionTimestamp: number;
  stateSize: number;
  checkpointedSize: number;
  files: CheckpointFile[];
  /** shared files (incremental checkpoints) this checkpoint refers to */
  sharedFiles: string[];
  /** the newest retained checkpoint: what a restore uses */
  latest: boolean;
}

export interface SharedFile {
  name: string;
  sizeBytes: number;
  createdByCheckpointId: number;
  lastUsedCheckpointId: number;
}

export interface StorageView {
  localDisks: LocalDiskListing[];
  checkpoints: CheckpointDirectory[];
  savepoints: CheckpointDirectory[];
  sharedFiles: SharedFile[];
  /** whether task-local copies are written (state.backend.local-recovery / execution.state-recovery.from-local) */
  localRecovery: boolean;
  /** what the IndexedDB database of remote storage really holds (null: no database, as in Node) */
  database: CheckpointDatabaseView | null;
  /** the cost model that makes the store behave like a remote object store */
  remoteCost: RemoteCostView;
}

/**
 * The remote store's cost model as it applies now: the scenario's `costs.remote_latency_ms` and
 * `costs.remote_bandwidth_mb_per_s`, times a slow-remote-storage fault's factor. Shown beside the
 * store so nobody mistakes IndexedDB (a local database) for a local disk's speed.
 */
export interface RemoteCostView {
  latencyMs: number;
  bandwidthMbPerS: number;
  /** a slow-remote-storage fault's factor (1: none) */
  slowFactor: number;
  /** a fail-remote-storage fault is active: writes fail */
  failing: boolean;
}

/** The cost model of `scenario` with a driver's remote-storage faults applied. */
export function remoteCostView(costs: Scenario['costs'], faults: { slowFactor: number; failing: boolean }): RemoteCostView {
  return { latencyMs: costs.remote_latency_ms, bandwidthMbPerS: costs.remote_bandwidth_mb_per_s, slowFactor: faults.slowFactor, failing: faults.failing };
}

/** Bytes Flink's `_metadata` file takes here: the handles of every subtask's state. */
const METADATA_BYTES_PER_SUBTASK = 96;

export function checkpointDirectory(checkpoint: CompletedCheckpoint, latest: boolean): CheckpointDirectory {
  const files: CheckpointFile[] = [{ name: '_metadata', bytes: METADATA_BYTES_PER_SUBTASK * Math.max(1, checkpoint.taskStates.size) }];
  const shared = new Set<string>();
  for (const [subtask, snapshot] of checkpoint.taskStates) {
    for (const file of snapshot.sharedFiles ?? []) shared.add(file.name);
    // The exclusive part of the state: what is not in shared files.
    const sharedBytes = (snapshot.sharedFiles ?? []).reduce((n, f) => n + f.sizeBytes, 0);
    const bytes = Math.max(0, snapshot.stateSize - sharedBytes);
    if (bytes > 0) files.push({ name: `${subtask.replace('#', '_')}.state`, bytes, subtask });
  }
  return {
    id: checkpoint.id,
    isSavepoint: checkpoint.isSavepoint,
    path: checkpoint.externalPath,
    triggerTimestamp: checkpoint.triggerTimestamp,
    completionTimestamp: checkpoint.completionTimestamp,
    stateSize: checkpoint.stateSize,
    checkpointedSize: checkpoint.checkpointedSize,
    files,
    sharedFiles: [...shared].sort(),
    latest,
  };
}

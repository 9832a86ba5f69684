import type { KeyedStateSnapshot } from '../keyed-state-backend.ts';
import type { KeyGroupRange } from '../key-group-range.ts';
import type { RunContents, RunDescriptor } from './sorted-run.ts';

/**
 * The private state of an incremental checkpoint, uploaded with every checkpoint (RocksDB's
 * MANIFEST/CURRENT/OPTIONS "misc" files and Flink's meta data): which runs make up the state,
 * at which level, plus whatever does not live in runs (heap timers).
 */
export interface IncrementalManifest {
  format: 'lsm-incremental-v1';
  checkpointId: number;
  backendName: string;
  keyGroupRange: KeyGroupRange;
  /** the confirmed checkpoint whose runs this one reused, if any */
  baseCheckpointId: number | undefined;
  runs: RunDescriptor[];
  /** the run-id sequence, so a restored backend never reuses a file name */
  nextRunId: number;
  /** live entries and bytes per column family (the backend's exact bookkeeping) */
  columnFamilies: Array<{ name: string; entryCount: number; stateSizeBytes: number }>;
  /** states kept on the heap (timers with timer-service factory HEAP): written out in full */
  heapState: KeyedStateSnapshot | undefined;
}

/** A run this checkpoint references (Flink's shared state handle or its placeholder). */
export interface SharedRunHandle {
  name: string;
  runId: number;
  columnFamily: string;
  level: number;
  sizeBytes: number;
  /** true when the last confirmed checkpoint uploaded it already: not uploaded again */
  reused: boolean;
}

/** A run to upload: not part of the last confirmed checkpoint. */
export interface RunUpload {
  name: string;
  runId: number;
  sizeBytes: number;
  contents: RunContents;
}

export interface IncrementalSnapshot {
  checkpointId: number;
  /** every run the checkpoint references, the new ones included */
  sharedRuns: SharedRunHandle[];
  newRuns: RunUpload[];
  privateState: IncrementalManifest;
  privateStateSizeBytes: number;
  /** Flink's state_size: everything the checkpoint references */
  stateSize: number;
  /** Flink's checkpointed_size: what this checkpoint uploaded (new runs + private state) */
  checkpointedSize: number;
}

/**
 * Flink's `uploadedSstFiles` bookkeeping (RocksIncrementalSnapshotStrategy): the runs each
 * pending checkpoint references, and the last completed checkpoint. A new checkpoint uploads the
 * runs that the *last completed* checkpoint did not reference, so increments build on confirmed
 * checkpoints only; completing a checkpoint forgets older entries, aborting one forgets it.
 */
export class IncrementalCheckpointTracker {
  #runsByCheckpoint = new Map<number, ReadonlySet<string>>();
  #lastCompleted: number | undefined;

  get lastCompletedCheckpointId(): number | undefined {
    return this.#lastCompleted;
  }

  /** The runs a new checkpoint can reuse: those of the last completed checkpoint. */
  confirmedBase(): { checkpointId: number | undefined; runs: ReadonlySet<string> } {
    const id = this.#lastCompleted;
    return { checkpointId: id, runs: (id === undefined ? undefined : this.#runsByCheckpoint.get(id)) ?? new Set() };
  }

  record(checkpointId: number, runNames: Iterable<string>): void {
    this.#runsByCheckpoint.set(checkpointId, new Set(runNames));
  }

  complete(checkpointId: number): void {
    if (this.#lastCompleted !== undefined && checkpointId <= this.#lastCompleted) return;
    for (const id of [...this.#runsByCheckpoint.keys()]) if (id < checkpointId) this.#runsByCheckpoint.delete(id);
    this.#lastCompleted = checkpointId;
  }

  abort(checkpointId: number): void {
    this.#runsByCheckpoint.delete(checkpointId);
  }

  /** After restoring a checkpoint: its runs are already in checkpoint storage. */
  restored(checkpointId: number, runNames: Iterable<string>): void {
    this.#runsByCheckpoint.clear();
    this.record(checkpointId, runNames);
    this.#lastCompleted = checkpointId;
  }

  /** Checkpoints still tracked (pending ones and the last completed). */
  trackedCheckpoints(): number[] {
    return [...this.#runsByCheckpoint.keys()].sort((a, b) => a - b);
  }
}

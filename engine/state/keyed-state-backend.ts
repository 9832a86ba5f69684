import type { KeyGroupRange } from './key-group-range.ts';

/** A state value: what operators keep per key (numbers, or small plain objects). */
export type StateValue = number | string | boolean | { readonly [k: string]: StateValue } | readonly StateValue[];

/**
 * The entries of one state in one key group, as written into a snapshot. Entries are
 * [key, value] pairs sorted by key, so snapshots are deterministic and a rescale can read
 * single key groups.
 */
export interface KeyGroupSnapshot {
  keyGroup: number;
  states: Record<string, Array<[string, StateValue]>>;
}

/** A snapshot of a backend's keyed state: one entry per non-empty key group. */
export interface KeyedStateSnapshot {
  keyGroupRange: KeyGroupRange;
  keyGroups: KeyGroupSnapshot[];
  /** bytes the snapshot occupies once written (Flink's state size) */
  sizeBytes: number;
}

/**
 * Keyed state of one subtask, organised by key group as Flink's backends are. Synchronous by
 * design: operators read and write state while processing a record. The heap backend is the
 * reference; the wa-sqlite LSM backend implements the same contract.
 *
 * `state` names a declared state (a column family in RocksDB terms); `key` already includes any
 * namespace (a window operator uses `key␀windowEnd`).
 */
export interface KeyedStateBackend {
  readonly kind: 'hashmap' | 'rocksdb';
  readonly keyGroupRange: KeyGroupRange;
  get(state: string, keyGroup: number, key: string): StateValue | undefined;
  put(state: string, keyGroup: number, key: string, value: StateValue): void;
  delete(state: string, keyGroup: number, key: string): void;
  /** Visits every entry of one state (restoring timers and windows reads them back this way). */
  forEachEntry(state: string, visit: (keyGroup: number, key: string, value: StateValue) => void): void;
  /** Number of entries across all states. */
  entryCount(): number;
  /** Estimated bytes of all state, as a full snapshot would write it. */
  stateSizeBytes(): number;
  /** A consistent copy of all state; later writes do not change it. */
  snapshot(): KeyedStateSnapshot;
  /** Loads the key groups of `snapshots` that fall into this backend's range (rescaling reads only those). */
  restore(snapshots: readonly KeyedStateSnapshot[]): void;
  /**
   * Incremental backends (rocksdb): a snapshot that uploads only what the last confirmed
   * checkpoint lacks, or with `full` (a FULL checkpoint) every file, reusing none.
   */
  incrementalSnapshot?(checkpointId: number, full?: boolean): IncrementalKeyedSnapshot;
  /** Incremental backends: the contents of a shared file it holds now (a task-local copy links it), or undefined. */
  sharedFileContents?(name: string): unknown;
  /** Restores one incremental snapshot; called once per old snapshot that overlaps (rescaling). */
  restoreFromIncremental?(privateState: unknown, files: Iterable<unknown>): void;
  /** RocksDB's native metrics by their property names (flushes, compactions, block cache, stalls). */
  nativeMetrics?(): Record<string, number>;
  /** What the synchronous part of a snapshot must do now (rocksdb: flush memtables, copy heap timers). */
  syncSnapshotWork?(): { memtableBytes: number; heapTimerEntries: number };
  /** Flink's CheckpointListener: increments build on confirmed checkpoints only. */
  notifyCheckpointComplete?(checkpointId: number): void;
  notifyCheckpointAborted?(checkpointId: number): void;
}

/** What an incremental snapshot hands to checkpoint storage. */
export interface IncrementalKeyedSnapshot {
  /** the backend's private state (manifest): uploaded every time */
  privateState: unknown;
  privateStateSizeBytes: number;
  /** every shared file the snapshot refers to, with contents for the ones uploaded now */
  sharedFiles: Array<{ name: string; sizeBytes: number; contents?: unknown }>;
  stateSize: number;
  checkpointedSize: number;
}

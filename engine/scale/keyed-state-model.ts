/**
 * What the scale runtime asks of its keyed state, whichever way it is described: by the `scale`
 * section's sizes and rates (keyed-state-flow.ts), or derived from a records scenario's keys as
 * the record-level runtime would build it (key-space-state.ts). A snapshot is taken when the
 * barrier passes the sources (`consumed`: records read so far, all source subtasks together); a
 * completed checkpoint confirms its files; a restore brings its state back.
 */
import type { JobFlows } from './vertex-flows.ts';

export interface StateAtSnapshot {
  /** processing time (ms) the job had when the snapshot was taken */
  activeMs: number;
  /** records the sources had read (their offsets) */
  consumed: number;
  /** per vertex (topological index), per subtask: bytes of its keyed state (empty for a vertex without) */
  keyedBytes: number[][];
  /** the same, changed since the last completed checkpoint (what an incremental checkpoint uploads) */
  dirtyBytes: number[][];
  /** per vertex, per subtask: its event-time timers (one per key and open window) */
  timers: number[][];
}

export interface KeyedStateModel {
  /** The job processes (true) or not (false) from `now`. */
  setProcessing(processing: boolean, now: number): void;
  snapshot(now: number, consumed: number, flows: JobFlows): StateAtSnapshot;
  /** A checkpoint completed: the next incremental one uploads only what changed since its snapshot. */
  confirmed(snapshot: StateAtSnapshot): void;
  /** A restore: the state is the checkpoint's again, and all of it is in checkpoint storage. */
  restored(snapshot: StateAtSnapshot, now: number): void;
  /** Each subtask's share of a keyed vertex's records where the keys are known (key skew); undefined: even. */
  recordShare?(vertexId: string, parallelism: number): number[] | undefined;
}

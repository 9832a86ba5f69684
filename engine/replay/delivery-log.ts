import type { FaultSpec } from '../scenario/scenario-types.ts';
import type { JobStatus } from '../job/job-status.ts';
import type { NetworkBuffer } from '../protocol.ts';

/**
 * The recording of one run's nondeterministic choices (Issue 5): where a live session's order
 * came from the real MessageChannels and the wall clock, this says what happened, so the sim can
 * do exactly the same. Plain JSON: it is the `recording` of an exported session document.
 */
export interface DeliveryLog {
  /** job time when the recording was taken: a replay runs this far */
  endTime: number;
  /** checkpoints and savepoints as the coordinator triggered them, in job time */
  checkpoints: CheckpointTriggerRecord[];
  /** faults as applied (from the schedule or the Playground API), in job time; never trigger-* ones (those are `checkpoints`) */
  faults: FaultRecord[];
  /** which checkpoint each restart restored, by the attempt it started */
  restores: RestoreRecordEntry[];
  /** restarts asked for through the Playground API (rescale, restart from a savepoint), in job time */
  restarts: RestartRequestRecord[];
  /** what each subtask of each attempt consumed, in order */
  subtasks: SubtaskDelivery[];
}

export interface CheckpointTriggerRecord {
  time: number;
  checkpointId: number;
  isSavepoint: boolean;
  /** stop-with-savepoint's savepoint: the recorded stop-with-savepoint fault triggers it again, not a trigger of its own */
  synchronous?: true;
  /** triggered with checkpointType FULL: replayed as a FULL trigger */
  checkpointType?: 'FULL';
  /** when it completed; absent when it failed or was still pending (a replay then never completes it) */
  completedAt?: number;
  /** when it failed, and Flink's CheckpointFailureReason */
  failedAt?: number;
  failureReason?: string;
}

export interface FaultRecord {
  /** when the replay applies it: for a fault that fails tasks, when the JobManager failed over (`fault.at_ms`: when it was injected) */
  time: number;
  fault: FaultSpec;
  /**
   * Where the live job was when the fault came: its attempt and status (absent in recordings made
   * before they were recorded). A replay holds the fault until its job gets there, since a fault
   * during a restart is handled unlike one on a running job.
   */
  job?: { attempt: number; status: JobStatus };
}

/** A restart an operator asked for; the replay plans it again (engine/job/restart-request.ts) at `time`. */
export interface RestartRequestRecord {
  time: number;
  operation: 'rescale' | 'restart-from-savepoint';
  /** the checkpoint (or savepoint) the restart restores */
  checkpointId: number;
  /** a rescale's vertex and its new parallelism */
  vertex?: string;
  parallelism?: number;
}

export interface RestoreRecordEntry {
  attempt: number;
  checkpointId: number;
  /** job time the restored attempt was deployed (absent in recordings made before it was recorded) */
  time?: number;
}

/**
 * One subtask of one attempt. `gates[g]` is the order its input gate g handed out buffer contents,
 * run-length encoded as pairs `[channel, count]`: `count > 0` records from that channel (runs
 * merge across buffers, whose boundaries depend on flush timing), a negative count one event
 * (see EVENT_CODES). `barriers` are pairs `[checkpointId, offset]` for a source: the barrier went
 * out after `offset` records of its split (its length + 1: after its end-of-data); `[-checkpointId, offset]` when a cancellation marker
 * went out instead (the source had been told the checkpoint was aborted). `aborts` are pairs
 * `[checkpointId, position]`: the JobManager's notification that the checkpoint was aborted came
 * when the subtask had consumed `position` records and events (over all its gates). `watermarks`
 * are pairs `[offset, barriers]` for a source: a periodic watermark went out after `offset`
 * records of its split, when it had injected `barriers` barriers (or cancellation markers), so a
 * barrier and a watermark at the same offset keep their order.
 */
export interface SubtaskDelivery {
  attempt: number;
  vertex: string;
  subtask: number;
  gates: number[][];
  barriers: number[];
  aborts: number[];
  watermarks: number[];
}

/** How an event is written in a gate's runs. */
export const EVENT_CODES = { barrier: -1, 'end-of-partition': -2, 'cancel-checkpoint': -3, 'end-of-data': -4 } as const;

export type RecordedEventKind = keyof typeof EVENT_CODES;

export function eventKindOfCode(code: number): RecordedEventKind | undefined {
  return (Object.keys(EVENT_CODES) as RecordedEventKind[]).find((k) => EVENT_CODES[k] === code);
}

/** The count a consumed buffer adds to a gate's runs: its records, or its event's code; 0 for a buffer of no records. */
export function countOf(buffer: NetworkBuffer): number {
  return buffer.kind === 'data' ? buffer.records.length : EVENT_CODES[buffer.event.kind];
}

/** Appends one consumed unit to run-length encoded pairs: records of the same channel extend the last run. */
export function appendRun(runs: number[], channel: number, count: number): void {
  if (count === 0) return;
  const n = runs.length;
  if (count > 0 && n >= 2 && runs[n - 2] === channel && runs[n - 1]! > 0) runs[n - 1]! += count;
  else runs.push(channel, count);
}

/** Appends a later part of the same gate's runs (a worker's next batch), merging at the seam. */
export function appendRuns(runs: number[], more: readonly number[]): void {
  for (let i = 0; i < more.length; i += 2) appendRun(runs, more[i]!, more[i + 1]!);
}

export function emptyDeliveryLog(): DeliveryLog {
  return { endTime: 0, checkpoints: [], faults: [], restores: [], restarts: [], subtasks: [] };
}

export function subtaskKey(attempt: number, vertex: string, subtask: number): string {
  return `${attempt}/${vertex}#${subtask}`;
}

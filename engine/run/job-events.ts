import type { JobStatus } from '../job/job-status.ts';
import type { HandleRestore } from '../recovery/local-recovery.ts';
import type { FaultDetail } from './fault-event.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

/** Where a subtask's state came from on a restore, and what it cost. */
export interface SubtaskRestore {
  vertexId: string;
  subtaskIndex: number;
  /** `local` once task-local recovery exists (storage milestone); `remote` reads checkpoint storage */
  source: 'local' | 'remote';
  /** why a remote restore did not use a local copy (local-recovery-disabled, different-slot, rescaled, missing, partial, corrupt) */
  reason?: string;
  bytes: number;
  /** of `bytes`, those read from remote checkpoint storage (0 for a local restore: every run came from the host's disk) */
  remoteBytes: number;
  durationMs: number;
  /**
   * Per state handle of the subtask's share, where it came from and why (a partial local copy:
   * its intact key-group handles local, the rest remote, `source` then 'remote' with reason
   * 'partial'); absent from older traces and from a runtime that does not report handles
   */
  handles?: HandleRestore[];
}

/** One restore of the job (the CLI's `restores[]`). */
export interface RestoreRecord {
  time: number;
  checkpointId: number;
  isSavepoint: boolean;
  subtasks: SubtaskRestore[];
}

/**
 * What happened in a run, for the timeline, the Playground API's `on(event, …)` and tests.
 * Both drivers emit the same events.
 */
export type JobEvent =
  | { type: 'job-status'; time: number; status: JobStatus; message?: string }
  /** `synchronous`: stop-with-savepoint's savepoint; `checkpointType`: triggered as a FULL checkpoint (both absent from older traces) */
  | { type: 'checkpoint-triggered'; time: number; checkpointId: number; isSavepoint: boolean; synchronous?: true; checkpointType?: 'FULL' }
  | { type: 'checkpoint-completed'; time: number; checkpointId: number; isSavepoint: boolean }
  | { type: 'checkpoint-failed'; time: number; checkpointId: number; reason: string }
  /**
   * a request that ended before it became a checkpoint: dropped by the request decider, or a
   * trigger that failed (a failed checkpoint without an id, isFailedCheckpointWithoutId);
   * `isSavepoint` is absent from older traces
   */
  | { type: 'checkpoint-request-dropped'; time: number; reason: string; isSavepoint?: boolean }
  /** `fault`: what happened as data (fault-event.ts), for the UI to say in its language; absent from older traces */
  | { type: 'fault'; time: number; description: string; fault?: FaultDetail }
  | { type: 'task-failed'; time: number; vertexId: string; subtaskIndex: number; cause: string }
  /** a scheduled fault that could not be carried out when it came due, and why (never dropped without a word) */
  /** `reason` in English; `problem` the same as a message code, for other languages (absent in traces recorded before it existed) */
  | { type: 'fault-not-applied'; time: number; faultType: string; reason: string; problem?: EngineMessage }
  | { type: 'restore'; time: number; restore: RestoreRecord }
  /** the runtime stood in for something the browser does not offer, said once (the live runtime only) */
  | { type: 'runtime-notice'; time: number; notice: RuntimeNotice };

/**
 * What a runtime did instead of what the scenario implies, for the page to say in its language.
 * `rocksdb-local-dir-in-indexeddb`: the browser has no Origin Private File System, so the
 * TaskManagers' `state.backend.rocksdb.localdir` working databases are kept in IndexedDB.
 */
export type RuntimeNotice = { kind: 'rocksdb-local-dir-in-indexeddb' };

/** The job event a coordinator's `checkpoint-status` effect stands for (both drivers emit these). */
export function checkpointStatusEvent(
  effect: { status: 'triggered' | 'completed' | 'failed' | 'dropped'; checkpointId: number | null; isSavepoint: boolean; reason?: string; synchronous?: boolean; checkpointType?: 'FULL' },
  now: number,
): JobEvent {
  const checkpointId = effect.checkpointId ?? 0;
  switch (effect.status) {
    case 'triggered':
      return { type: 'checkpoint-triggered', time: now, checkpointId, isSavepoint: effect.isSavepoint, ...triggerKind(effect) };
    case 'completed':
      return { type: 'checkpoint-completed', time: now, checkpointId, isSavepoint: effect.isSavepoint };
    case 'failed':
      return { type: 'checkpoint-failed', time: now, checkpointId, reason: effect.reason ?? 'unknown' };
    case 'dropped':
      return { type: 'checkpoint-request-dropped', time: now, reason: effect.reason ?? 'unknown', isSavepoint: effect.isSavepoint };
  }
}

/** What kind of trigger a `triggered` status was, when not a plain one: only the fields that are set. */
function triggerKind(effect: { synchronous?: boolean; checkpointType?: 'FULL' }): { synchronous?: true; checkpointType?: 'FULL' } {
  return { ...(effect.synchronous ? { synchronous: true as const } : {}), ...(effect.checkpointType === 'FULL' ? { checkpointType: 'FULL' as const } : {}) };
}

/**
 * What a `fault` job event stands for, as data: the fault's kind (FaultSpec's `type` names, plus
 * the operator's own requests: cancel, rescale, restart from a savepoint) and what it hit. The UI
 * renders it in the reader's language; `describeFault` gives the English line the event also
 * carries as `description`, for the CLI's JSON and older readers.
 */
import type { JobEvent } from './job-events.ts';

export type FaultDetail =
  | { kind: 'fail-task'; vertex: string; subtask: number }
  | { kind: 'kill-task-manager'; taskManager: string; host: string }
  | { kind: 'lose-host'; host: string; taskManagers: string[] }
  | { kind: 'stall-task-manager'; taskManager: string; heartbeatTimeoutMs: number }
  | { kind: 'corrupt-local-copy' | 'delete-local-copy'; host: string; vertex: string; subtask: number; run?: string; keyGroup?: number; paths: string[] }
  | { kind: 'slow-operator'; vertex: string; factor: number }
  | { kind: 'slow-remote-storage'; factor: number }
  | { kind: 'fail-remote-storage' }
  | { kind: 'heal-remote-storage' }
  | { kind: 'cancel-job' }
  /** stop-with-savepoint, without and with `drain` (two kinds: each reads as one sentence in every language) */
  | { kind: 'stop-with-savepoint' | 'stop-with-savepoint-drain' }
  | { kind: 'rescale'; vertex: string; parallelism: number; checkpointId: number }
  | { kind: 'restart-from-savepoint'; savepointId: number };

export type FaultKind = FaultDetail['kind'];

/** The fault as one English line (the `description` of its event). */
export function describeFault(fault: FaultDetail): string {
  switch (fault.kind) {
    case 'fail-task':
      return `fail task ${fault.vertex}#${fault.subtask}`;
    case 'kill-task-manager':
      return `kill TaskManager ${fault.taskManager} on ${fault.host}; it restarts on ${fault.host}`;
    case 'lose-host':
      return `lose host ${fault.host} (${fault.taskManagers.join(', ')})`;
    case 'stall-task-manager':
      return `stall TaskManager ${fault.taskManager}; the JobManager notices after heartbeat.timeout (${fault.heartbeatTimeoutMs} ms)`;
    case 'corrupt-local-copy':
    case 'delete-local-copy':
      return `${fault.kind === 'corrupt-local-copy' ? 'corrupt' : 'delete'} local copy of ${fault.vertex}#${fault.subtask} on ${fault.host}: ${fault.paths.join(', ')}`;
    case 'slow-operator':
      return `slow ${fault.vertex} by ×${fault.factor}`;
    case 'slow-remote-storage':
      return `remote storage ×${fault.factor} slower`;
    case 'fail-remote-storage':
      return 'remote storage fails every request';
    case 'heal-remote-storage':
      return 'remote storage works again';
    case 'cancel-job':
      return 'cancel the job';
    case 'stop-with-savepoint':
      return 'stop the job with a savepoint';
    case 'stop-with-savepoint-drain':
      return 'drain the job, then stop it with a savepoint';
    case 'rescale':
      return `rescale ${fault.vertex} to parallelism ${fault.parallelism} from checkpoint ${fault.checkpointId}`;
    case 'restart-from-savepoint':
      return `restart from savepoint ${fault.savepointId}`;
  }
}

/** The `fault` event for `fault` at `time`: the data, and its English description beside it. */
export function faultEvent(time: number, fault: FaultDetail): JobEvent {
  return { type: 'fault', time, description: describeFault(fault), fault };
}

import type { CoordinatorTimer } from '../protocol.ts';
import type { CheckpointFailureReason } from '../checkpoint/checkpoint-failure-reason.ts';
import type { FaultSpec } from '../scenario/scenario-types.ts';
import type { ScheduledOperation } from '../job/scheduled-operation.ts';

/**
 * What the scale runtime puts on its event queue: the interesting moments of a job modelled by
 * flows (a barrier reaching a vertex, an upload done, a restore done, the backlog worked off),
 * besides the JobMaster's timers, faults and restarts. Events of an older execution attempt are
 * dropped when they come due.
 */
export type ScaleEvent =
  | { type: 'coordinator-timer'; timer: CoordinatorTimer }
  | { type: 'fault'; fault: FaultSpec }
  | { type: 'operation'; operation: ScheduledOperation['operation'] }
  | { type: 'restart'; attempt: number }
  /** the barrier of `checkpointId` reached every subtask of vertex `vertex` (topological index) */
  | { type: 'barrier'; attempt: number; checkpointId: number; vertex: number }
  /** subtask `task` (index in the execution graph) uploaded its snapshot: the acknowledgement reaches the JobManager */
  | { type: 'acknowledge'; attempt: number; checkpointId: number; task: number }
  | { type: 'decline'; attempt: number; checkpointId: number; reason: CheckpointFailureReason }
  /** every subtask restored its state: the job processes again */
  | { type: 'restored'; attempt: number }
  /** some subtasks' state could be read from nowhere (remote storage failing, no local copy): the attempt fails */
  | { type: 'restore-failed'; attempt: number; tasks: number[]; cause: string }
  /** a stalled TaskManager's heartbeats have been missing for heartbeat.timeout */
  | { type: 'heartbeat-missed'; taskManager: string; silentMs: number }
  /** the backlog may be gone: the flows change pace */
  | { type: 'caught-up'; attempt: number }
  | { type: 'metrics-sample' };

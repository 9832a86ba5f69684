import type { CheckpointFailureReason } from '../checkpoint/checkpoint-failure-reason.ts';
import type { CheckpointBarrier, CoordinatorTimer, NetworkBuffer, SubtaskCheckpointMetrics, TaskStateSnapshot } from '../protocol.ts';
import type { FaultSpec } from '../scenario/scenario-types.ts';
import type { RestartRequestRecord } from '../replay/delivery-log.ts';
import type { ExecutionGraph } from '../job/execution-graph.ts';
import type { OperatorRequest } from '../job/scheduled-operation.ts';
import type { FlushJob } from '../state/lsm/rocksdb-background-threads.ts';

/**
 * The events of the sim driver's queue. Events addressed to tasks carry the job's execution
 * attempt: after a restart, whatever the old attempt still had in flight is dropped on arrival.
 */
export type SimEvent =
  | { type: 'task-wake'; attempt: number; task: number; token: number }
  | { type: 'deliver-buffer'; attempt: number; channel: number; buffer: NetworkBuffer }
  | { type: 'deliver-credit'; attempt: number; channel: number; credits: number; endOfDataProcessed?: true }
  | { type: 'metrics-sample' }
  | { type: 'trigger-task'; attempt: number; task: number; barrier: CheckpointBarrier }
  | { type: 'notify-tasks'; attempt: number; checkpointId: number; complete: boolean }
  | { type: 'coordinator-timer'; timer: CoordinatorTimer }
  | {
      type: 'acknowledge';
      attempt: number;
      task: number;
      checkpointId: number;
      snapshot: TaskStateSnapshot;
      metrics: SubtaskCheckpointMetrics & { asyncDurationMs: number; ackTimestamp: number };
    }
  /** `attempt` and `task`: the declining subtask's; absent for a replay's recorded checkpoint failure (the run's own, never fenced) */
  | { type: 'decline'; attempt?: number; task?: number; checkpointId: number; reason: CheckpointFailureReason }
  | { type: 'fault'; fault: FaultSpec }
  /** an operator request scheduled for this time (SimulationOptions.operations) */
  | { type: 'operation'; operation: OperatorRequest }
  | { type: 'restart'; attempt: number }
  /** under replay: the restart's state is read back when the recording had it (a restart takes time live) */
  | { type: 'restart-prepared'; attempt: number }
  /** under replay: a recorded rescale or restart from a savepoint */
  | { type: 'replay-restart'; request: RestartRequestRecord }
  | { type: 'task-running'; attempt: number; task: number }
  /** a task-local copy finished writing to its host's disk (until then it is partial) */
  | { type: 'local-write-done'; attempt: number; task: number; checkpointId: number; snapshot: TaskStateSnapshot }
  /** a rocksdb background thread finished a flush job (timed background: state.backend.rocksdb.thread.num set) */
  | { type: 'rocksdb-flush-done'; attempt: number; task: number; job: FlushJob }
  /** restoring read from nowhere: the attempt fails once the read was tried */
  | { type: 'restore-failed'; attempt: number; tasks: number[]; cause: string }
  /**
   * a stalled TaskManager left the JobMaster's heartbeat requests unanswered since `since`: one
   * check per heartbeat.interval, the last at heartbeat.timeout; keyed by the TaskManager's
   * process (`incarnation`), not by the job's attempt, since liveness outlives failovers
   */
  | { type: 'heartbeat-missed'; taskManager: string; incarnation: number; since: number };

/** One line of the trace: fixed-precision time, then the event in a stable textual form. */
export function formatSimEvent(now: number, event: SimEvent, graph: ExecutionGraph): string {
  const t = now.toFixed(6);
  const task = (i: number) => {
    const s = graph.subtasks[i]?.id;
    return s ? `${s.vertexId}#${s.subtaskIndex}` : `task${i}`;
  };
  switch (event.type) {
    case 'task-wake':
      return `${t} wake ${task(event.task)} a${event.attempt} token=${event.token}`;
    case 'deliver-buffer':
      return `${t} buffer ch=${event.channel} a${event.attempt} ${describeBuffer(event.buffer)}`;
    case 'deliver-credit':
      return `${t} credit ch=${event.channel} a${event.attempt} +${event.credits}${event.endOfDataProcessed ? ' end-of-data processed' : ''}`;
    case 'metrics-sample':
      return `${t} metrics`;
    case 'trigger-task':
      return `${t} trigger ${task(event.task)} chk=${event.barrier.checkpointId}`;
    case 'notify-tasks':
      return `${t} notify-${event.complete ? 'complete' : 'aborted'} chk=${event.checkpointId}`;
    case 'coordinator-timer':
      return `${t} timer ${event.timer.kind} ${event.timer.kind === 'periodic' ? `gen=${event.timer.generation}` : `chk=${event.timer.checkpointId}`}`;
    case 'acknowledge':
      return `${t} ack ${task(event.task)} chk=${event.checkpointId} size=${event.snapshot.stateSize}`;
    case 'decline':
      return `${t} decline chk=${event.checkpointId} ${event.reason}`;
    case 'fault':
      return `${t} fault ${JSON.stringify(event.fault)}`;
    case 'operation':
      return `${t} operation ${JSON.stringify(event.operation)}`;
    case 'restart':
      return `${t} restart a${event.attempt}`;
    case 'restart-prepared':
      return `${t} restart-prepared a${event.attempt}`;
    case 'replay-restart':
      return `${t} replay-restart ${JSON.stringify(event.request)}`;
    case 'task-running':
      return `${t} running ${task(event.task)} a${event.attempt}`;
    case 'restore-failed':
      return `${t} restore-failed a${event.attempt}`;
    case 'heartbeat-missed':
      return `${t} heartbeat-missed ${event.taskManager} since=${event.since}`;
    case 'local-write-done':
      return `${t} local-copy ${task(event.task)} chk=${event.checkpointId}`;
    case 'rocksdb-flush-done':
      return `${t} flush-done ${task(event.task)} a${event.attempt} cf=${event.job.columnFamily} job=${event.job.job}`;
  }
}

function describeBuffer(buffer: NetworkBuffer): string {
  if (buffer.kind === 'event') {
    const e = buffer.event;
    return e.kind === 'end-of-partition' || e.kind === 'end-of-data' ? `event ${e.kind}` : `event ${e.kind} ${e.checkpointId}${buffer.priority ? ' priority' : ''}`;
  }
  const first = buffer.records[0];
  const head = first ? ` first=${first.key}:${first.value}@${first.timestamp}` : '';
  return `data n=${buffer.records.length}${head}${buffer.watermark === undefined ? '' : ` wm=${buffer.watermark}`}`;
}

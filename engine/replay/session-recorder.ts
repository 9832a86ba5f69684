import type { JobEvent } from '../run/job-events.ts';
import type { FaultDetail } from '../run/fault-event.ts';
import type { FaultSpec } from '../scenario/scenario-types.ts';
import { appendRuns, emptyDeliveryLog, subtaskKey, type DeliveryLog, type FaultRecord, type SubtaskDelivery } from './delivery-log.ts';
import { DeliveryRecorder, type DeliveryPart } from './delivery-recorder.ts';
import type { StreamTask } from '../task/stream-task.ts';

/** Faults that fail tasks: the job fails over once the JobManager learns of it. */
const FAILING_FAULTS = new Set(['fail-task', 'kill-task-manager', 'lose-host']);

/**
 * Puts a run's recording together on the JobManager's side: the subtasks' parts as they are
 * drained (in order, per attempt and subtask), the checkpoints triggered and restores done (from
 * the job events both drivers emit), and the faults the driver applied.
 */
export class SessionRecorder {
  readonly #log: DeliveryLog = emptyDeliveryLog();
  readonly #subtasks = new Map<string, SubtaskDelivery>();
  /** a failing fault whose failover the JobManager has not begun yet (live, a task's failure is reported a little later) */
  #awaitingFailover: FaultRecord | undefined;

  /** Gives a deployed task its recorder. */
  attach(task: StreamTask): void {
    task.recorder = new DeliveryRecorder(task.gates.length);
  }

  addPart(attempt: number, vertex: string, subtask: number, part: DeliveryPart): void {
    const key = subtaskKey(attempt, vertex, subtask);
    let entry = this.#subtasks.get(key);
    if (!entry) {
      entry = { attempt, vertex, subtask, gates: part.gates.map(() => []), barriers: [], aborts: [], watermarks: [] };
      this.#subtasks.set(key, entry);
      this.#log.subtasks.push(entry);
    }
    part.gates.forEach((runs, g) => appendRuns((entry.gates[g] ??= []), runs));
    entry.barriers.push(...part.barriers);
    entry.aborts.push(...part.aborts);
    entry.watermarks.push(...part.watermarks);
  }

  /**
   * A fault the driver carried out, or (`applied` false) one of the schedule it refused, which a
   * replay feeds again to be refused alike (checkpoint triggers are recorded from their events instead).
   */
  faultApplied(time: number, fault: FaultSpec, applied: boolean, job: NonNullable<FaultRecord['job']>): void {
    if (fault.type === 'trigger-checkpoint' || fault.type === 'trigger-savepoint') return;
    const record: FaultRecord = { time, fault: { ...fault, at_ms: time }, job };
    this.#log.faults.push(record);
    if (applied && FAILING_FAULTS.has(fault.type)) this.#awaitingFailover = record;
  }

  /** Feeds a job event; `attempt` is the driver's attempt when a restore is reported. */
  onEvent(event: JobEvent, attempt: number): void {
    // A replay fails over when the live JobManager did: at the failover, not when the fault was sent.
    if (event.type === 'job-status' && event.status === 'RESTARTING' && this.#awaitingFailover) {
      this.#awaitingFailover.time = event.time;
      this.#awaitingFailover = undefined;
    }
    if (event.type === 'checkpoint-triggered') {
      const { time, checkpointId, isSavepoint, synchronous, checkpointType } = event;
      this.#log.checkpoints.push({ time, checkpointId, isSavepoint, ...(synchronous ? { synchronous } : {}), ...(checkpointType ? { checkpointType } : {}) });
    }
    if (event.type === 'checkpoint-failed') {
      const trigger = this.#log.checkpoints.find((c) => c.checkpointId === event.checkpointId);
      if (trigger) Object.assign(trigger, { failedAt: event.time, failureReason: event.reason });
    }
    if (event.type === 'checkpoint-completed') {
      const trigger = this.#log.checkpoints.find((c) => c.checkpointId === event.checkpointId);
      if (trigger) trigger.completedAt = event.time;
    }
    if (event.type === 'fault' && event.fault) this.#restartRequested(event.time, event.fault);
    if (event.type === 'restore') this.#log.restores.push({ attempt, checkpointId: event.restore.checkpointId, time: event.time });
  }

  /** Both drivers announce an accepted rescale or savepoint restart with this fault event, before failing over. */
  #restartRequested(time: number, fault: FaultDetail): void {
    if (fault.kind === 'rescale') this.#log.restarts.push({ time, operation: 'rescale', checkpointId: fault.checkpointId, vertex: fault.vertex, parallelism: fault.parallelism });
    if (fault.kind === 'restart-from-savepoint') this.#log.restarts.push({ time, operation: 'restart-from-savepoint', checkpointId: fault.savepointId });
  }

  /** A copy of the recording up to `endTime` (job time, now); subtasks by attempt, vertex and index (not by when they first reported). */
  log(endTime: number): DeliveryLog {
    const log = JSON.parse(JSON.stringify(this.#log)) as DeliveryLog;
    log.endTime = endTime;
    log.subtasks.sort((a, b) => a.attempt - b.attempt || (a.vertex < b.vertex ? -1 : a.vertex > b.vertex ? 1 : 0) || a.subtask - b.subtask);
    return log;
  }
}

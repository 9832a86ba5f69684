import { isCheckpointFailureReason, type CheckpointFailureReason } from '../checkpoint/checkpoint-failure-reason.ts';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import type { JobEvent } from '../run/job-events.ts';
import type { FaultSpec } from '../scenario/scenario-types.ts';
import type { StreamTask } from '../task/stream-task.ts';
import { subtaskKey, type CheckpointTriggerRecord, type DeliveryLog, type FaultRecord, type RestartRequestRecord } from './delivery-log.ts';
import type { JobStatus } from '../job/job-status.ts';
import { ReplayDivergence } from './replay-divergence.ts';
import { ReplayFeeder } from './replay-feeder.ts';

/** Failure reasons the replay brings about itself, as the live run did: a failover, the job's end. */
const CAUSED_BY_THE_JOB = new Set<CheckpointFailureReason>(['CHECKPOINT_COORDINATOR_SUSPEND', 'CHECKPOINT_COORDINATOR_SHUTDOWN']);

/**
 * What the sim driver needs to replay a recording: the recorded faults and checkpoint triggers
 * as its schedule (the periodic trigger stays off), a feeder per subtask, and the checkpoint
 * each restart restored. Pure: it only reads the recording and checks what happened against it.
 */
export class SimReplay {
  readonly #deliveries: Map<string, DeliveryLog['subtasks'][number]>;
  /** every recorded checkpoint, by trigger time */
  readonly #recorded: CheckpointTriggerRecord[];
  /** those the replay triggers itself, in order: a synchronous savepoint comes from its recorded stop-with-savepoint fault */
  readonly #triggers: CheckpointTriggerRecord[];
  #nextTrigger = 0;
  /** where the live job was when each scheduled fault came, by the fault scheduledFaults() made of it */
  readonly #faultJobs = new WeakMap<FaultSpec, NonNullable<FaultRecord['job']>>();
  /** recorded restart requests (rescale, restart from a savepoint) carried out so far */
  #restartsDone = 0;
  /** the feeders of the attempt running now */
  #feeders: ReplayFeeder[] = [];
  #feedersAttempt = -1;

  constructor(readonly log: DeliveryLog) {
    this.#deliveries = new Map(log.subtasks.map((d) => [subtaskKey(d.attempt, d.vertex, d.subtask), d]));
    this.#recorded = [...log.checkpoints].sort((a, b) => a.time - b.time || a.checkpointId - b.checkpointId);
    this.#triggers = this.#recorded.filter((t) => !t.synchronous);
  }

  /** The recorded faults and checkpoint triggers, as a fault schedule at their recorded times. */
  scheduledFaults(): FaultSpec[] {
    const triggers: FaultSpec[] = this.#triggers.map((t) => triggerFault(t));
    const faults = this.log.faults.map((f) => {
      const fault = { ...f.fault, at_ms: f.time };
      if (f.job) this.#faultJobs.set(fault, f.job);
      return fault;
    });
    return [...triggers, ...faults].sort((a, b) => a.at_ms - b.at_ms);
  }

  /**
   * A recorded fault may be applied once the replay's job is where the live job was when it came:
   * the same attempt (or a later one) and, for one that came while it ran, running again. The sim's
   * restore may take longer than the live one did; a fault during a restart only plans the
   * restart again, where one on a running job fails it over. Older recordings say nothing: at once.
   */
  faultReady(fault: FaultSpec, attempt: number, status: JobStatus, ended: boolean): boolean {
    const live = this.#faultJobs.get(fault);
    // A job that ended here gets it at once, to refuse it as the live job did or would have.
    if (!live || attempt > live.attempt || ended) return true;
    return attempt === live.attempt && (live.status !== 'RUNNING' || status === 'RUNNING');
  }

  /**
   * The replay's job may not finish while a checkpoint that completed live is still to be
   * triggered or to complete (the sim's tasks may drain sooner than the live ones did).
   */
  holdsJobEnd(pendingIds: readonly number[]): boolean {
    const later = this.#triggers.slice(this.#nextTrigger).some((t) => t.completedAt !== undefined);
    return later || this.#restartsDone < this.#restarts().length || pendingIds.some((id) => this.#recorded.some((t) => t.checkpointId === id && t.completedAt !== undefined));
  }

  /** The recorded restart requests, in the order they were made (older recordings have none). */
  #restarts(): RestartRequestRecord[] {
    return this.log.restarts ?? [];
  }

  /** The recorded restart requests, to schedule at their recorded times. */
  restartRequests(): readonly RestartRequestRecord[] {
    return this.#restarts();
  }

  /**
   * A recorded restart request may be carried out once the replay's job runs, has completed
   * what the request restores (acknowledgements are held to the recorded completion, so the sim
   * may get there later than the live run did), and every subtask of the attempt has consumed
   * what it had consumed live when the request came (the sim's costs may be slower).
   */
  restartReady(request: RestartRequestRecord, completedIds: readonly number[], running: boolean): boolean {
    return running && completedIds.includes(request.checkpointId) && this.#feeders.every((f) => f.exhausted);
  }

  /** A recorded restart request was planned again: it must be accepted and restore the recorded checkpoint. */
  checkRestart(request: RestartRequestRecord, problem: string | undefined, restoredId: number | undefined, now: number): void {
    this.#restartsDone++;
    const what = request.operation === 'rescale' ? `rescale of ${request.vertex} to ${request.parallelism}` : `restart from savepoint ${request.checkpointId}`;
    if (problem !== undefined) throw new ReplayDivergence(`${what} at ${now} ms: the recording made it, the replay refused it: ${problem}`);
    if (restoredId !== request.checkpointId) throw new ReplayDivergence(`${what} at ${now} ms: the recording restored checkpoint ${request.checkpointId}, the replay planned checkpoint ${restoredId}`);
  }

  /**
   * The replay reached the recording's end: a recorded restart request it never made (what it
   * restores never completed here, or the job never ran again) means the replay did not follow.
   */
  checkRestartsMade(now: number): void {
    const next = this.#restarts()[this.#restartsDone];
    if (next === undefined) return;
    const what = next.operation === 'rescale' ? `rescale of ${next.vertex} to ${next.parallelism}` : `restart from savepoint ${next.checkpointId}`;
    throw new ReplayDivergence(`${what} recorded at ${next.time} ms: the replay reached ${now} ms without being able to make it (it restores checkpoint ${next.checkpointId}, which the replay never completed, or the job was not running)`);
  }

  isTrigger(fault: FaultSpec): boolean {
    return fault.type === 'trigger-checkpoint' || fault.type === 'trigger-savepoint';
  }

  /**
   * Checkpoints that failed live for a reason of their own (a decline, a timeout), as declines at
   * the recorded time; those a failover or the job's end aborted fail here by the same cause. The
   * recording keeps the reason as the job event's text: one that names no CheckpointFailureReason
   * (only a hand-edited document has one) cannot be a decline, so it is left out.
   */
  recordedFailures(): Array<{ at: number; checkpointId: number; reason: CheckpointFailureReason }> {
    return this.#recorded.flatMap((t) => {
      const reason = t.failureReason;
      if (t.failedAt === undefined || reason === undefined || !isCheckpointFailureReason(reason) || CAUSED_BY_THE_JOB.has(reason)) return [];
      return [{ at: t.failedAt, checkpointId: t.checkpointId, reason }];
    });
  }

  /** A pending checkpoint completed live no later than `now`: the next trigger waits for it. */
  completesFirst(pendingIds: readonly number[], now: number): boolean {
    return pendingIds.some((id) => {
      const completedAt = this.#recorded.find((t) => t.checkpointId === id)?.completedAt;
      return completedAt !== undefined && completedAt <= now;
    });
  }

  /** The next recorded trigger comes after the replay's job ended: true (and it is passed over) when it completed nothing live. */
  skipAfterEnd(): boolean {
    const next = this.#triggers[this.#nextTrigger];
    if (next?.completedAt !== undefined) return false;
    this.#nextTrigger++;
    return true;
  }

  /** A recorded trigger was carried out: the coordinator must have triggered the recorded checkpoint. */
  checkTriggered(events: readonly JobEvent[], now: number): void {
    const expected = this.#triggers[this.#nextTrigger++];
    const triggered = events.find((e) => e.type === 'checkpoint-triggered');
    if (expected && triggered?.type === 'checkpoint-triggered' && triggered.checkpointId === expected.checkpointId) return;
    const got = triggered?.type === 'checkpoint-triggered' ? `checkpoint ${triggered.checkpointId}` : 'no checkpoint (the coordinator did not trigger one)';
    throw new ReplayDivergence(`coordinator at ${now} ms: the recording triggers checkpoint ${expected?.checkpointId ?? '(none)'}, the replay triggered ${got}`);
  }

  /**
   * When an acknowledgement may reach the coordinator: not before the recorded completion, so a
   * checkpoint completes when it did live (or later), never one the recording did not complete
   * (Infinity: it is held back, and the checkpoint ends as it did live: aborted, or timed out).
   */
  acknowledgeAt(checkpointId: number, now: number): number {
    const completedAt = this.#recorded.find((t) => t.checkpointId === checkpointId)?.completedAt;
    return completedAt === undefined ? Infinity : Math.max(now, completedAt);
  }

  /** Gives a task of this attempt its feeder: it follows the recorded order, or holds what was never consumed. */
  attach(task: StreamTask, attempt: number): void {
    const { vertexId, subtaskIndex } = task.id;
    const delivery = this.#deliveries.get(subtaskKey(attempt, vertexId, subtaskIndex));
    const feeder = new ReplayFeeder(`${vertexId}#${subtaskIndex} (attempt ${attempt})`, delivery, task.gates.map((g) => g.channels.length));
    if (attempt !== this.#feedersAttempt) this.#feeders = [];
    this.#feedersAttempt = attempt;
    this.#feeders.push(feeder);
    task.replayWith(feeder);
  }

  /**
   * When the recording deployed `attempt` after its restart: undefined, at once (as the sim can);
   * Infinity, never (live, a TaskManager lost meanwhile had the restart planned again as a later attempt).
   */
  restartDeployedAt(attempt: number): number | undefined {
    const recorded = this.log.restores.find((r) => r.attempt === attempt);
    if (recorded) return recorded.time;
    return this.log.restores.some((r) => r.attempt > attempt) ? Infinity : undefined;
  }

  /** The checkpoint the recording restored when it started `attempt`; undefined when it recorded none. */
  restoredCheckpoint(attempt: number, retained: readonly CompletedCheckpoint[]): CompletedCheckpoint | undefined {
    const recorded = this.log.restores.find((r) => r.attempt === attempt);
    if (!recorded) return undefined;
    const checkpoint = retained.find((c) => c.id === recorded.checkpointId);
    if (checkpoint) return checkpoint;
    throw new ReplayDivergence(`restart of attempt ${attempt}: the recording restored checkpoint ${recorded.checkpointId}, which the replay does not have (retained: ${retained.map((c) => c.id).join(', ') || 'none'})`);
  }
}

/** The trigger a recorded checkpoint is replayed by: a savepoint, a FULL checkpoint or a checkpoint. */
function triggerFault(t: CheckpointTriggerRecord): FaultSpec {
  if (t.isSavepoint) return { at_ms: t.time, type: 'trigger-savepoint' };
  return t.checkpointType === 'FULL' ? { at_ms: t.time, type: 'trigger-checkpoint', checkpoint_type: 'FULL' } : { at_ms: t.time, type: 'trigger-checkpoint' };
}

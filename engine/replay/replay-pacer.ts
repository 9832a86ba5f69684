import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import type { JobMasterEffect } from '../job/job-master-effect.ts';
import type { JobRuntime } from '../job/job-runtime.ts';
import type { FaultSpec } from '../scenario/scenario-types.ts';
import type { SimEvent } from '../sim/sim-event.ts';
import type { StreamTask } from '../task/stream-task.ts';
import type { DeliveryLog, RestartRequestRecord } from './delivery-log.ts';
import { SimReplay } from './sim-replay.ts';

/** What the pacer needs of the sim runtime it paces: its job, its queue and its JobMaster calls. */
export interface ReplayHost {
  readonly runtime: JobRuntime & { readonly tasks: readonly StreamTask[] };
  schedule(at: number, event: SimEvent): void;
  /** calls the JobMaster and carries out the effects it returns */
  drive(call: (effects: JobMasterEffect[]) => void): void;
  /** finishes the job when every task has finished (and the recording lets it) */
  maybeFinishJob(): void;
}

/**
 * A recording for `new Simulation(…, { replay })`: the log, and the pacer the sim runs it with.
 * The sim names the pacer only through this, so a page that never replays never loads it.
 */
export interface ReplaySource {
  readonly log: DeliveryLog;
  pacer(host: ReplayHost): ReplayPacer;
}

export function replayOf(log: DeliveryLog): ReplaySource {
  return { log, pacer: (host) => new ReplayPacer(log, host) };
}

/**
 * Paces the sim runtime to a recorded live session: the sim's costs are not the live machine's,
 * so a recorded checkpoint trigger, restart request or acknowledgement may come while the sim is
 * not yet where the live run was. The pacer holds each back until the sim gets there and then
 * lets it through, and checks that what followed is what the recording says (SimReplay).
 */
export class ReplayPacer {
  readonly replay: SimReplay;
  readonly #host: ReplayHost;
  /** recorded triggers waiting for the completion that preceded them live, oldest first */
  readonly #deferredTriggers: FaultSpec[] = [];
  /** recorded faults waiting for the job to be where it was live when they came, oldest first */
  readonly #deferredFaults: FaultSpec[] = [];
  /** a recorded restart request waiting for the replay to complete what it restores */
  #deferredRestart: RestartRequestRecord | undefined;

  constructor(log: DeliveryLog, host: ReplayHost) {
    this.replay = new SimReplay(log);
    this.#host = host;
  }

  /** The recorded faults and checkpoint triggers: the job's fault schedule under replay. */
  scheduledFaults(): FaultSpec[] {
    return this.replay.scheduledFaults();
  }

  /** Schedules the recorded restart requests and the checkpoints' own recorded failures. */
  start(): void {
    for (const request of this.replay.restartRequests()) this.#host.schedule(request.time, { type: 'replay-restart', request });
    for (const f of this.replay.recordedFailures()) this.#host.schedule(f.at, { type: 'decline', checkpointId: f.checkpointId, reason: f.reason });
  }

  /** See SimReplay.restartDeployedAt. */
  restartDeployedAt(attempt: number): number | undefined {
    return this.replay.restartDeployedAt(attempt);
  }

  attach(task: StreamTask, attempt: number): void {
    this.replay.attach(task, attempt);
  }

  /** The checkpoint the recorded restart of the current attempt restored. */
  recordedRestore(): CompletedCheckpoint | undefined {
    const { coordinator, attempt } = this.#host.runtime;
    return this.replay.restoredCheckpoint(attempt, [...coordinator.store.getAllCheckpoints(), ...coordinator.savepoints]);
  }

  /** The job may not finish while the recording still has checkpoints or restarts to come. */
  holdsJobEnd(): boolean {
    return this.replay.holdsJobEnd(this.#host.runtime.coordinator.pendingCheckpoints.map((p) => p.id));
  }

  /** An acknowledgement waits for its checkpoint's recorded completion time; true when it waits. */
  holdsAcknowledge(event: Extract<SimEvent, { type: 'acknowledge' }>, now: number): boolean {
    const at = this.replay.acknowledgeAt(event.checkpointId, now);
    if (at <= now) return false;
    if (at < Infinity) this.#host.schedule(at, event);
    return true;
  }

  /** An acknowledgement went through: what waited for it may go now, the job's end included. */
  afterAcknowledge(now: number): void {
    this.resume(now);
    this.#host.maybeFinishJob();
  }

  /**
   * A scheduled fault: true when the pacer takes it, a recorded checkpoint trigger (which it
   * carries out) or a recorded fault that must wait for the job to be where it was live.
   */
  onFault(fault: FaultSpec, now: number): boolean {
    if (this.replay.isTrigger(fault)) {
      this.#trigger(fault, now);
      return true;
    }
    if (this.#deferredFaults.length === 0 && this.#faultReady(fault)) return false;
    this.#deferredFaults.push(fault);
    return true;
  }

  /** The sim moved on (a task polled or started running): retries what was held back. */
  resume(now: number): void {
    // Oldest first; one that must wait again keeps the later ones waiting behind it.
    for (const fault of [...this.#deferredTriggers]) if (this.#trigger(fault, now) === 'waits') break;
    this.#applyReadyFaults(now);
    this.afterPoll(now);
  }

  /** Held-back recorded faults, oldest first, as far as the job has got to where each came live. */
  #applyReadyFaults(now: number): void {
    const { jobMaster } = this.#host.runtime;
    while (this.#deferredFaults.length > 0 && this.#faultReady(this.#deferredFaults[0]!)) {
      const fault = this.#deferredFaults.shift()!;
      this.#host.drive((e) => void jobMaster.operate(fault, now, e, 'schedule'));
    }
  }

  #faultReady(fault: FaultSpec): boolean {
    const { attempt, job } = this.#host.runtime;
    return this.replay.faultReady(fault, attempt, job.status, job.isTerminal);
  }

  /** After a task's poll: a held-back restart request may go now. */
  afterPoll(now: number): void {
    if (this.#deferredRestart) this.onRestartRequest(this.#deferredRestart, now);
  }

  /** A recorded checkpoint trigger: it must get the recorded checkpoint id. */
  #trigger(fault: FaultSpec, now: number): 'waits' | 'done' {
    const { job, coordinator, events, jobMaster } = this.#host.runtime;
    const waiting = this.#deferredTriggers.includes(fault);
    // A later trigger waits behind those already waiting (each must get the next recorded id).
    if (!waiting && this.#deferredTriggers.length > 0) {
      this.#deferredTriggers.push(fault);
      return 'waits';
    }
    // The replay's job ended sooner (the sim's costs are not the live machine's): a trigger that
    // completed nothing live changes nothing here either.
    if (job.isTerminal && this.replay.skipAfterEnd()) return this.#triggerDone(fault);
    // Live, the checkpoint before completed first (the coordinator triggers the next one at once):
    // the trigger waits for that completion here too.
    const pending = coordinator.pendingCheckpoints.map((p) => p.id);
    // So does one that came live once a restart had deployed its tasks, where the sim's restore takes longer.
    if (this.replay.completesFirst(pending, now) || !this.#allTasksRunning()) {
      if (!waiting) this.#deferredTriggers.push(fault);
      return 'waits';
    }
    this.#triggerDone(fault);
    const seen = events.length;
    const kind = fault.type === 'trigger-savepoint' ? 'savepoint' : fault.type === 'trigger-checkpoint' && fault.checkpoint_type === 'FULL' ? 'full-checkpoint' : 'checkpoint';
    this.#host.drive((e) => jobMaster.coordinate(now, e, (c) => coordinator.trigger(kind, now, c)));
    this.replay.checkTriggered(events.slice(seen), now);
    this.#host.maybeFinishJob();
    return 'done';
  }

  #triggerDone(fault: FaultSpec): 'done' {
    const i = this.#deferredTriggers.indexOf(fault);
    if (i >= 0) this.#deferredTriggers.splice(i, 1);
    return 'done';
  }

  /** The replay ended: every recorded restart request must have been made (SimReplay.checkRestartsMade). */
  checkFollowed(now: number): void {
    this.replay.checkRestartsMade(now);
  }

  /** Carries out a recorded rescale or savepoint restart once the replay has what it restores (else it waits). */
  onRestartRequest(request: RestartRequestRecord, now: number): void {
    const runtime = this.#host.runtime;
    const completed = [...runtime.coordinator.store.getAllCheckpoints(), ...runtime.coordinator.savepoints].map((c) => c.id);
    if (!this.replay.restartReady(request, completed, this.#allTasksRunning())) {
      this.#deferredRestart = request;
      return;
    }
    this.#deferredRestart = undefined;
    const problem = request.operation === 'rescale' ? runtime.rescale(request.vertex!, request.parallelism!) : runtime.restartFromSavepoint(request.checkpointId);
    this.replay.checkRestart(request, problem, runtime.jobMaster.requestedRestoreId, now);
  }

  #allTasksRunning(): boolean {
    const { job, tasks } = this.#host.runtime;
    return job.status === 'RUNNING' && tasks.every((t) => t.lifecycle.state === 'RUNNING' || t.lifecycle.state === 'FINISHED');
  }
}

/**
 * Every restore used the latest completed checkpoint, or the state an operator asked for: a
 * rescale restores what its request named (the latest checkpoint or a newer savepoint), a restart
 * from a savepoint that savepoint. Flink's failover restores
 * `CompletedCheckpointStore.getLatestCheckpoint()`; savepoints are not added to that store, except
 * the one a job was (re)started from (CheckpointCoordinator.restoreSavepoint adds it, and a
 * rescale is a stop-with-savepoint and a restart from it): until a newer checkpoint completes, a
 * failover after such a restart restores that savepoint again, never a checkpoint from before it.
 * A restart with something to restore must restore it: an attempt that runs on to complete a
 * checkpoint or to finish without a restore started from nothing (an attempt that fails over
 * again first may have failed to read its state, and is not judged). The restore of a job's first
 * attempt, before it ever restarted, is what the job was submitted from (a savepoint, or the
 * checkpoint a JobManager failover recovered): failovers then go back to it.
 */
import type { JobEvent } from '../job-events.ts';
import type { InvariantChecker, InvariantViolation } from './invariant-checker.ts';

export class RestoreSourceChecker implements InvariantChecker {
  readonly invariant = 'restore-source';
  readonly #violations: InvariantViolation[] = [];
  /** what a failover must restore: the latest completed checkpoint, or the state the job was restarted from */
  #latest: { id: number; isSavepoint: boolean } | undefined;
  /** what an accepted rescale or savepoint restart asked to restore, until its restore comes */
  #requested: { id: number; what: string } | undefined;
  #status = 'CREATED';
  /** a restarted attempt that has not restored yet, and what it should restore */
  #awaitingRestore: { since: number; id: number } | undefined;
  /** the job was deployed and has not restarted yet: a restore now is the state it was submitted from */
  #firstAttempt = false;

  onEvent(event: JobEvent): void {
    if (event.type === 'checkpoint-completed' || (event.type === 'job-status' && event.status === 'FINISHED')) this.#checkRestored(event.time);
    switch (event.type) {
      case 'job-status':
        if (event.status === 'RUNNING' && this.#status === 'RESTARTING') {
          const id = this.#requested?.id ?? this.#latest?.id;
          this.#awaitingRestore = id === undefined ? undefined : { since: event.time, id };
        } else if (event.status !== 'RUNNING') this.#awaitingRestore = undefined;
        this.#firstAttempt = event.status === 'RUNNING' && this.#status === 'CREATED';
        this.#status = event.status;
        return;
      case 'checkpoint-completed':
        if (!event.isSavepoint && event.checkpointId > (this.#latest?.id ?? 0)) this.#latest = { id: event.checkpointId, isSavepoint: false };
        return;
      case 'fault':
        if (event.fault?.kind === 'rescale') this.#requested = { id: event.fault.checkpointId, what: 'the rescale asked for' };
        if (event.fault?.kind === 'restart-from-savepoint') this.#requested = { id: event.fault.savepointId, what: 'the savepoint restart asked for' };
        return;
      case 'restore':
        return this.#checkRestore(event);
      default:
        return;
    }
  }

  #checkRestored(time: number): void {
    const awaiting = this.#awaitingRestore;
    this.#awaitingRestore = undefined;
    if (awaiting) this.#violate(time, `the job restarted at ${awaiting.since} ms without restoring ${awaiting.id}: it started from nothing`);
  }

  #checkRestore(event: Extract<JobEvent, { type: 'restore' }>): void {
    this.#awaitingRestore = undefined;
    const { checkpointId, isSavepoint } = event.restore;
    const requested = this.#requested;
    this.#requested = undefined;
    if (this.#firstAttempt && !requested && this.#latest === undefined) {
      this.#firstAttempt = false;
      this.#latest = { id: checkpointId, isSavepoint };
      return;
    }
    if (requested) {
      if (checkpointId !== requested.id) this.#violate(event.time, `restored ${checkpointId}, but ${requested.what} ${requested.id}`);
      // the job now runs from what it restored: later failovers go back to it (or a newer checkpoint)
      this.#latest = { id: checkpointId, isSavepoint };
      return;
    }
    const latest = this.#latest;
    if (latest === undefined) this.#violate(event.time, `restored checkpoint ${checkpointId}, but none had completed`);
    else if (checkpointId !== latest.id) this.#violate(event.time, `a failover restored ${checkpointId}, but the latest ${latest.isSavepoint ? 'restored savepoint' : 'completed checkpoint'} was ${latest.id}`);
    else if (isSavepoint !== latest.isSavepoint) this.#violate(event.time, `a failover restored ${checkpointId} as a ${isSavepoint ? 'savepoint' : 'checkpoint'}`);
  }

  #violate(time: number, message: string): void {
    this.#violations.push({ invariant: this.invariant, time, message });
  }

  verdict(): InvariantViolation[] {
    return [...this.#violations];
  }
}

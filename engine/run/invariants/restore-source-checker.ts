/**
 * Every restore used the latest completed checkpoint, or the state an operator asked for: a
 * rescale restores what its request named (the latest checkpoint or a newer savepoint), a restart
 * from a savepoint that savepoint. Flink's failover restores
 * `CompletedCheckpointStore.getLatestCheckpoint()`, and savepoints are not in that store.
 */
import type { JobEvent } from '../job-events.ts';
import type { InvariantChecker, InvariantViolation } from './invariant-checker.ts';

export class RestoreSourceChecker implements InvariantChecker {
  readonly invariant = 'restore-source';
  readonly #violations: InvariantViolation[] = [];
  #latestCheckpoint: number | undefined;
  #savepoints = new Set<number>();
  /** what an accepted rescale or savepoint restart asked to restore, until its restore comes */
  #requested: { id: number; what: string } | undefined;

  onEvent(event: JobEvent): void {
    switch (event.type) {
      case 'checkpoint-completed':
        if (event.isSavepoint) this.#savepoints.add(event.checkpointId);
        else this.#latestCheckpoint = Math.max(this.#latestCheckpoint ?? 0, event.checkpointId);
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

  #checkRestore(event: Extract<JobEvent, { type: 'restore' }>): void {
    const { checkpointId, isSavepoint } = event.restore;
    const requested = this.#requested;
    this.#requested = undefined;
    if (requested) {
      if (checkpointId !== requested.id) this.#violate(event.time, `restored ${checkpointId}, but ${requested.what} ${requested.id}`);
      return;
    }
    if (isSavepoint || this.#savepoints.has(checkpointId)) this.#violate(event.time, `a failover restored savepoint ${checkpointId}; savepoints are not in the completed checkpoint store`);
    else if (this.#latestCheckpoint === undefined) this.#violate(event.time, `restored checkpoint ${checkpointId}, but none had completed`);
    else if (checkpointId !== this.#latestCheckpoint) this.#violate(event.time, `restored checkpoint ${checkpointId}, but the latest completed one was ${this.#latestCheckpoint}`);
  }

  #violate(time: number, message: string): void {
    this.#violations.push({ invariant: this.invariant, time, message });
  }

  verdict(): InvariantViolation[] {
    return [...this.#violations];
  }
}

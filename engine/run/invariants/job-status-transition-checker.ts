/**
 * Job status transitions are legal: each `job-status` event moves the job along an edge of
 * Flink's JobStatus graph (DefaultExecutionGraph.transitionState, as the DefaultScheduler drives
 * it), written out here apart from the engine's own state machine so that the two can disagree.
 * A globally terminal status (FINISHED, FAILED, CANCELED) is never left, and job time never goes
 * backwards between status changes.
 */
import type { JobEvent } from '../job-events.ts';
import type { JobStatus } from '../../job/job-status.ts';
import type { InvariantChecker, InvariantViolation, RunOutcome } from './invariant-checker.ts';

/**
 * Flink's legal moves (SUSPENDED, RECONCILING and INITIALIZING are left out: the playground has no
 * HA). Cancelling a restarting or created job went straight to CANCELED before Flink 1.10 and
 * through CANCELLING since; both are allowed, as is FAILING → RESTARTING of the older schedulers.
 */
const LEGAL: Record<JobStatus, readonly JobStatus[]> = {
  CREATED: ['RUNNING', 'FAILING', 'CANCELLING', 'CANCELED'],
  RUNNING: ['FAILING', 'RESTARTING', 'CANCELLING', 'FINISHED'],
  // a failure with restarts left (FailoverStrategy), or none left (ExecutionFailureHandler: FAILED after FAILING)
  RESTARTING: ['RUNNING', 'FAILING', 'CANCELLING', 'CANCELED'],
  FAILING: ['FAILED', 'RESTARTING', 'CANCELLING'],
  CANCELLING: ['CANCELED'],
  FAILED: [],
  CANCELED: [],
  FINISHED: [],
};

export class JobStatusTransitionChecker implements InvariantChecker {
  readonly invariant = 'job-status-transitions';
  readonly #violations: InvariantViolation[] = [];
  #status: JobStatus = 'CREATED';
  #time = 0;

  onEvent(event: JobEvent): void {
    if (event.type !== 'job-status') return;
    if (event.time < this.#time) this.#violate(event.time, `job time went back from ${this.#time} to ${event.time} at ${this.#status} → ${event.status}`);
    if (!(LEGAL[this.#status] ?? []).includes(event.status)) this.#violate(event.time, `illegal job status transition ${this.#status} → ${event.status}`);
    this.#status = event.status;
    this.#time = Math.max(this.#time, event.time);
  }

  #violate(time: number, message: string): void {
    this.#violations.push({ invariant: this.invariant, time, message });
  }

  verdict({ report }: RunOutcome): InvariantViolation[] {
    const end = report.job.status;
    const out = [...this.#violations];
    if (end !== this.#status) out.push({ invariant: this.invariant, time: null, message: `the report says ${end}, the last job-status event ${this.#status}` });
    return out;
  }
}

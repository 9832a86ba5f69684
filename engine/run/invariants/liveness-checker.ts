/**
 * Liveness: once the faults stop (the liveness phase, from `from` on), a checkpoint completes and
 * the job catches up — a bounded job FINISHES; an unbounded one is RUNNING and its sink holds, per
 * key, what the failure-free run had written a while before the end (`oracle.behind`).
 *
 * Where the oracle says what the failure-free run itself achieved (`oracle.reference`), the run is
 * asked no more: a configuration whose checkpoints always expire never finishes, faults or not.
 */
import type { JobEvent } from '../job-events.ts';
import type { InvariantChecker, InvariantViolation, ReferenceProgress, RunOutcome } from './invariant-checker.ts';

export class LivenessChecker implements InvariantChecker {
  readonly invariant = 'liveness';
  readonly #from: number;
  readonly #bounded: boolean;
  #completedSince = 0;

  /** `from`: job time the faults stopped; `bounded`: every source is bounded, so the job must finish. */
  constructor(options: { from: number; bounded: boolean }) {
    this.#from = options.from;
    this.#bounded = options.bounded;
  }

  onEvent(event: JobEvent): void {
    if (event.type === 'checkpoint-completed' && event.time >= this.#from) this.#completedSince++;
  }

  verdict({ report, oracle }: RunOutcome): InvariantViolation[] {
    const status = report.job.status;
    const out: string[] = [];
    const asked = this.#referenceIsLive(oracle.reference);
    if (this.#bounded && asked && status !== 'FINISHED') out.push(`the bounded job ended ${status}, not FINISHED${report.job.failureCause ? `: ${report.job.failureCause.split('\n')[0]}` : ''}`);
    if (!this.#bounded) {
      if (asked && status !== 'RUNNING') out.push(`the unbounded job is ${status}, not RUNNING, after the faults stopped`);
      if (asked && this.#completedSince === 0) out.push(`no checkpoint completed after the faults stopped at ${this.#from} ms`);
      const behind = oracle.behind?.perKey ?? {};
      const written = Object.values(report.output.perKey).reduce((n, k) => n + k.records, 0);
      const expected = Object.values(behind).reduce((n, k) => n + k.records, 0);
      if (written < expected) out.push(`the sink holds ${written} records, fewer than the ${expected} the failure-free run had written a while before: the job did not catch up`);
    }
    return out.map((message) => ({ invariant: this.invariant, time: null, message }));
  }

  /** Whether the failure-free run finished (bounded) or checkpointed after the faults (unbounded); unknown counts as yes. */
  #referenceIsLive(reference: ReferenceProgress | undefined): boolean {
    if (reference === undefined) return true;
    return this.#bounded ? reference.status === 'FINISHED' : reference.checkpointedInLivenessPhase;
  }
}

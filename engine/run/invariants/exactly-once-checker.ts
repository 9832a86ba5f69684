/**
 * Exactly-once: under EXACTLY_ONCE with a two-phase-commit sink, the sink's output equals the
 * failure-free output — no record written more often than the failure-free run writes it by a
 * while later (`ahead`), none it had written a while before (`behind`) left out.
 *
 * Exactly-once holds relative to the state a restore starts from: an operator who restarts the
 * job from a savepoint older than the latest completed checkpoint rewinds it on purpose, and what
 * was committed after that savepoint is written again (in Flink as here). After such a rewind only
 * the missing side is checked.
 */
import type { JobEvent } from '../job-events.ts';
import { promisesExactlyOnce, type InvariantChecker, type InvariantViolation, type RunOutcome } from './invariant-checker.ts';

export class ExactlyOnceChecker implements InvariantChecker {
  readonly invariant = 'exactly-once';
  #latestCheckpoint = 0;
  #rewound = false;

  onEvent(event: JobEvent): void {
    if (event.type === 'checkpoint-completed' && !event.isSavepoint) this.#latestCheckpoint = Math.max(this.#latestCheckpoint, event.checkpointId);
    if (event.type === 'restore' && event.restore.isSavepoint && event.restore.checkpointId < this.#latestCheckpoint) this.#rewound = true;
  }

  /** Whether an operator restored a savepoint older than the latest completed checkpoint. */
  get rewound(): boolean {
    return this.#rewound;
  }

  verdict({ scenario, oracle }: RunOutcome): InvariantViolation[] {
    if (!promisesExactlyOnce(scenario)) return [];
    const out: InvariantViolation[] = [];
    if (oracle.ahead.duplicates > 0 && !this.#rewound) out.push(this.#violation(`${oracle.ahead.duplicates} records written more often than in the failure-free run`));
    if (oracle.behind && oracle.behind.missing > 0) out.push(this.#violation(`${oracle.behind.missing} records of the failure-free run missing from the sink`));
    return out;
  }

  #violation(message: string): InvariantViolation {
    return { invariant: this.invariant, time: null, message };
  }
}

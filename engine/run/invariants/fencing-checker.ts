/**
 * Fencing: no task of an old attempt sends, acknowledges or commits after its attempt was
 * cancelled. Flink tags every task with its ExecutionAttemptID and the JobMaster's RPC endpoints
 * with a fencing token; a message of a cancelled attempt is dropped, and a transactional sink's
 * external system fences the old producer (Kafka's epoch). The runtimes fence by attempt where the
 * message arrives; this checker watches what they let through (task-message.ts) and keeps its own
 * account of which attempts were cancelled, so a fence that leaks shows here.
 */
import type { TaskMessage } from '../../job/task-message.ts';
import type { InvariantChecker, InvariantViolation } from './invariant-checker.ts';

const VERB: Record<Exclude<TaskMessage['kind'], 'attempt-cancelled'>, string> = {
  acknowledge: 'acknowledged',
  decline: 'declined',
  commit: 'committed',
  deliver: 'had a buffer delivered',
};

export class FencingChecker implements InvariantChecker {
  readonly invariant = 'fencing';
  /** when each attempt's tasks were cancelled */
  readonly #cancelledAt = new Map<number, number>();
  /** attempts are cancelled in order: every attempt up to this one is fenced off */
  #highestCancelled = -1;
  readonly #violations: InvariantViolation[] = [];
  /** messages seen, by kind: a test can tell that the checker was fed at all */
  readonly seen: Record<TaskMessage['kind'], number> = { 'attempt-cancelled': 0, acknowledge: 0, decline: 0, commit: 0, deliver: 0 };

  onEvent(): void {
    // Job events carry no attempt; the task messages do.
  }

  onTaskMessage(message: TaskMessage): void {
    this.seen[message.kind]++;
    if (message.kind === 'attempt-cancelled') {
      if (!this.#cancelledAt.has(message.attempt)) this.#cancelledAt.set(message.attempt, message.time);
      this.#highestCancelled = Math.max(this.#highestCancelled, message.attempt);
      return;
    }
    if (message.attempt > this.#highestCancelled) return;
    const cancelled = this.#cancelledAt.get(message.attempt);
    const when = cancelled === undefined ? 'after a later attempt was cancelled' : `after its attempt was cancelled at ${ms(cancelled)} ms`;
    const what = message.kind === 'commit' ? `transaction ${message.transactionId}` : message.kind === 'deliver' ? '' : `checkpoint ${message.checkpointId}`;
    this.#violations.push({
      invariant: this.invariant,
      time: message.time,
      message: `${message.subtask} of attempt ${message.attempt} ${VERB[message.kind]}${what ? ` ${what}` : ''} at ${ms(message.time)} ms, ${when}`,
    });
  }

  verdict(): InvariantViolation[] {
    return [...this.#violations];
  }
}

/** Job time to the microsecond: the sim's times carry float noise. */
function ms(time: number): number {
  return Number(time.toFixed(3));
}

import { createMachine, type StateMachine } from '@xstate/fsm';

/** Flink's JobStatus values the playground uses. */
export const USED_JOB_STATUSES = ['CREATED', 'RUNNING', 'FAILING', 'FAILED', 'RESTARTING', 'CANCELLING', 'CANCELED', 'FINISHED'] as const;
export type JobStatus = (typeof USED_JOB_STATUSES)[number];

export type JobStatusEvent =
  | { type: 'START' }
  | { type: 'FAIL' }
  | { type: 'RESTART' }
  | { type: 'RESTARTED' }
  | { type: 'GIVE_UP' }
  | { type: 'CANCEL' }
  | { type: 'CANCELED' }
  | { type: 'FINISH' };

type Context = Record<string, never>;
type Typestate = { value: JobStatus; context: Context };

/**
 * The job's status moves as Flink's does: a failure goes RUNNING → RESTARTING → RUNNING while
 * the restart strategy allows it, or RUNNING → FAILING → FAILED when it does not.
 */
const jobMachine = createMachine<Context, JobStatusEvent, Typestate>({
  id: 'job',
  initial: 'CREATED',
  context: {},
  states: {
    CREATED: { on: { START: 'RUNNING', CANCEL: 'CANCELED' } },
    RUNNING: { on: { RESTART: 'RESTARTING', FAIL: 'FAILING', CANCEL: 'CANCELLING', FINISH: 'FINISHED' } },
    RESTARTING: { on: { RESTARTED: 'RUNNING', FAIL: 'FAILING', CANCEL: 'CANCELED' } },
    FAILING: { on: { GIVE_UP: 'FAILED' } },
    CANCELLING: { on: { CANCELED: 'CANCELED' } },
    FAILED: {},
    CANCELED: {},
    FINISHED: {},
  },
});

export class JobLifecycle {
  #state: StateMachine.State<Context, JobStatusEvent, Typestate> = jobMachine.initialState;

  get status(): JobStatus {
    return this.#state.value;
  }

  send(event: JobStatusEvent['type']): boolean {
    const next = jobMachine.transition(this.#state, { type: event });
    if (!next.changed) return false;
    this.#state = next;
    return true;
  }

  get isTerminal(): boolean {
    const s = this.status;
    return s === 'FINISHED' || s === 'FAILED' || s === 'CANCELED';
  }
}

import { createMachine, type StateMachine } from '@xstate/fsm';

/** Flink's ExecutionState, the status a subtask shows in the dashboard. */
export type ExecutionState =
  | 'CREATED'
  | 'DEPLOYING'
  | 'INITIALIZING'
  | 'RUNNING'
  | 'FINISHED'
  | 'CANCELING'
  | 'CANCELED'
  | 'FAILED';

export type TaskLifecycleEvent =
  | { type: 'DEPLOY' }
  | { type: 'INITIALIZE' }
  | { type: 'RUN' }
  | { type: 'FINISH' }
  | { type: 'CANCEL' }
  | { type: 'CANCELED' }
  | { type: 'FAIL' };

type Context = Record<string, never>;

/** The legal moves between execution states; anything else is ignored and reported as unchanged. */
const taskMachine = createMachine<Context, TaskLifecycleEvent, { value: ExecutionState; context: Context }>({
  id: 'task',
  initial: 'CREATED',
  context: {},
  states: {
    CREATED: { on: { DEPLOY: 'DEPLOYING', CANCEL: 'CANCELED', FAIL: 'FAILED' } },
    DEPLOYING: { on: { INITIALIZE: 'INITIALIZING', CANCEL: 'CANCELING', FAIL: 'FAILED' } },
    INITIALIZING: { on: { RUN: 'RUNNING', CANCEL: 'CANCELING', FAIL: 'FAILED' } },
    RUNNING: { on: { FINISH: 'FINISHED', CANCEL: 'CANCELING', FAIL: 'FAILED' } },
    CANCELING: { on: { CANCELED: 'CANCELED', FAIL: 'FAILED' } },
    FINISHED: {},
    CANCELED: {},
    FAILED: {},
  },
});

/** A subtask's execution state, moved only by the machine above. */
export class TaskLifecycle {
  #state: StateMachine.State<Context, TaskLifecycleEvent, { value: ExecutionState; context: Context }> =
    taskMachine.initialState;

  get state(): ExecutionState {
    return this.#state.value;
  }

  /** Applies an event; returns false when the move is not legal from the current state. */
  send(event: TaskLifecycleEvent['type']): boolean {
    const next = taskMachine.transition(this.#state, { type: event });
    if (!next.changed) return false;
    this.#state = next;
    return true;
  }

  get isTerminal(): boolean {
    const s = this.state;
    return s === 'FINISHED' || s === 'CANCELED' || s === 'FAILED';
  }
}

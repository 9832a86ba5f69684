/**
 * Plays a branch's recorded operations (sim-history.ts) back into a simulation as it advances:
 * each is applied at the exact point it was recorded at, after the same number of handled events
 * and at the same virtual time, so the replayed run is the recorded one, event for event.
 *
 * The sim driver runs its simulation through the script it follows (`SimDriver.follow`), so the
 * run plays the recorded branch whether it advances by frames, by runUntil, by step or by seek.
 * A replay that cannot apply an operation where it was recorded has diverged: that is a bug in
 * determinism, and it is thrown rather than papered over.
 */
import type { JobOperation } from '../job/job-operation.ts';
import type { RecordedOperation } from './sim-history.ts';

/** The part of the engine's Simulation a script drives: its clock, and `operate` for the recorded operations. */
export interface ScriptedSimulation {
  operate(operation: JobOperation): string | undefined;
  readonly kernel: {
    readonly now: number;
    readonly handledEvents: number;
    readonly nextEventTime: number;
    step(): boolean;
    runUntil(time: number): void;
  };
  runUntil(time: number, stop?: () => boolean): boolean;
}

export class OperationScript {
  readonly operations: readonly RecordedOperation[];
  #next: number;

  /** `applied`: how many of `operations` the run has applied already. */
  constructor(operations: readonly RecordedOperation[], applied = 0) {
    this.operations = operations;
    this.#next = applied;
  }

  /** How many operations were applied so far: the run's position on the branch. */
  get applied(): number {
    return this.#next;
  }

  /**
   * Handles every event due at or before `time`, applying the recorded operations on the way; with
   * `stop`, may end sooner, after the last operation due, and say false (SimKernel.runUntil).
   */
  runUntil(simulation: ScriptedSimulation, time: number, stop?: () => boolean): boolean {
    const kernel = simulation.kernel;
    for (let next = this.#peek(); next && next.time <= time; next = this.#peek()) {
      while (kernel.handledEvents < next.handledEvents && kernel.nextEventTime <= next.time) kernel.step();
      this.#apply(simulation, next);
    }
    return simulation.runUntil(time, stop);
  }

  /** Applies the operations recorded at the current point (before `step()` handles the next event). */
  applyDue(simulation: ScriptedSimulation): void {
    for (let next = this.#peek(); next && next.handledEvents === simulation.kernel.handledEvents; next = this.#peek()) {
      this.#apply(simulation, next);
    }
  }

  #peek(): RecordedOperation | undefined {
    return this.operations[this.#next];
  }

  #apply(simulation: ScriptedSimulation, recorded: RecordedOperation): void {
    const kernel = simulation.kernel;
    // No event lies between the last handled one and the recorded point: moving the clock there handles none.
    if (kernel.handledEvents === recorded.handledEvents && kernel.now < recorded.time) kernel.runUntil(recorded.time);
    const what = `${describeOperation(recorded.operation)} at ${recorded.time} ms`;
    if (kernel.handledEvents !== recorded.handledEvents || kernel.now !== recorded.time) {
      throw new Error(
        `The replay diverged from the recorded run: ${what} was recorded after event ${recorded.handledEvents}, ` +
          `but the replay is at event ${kernel.handledEvents}, ${kernel.now} ms.`,
      );
    }
    const problem = simulation.operate(recorded.operation);
    if (problem !== undefined) throw new Error(`The replay diverged from the recorded run: ${what} was refused: ${problem}`);
    this.#next++;
  }
}

/** A short English description of an operation for messages (the UI translates the type itself). */
export function describeOperation(operation: JobOperation): string {
  switch (operation.type) {
    case 'kill-task-manager':
    case 'stall-task-manager':
      return `${operation.type} ${operation.task_manager}`;
    case 'lose-host':
      return `lose-host ${operation.host}`;
    case 'fail-task':
      return `fail-task ${operation.vertex}#${operation.subtask}`;
    case 'slow-operator':
      return `slow-operator ${operation.vertex} ×${operation.factor}`;
    case 'corrupt-local-copy':
    case 'delete-local-copy':
      return `${operation.type} ${operation.host} ${operation.vertex}#${operation.subtask}${operation.run === undefined ? '' : ` run ${operation.run}`}${operation.key_group === undefined ? '' : ` key-group ${operation.key_group}`}`;
    case 'slow-remote-storage':
      return `slow-remote-storage ×${operation.factor}`;
    case 'trigger-checkpoint':
      return operation.checkpoint_type === undefined ? 'trigger-checkpoint' : `trigger-checkpoint ${operation.checkpoint_type}`;
    case 'rescale':
      return `rescale ${operation.vertex} to ${operation.parallelism}`;
    case 'restart-from-savepoint':
      return operation.savepoint === undefined ? 'restart-from-savepoint' : `restart-from-savepoint ${operation.savepoint}`;
    default:
      return operation.type;
  }
}

/**
 * What the user did to a sim run, and when: every operation with the exact point of the run it
 * was applied at. The simulation is deterministic (same scenario, seed, and operations at the same
 * points give the same run, event for event), so this list is the whole run: replaying it from
 * time 0 rebuilds the run at any point (sim-time-machine.ts).
 *
 * A point is the virtual time plus the number of simulation events handled before it. Time alone
 * is not exact: after `step()` the clock can stand at an instant with more events still due at it,
 * and an operation applied there comes before them.
 *
 * Branches: acting at a past point (after seeking back) cannot rewrite what came after it, so the
 * operations up to that point plus the new one start a new branch; the old branch stays in the
 * list, with how far it was run, so the user can go back to it. Keeping every branch is cheap:
 * a branch is a short list of operations, not a copy of the run.
 */
import type { JobOperation } from '../job/job-operation.ts';

/** An exact point of a sim run. */
export interface RunPoint {
  /** virtual time, ms */
  time: number;
  /** simulation events handled before the point */
  handledEvents: number;
}

export interface RecordedOperation extends RunPoint {
  operation: JobOperation;
}

export interface SimBranch {
  /** 1, 2, … in the order the branches were made */
  readonly id: number;
  /** the branch this one was forked from; null for the first */
  readonly parentId: number | null;
  /** virtual time it was forked at; 0 for the first */
  readonly forkTime: number;
  /** oldest first; replaced, never changed in place, when an operation is added */
  readonly operations: readonly RecordedOperation[];
  /** the furthest virtual time the run got to on this branch */
  readonly reachedMs: number;
}

export class SimHistory {
  #branches: SimBranch[] = [{ id: 1, parentId: null, forkTime: 0, operations: [], reachedMs: 0 }];
  #currentId = 1;

  get branches(): readonly SimBranch[] {
    return this.#branches;
  }

  get current(): SimBranch {
    return this.branch(this.#currentId)!;
  }

  branch(id: number): SimBranch | undefined {
    return this.#branches.find((b) => b.id === id);
  }

  /** The run on the current branch got to `time`. */
  reached(time: number): void {
    const branch = this.current;
    if (time > branch.reachedMs) this.#replace({ ...branch, reachedMs: time });
  }

  /**
   * Records an operation applied at `point` by a run that had applied the first `applied`
   * operations of the current branch. At the branch's end it is appended; at a past point (the
   * branch has recorded operations after it, or was run further than `point`) it forks a new
   * branch, which becomes the current one. Returns the branch it is on.
   */
  record(point: RunPoint, operation: JobOperation, applied: number): { branch: SimBranch; forked: boolean } {
    const current = this.current;
    const entry: RecordedOperation = { time: point.time, handledEvents: point.handledEvents, operation };
    const past = applied < current.operations.length || point.time < current.reachedMs;
    if (!past) {
      const branch = { ...current, operations: [...current.operations, entry], reachedMs: point.time };
      this.#replace(branch);
      return { branch, forked: false };
    }
    const branch: SimBranch = {
      id: Math.max(...this.#branches.map((b) => b.id)) + 1,
      parentId: current.id,
      forkTime: point.time,
      operations: [...current.operations.slice(0, applied), entry],
      reachedMs: point.time,
    };
    this.#branches.push(branch);
    this.#currentId = branch.id;
    return { branch, forked: true };
  }

  /** Makes another branch the current one; false when there is no such branch. */
  switchTo(id: number): boolean {
    if (!this.branch(id)) return false;
    this.#currentId = id;
    return true;
  }

  #replace(branch: SimBranch): void {
    this.#branches = this.#branches.map((b) => (b.id === branch.id ? branch : b));
  }
}

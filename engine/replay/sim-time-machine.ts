/**
 * Time travel in a sim run: the history of what the user did (engine/replay/sim-history.ts) and
 * the replays that take the run to another point of it.
 *
 * - Seeking forward advances the running driver itself: it follows its branch's script, so the
 *   recorded operations ahead are applied where they were recorded, and past the branch's end it
 *   simply runs on. The same holds for a seek to a point ahead on another branch, when the
 *   driver is a point of that branch too (it applied the operations the two branches share, and
 *   the other branch's next one lies ahead): no replay from time 0.
 * - Seeking back cannot undo a simulation, so a fresh driver is built from the scenario and the
 *   branch's operations are replayed into it up to the target. Determinism makes the result the
 *   run as it was at that point; the page swaps it in when the replay is done.
 * - Acting at a past point forks a new branch (SimHistory.record); the driver then follows it.
 *
 * No DOM, no clock and no reactivity: the page (web/playground/time-travel/sim-time-travel.svelte.ts)
 * advances a seek in slices per animation frame, against a wall-clock deadline it passes in, and
 * tests advance it all at once.
 */
import { SimHistory, type SimBranch } from './sim-history.ts';
import type { JobOperation } from '../job/job-operation.ts';
import { OperationScript } from './operation-script.ts';

/** What time travel needs of a sim run (the page's SimDriver is one). */
export interface TimeTravelRun {
  /** job time, ms */
  readonly now: number;
  readonly isTerminal: boolean;
  /** simulation events handled so far: with `now`, the exact point of the run */
  readonly handledEvents: number;
  readonly script: OperationScript | null;
  /** follows a branch's recorded operations, each applied at the point it was recorded at */
  follow(script: OperationScript | null): void;
  /** advances towards `time`, stopping early once the wall clock passes `deadline`; `afterSlice` may return false to stop */
  advanceTo(time: number, deadline?: number, afterSlice?: () => boolean): void;
}

/** A run on its way to a target time. */
export class SimSeek<D extends TimeTravelRun = TimeTravelRun> {
  readonly driver: D;
  readonly target: number;
  /** true: a fresh driver, replayed from time 0, to be swapped in when done; false: the running driver, advanced in place */
  readonly fresh: boolean;
  readonly branchId: number;
  readonly #from: number;

  constructor(driver: D, target: number, fresh: boolean, branchId: number) {
    this.driver = driver;
    this.target = target;
    this.fresh = fresh;
    this.branchId = branchId;
    this.#from = driver.now;
  }

  /** Reached the target, or the job ended before it (nothing more will happen). */
  get done(): boolean {
    return this.driver.now >= this.target || this.driver.isTerminal;
  }

  /** 0…1 of the way from where the replay started. */
  get progress(): number {
    if (this.done) return 1;
    const span = this.target - this.#from;
    return span <= 0 ? 1 : Math.min(1, Math.max(0, (this.driver.now - this.#from) / span));
  }

  /** Advances until the target or the wall-clock `deadline` (performance.now() ms); true when done. */
  advance(deadline = Infinity, afterSlice?: () => boolean): boolean {
    if (!this.done) this.driver.advanceTo(this.target, deadline, afterSlice);
    return this.done;
  }
}

export class SimTimeMachine<D extends TimeTravelRun = TimeTravelRun> {
  readonly history = new SimHistory();
  readonly #createDriver: () => D;

  /** `createDriver` builds a driver for the loaded scenario at time 0, as a load does. */
  constructor(createDriver: () => D) {
    this.#createDriver = createDriver;
  }

  /** A driver the page starts running on the current branch (after a load, or a swap). */
  attach(driver: D): void {
    if (!driver.script) driver.follow(new OperationScript(this.history.current.operations, 0));
  }

  /** The user applied `operation` to `driver` just now (it succeeded): record it, forking when at a past point. */
  record(driver: D, operation: JobOperation): { branch: SimBranch; forked: boolean } {
    const applied = driver.script?.applied ?? 0;
    const result = this.history.record({ time: driver.now, handledEvents: driver.handledEvents }, operation, applied);
    // Everything on the branch up to and including this operation has been applied.
    driver.follow(new OperationScript(result.branch.operations, result.branch.operations.length));
    return result;
  }

  /**
   * A replay that takes the run to `target` on the current branch, or on branch `branchId`.
   * `current` is the driver the page runs now. A fresh replay changes nothing until `adopt`:
   * a cancelled one leaves the page where it was. `dropped`, a fresh replay cancelled before it
   * arrived, is carried on when it replays the same operations and has not got past `target` yet
   * (stepping back a second at a time with the arrow keys does not start over from 0 each time).
   */
  seek(current: D, target: number, branchId = this.history.current.id, dropped?: SimSeek<D>): SimSeek<D> {
    this.history.reached(current.now);
    const branch = this.history.branch(branchId);
    if (!branch) throw new Error(`There is no branch ${branchId} (branches: ${this.history.branches.map((b) => b.id).join(', ')}).`);
    if (target >= current.now && (branch === this.history.current || this.#canContinueOn(current, branch))) {
      this.#continueOn(current, branch);
      return new SimSeek<D>(current, target, false, branchId);
    }
    if (dropped?.fresh && dropped.driver.script?.operations === branch.operations && dropped.driver.now <= target) {
      return new SimSeek<D>(dropped.driver, target, true, branchId);
    }
    const driver = this.#createDriver();
    driver.follow(new OperationScript(branch.operations, 0));
    return new SimSeek<D>(driver, target, true, branchId);
  }

  /**
   * Whether `driver` is a point of `branch` as well: it applied exactly the branch's first
   * operations and is not past the branch's next one. Determinism makes a replay of the branch
   * from time 0 reach the same point, so the driver can run on along it instead.
   */
  #canContinueOn(driver: D, branch: SimBranch): boolean {
    const applied = driver.script?.applied ?? 0;
    const done = driver.script?.operations ?? [];
    for (let i = 0; i < applied; i++) if (branch.operations[i] !== done[i]) return false;
    if (applied > branch.operations.length) return false;
    const next = branch.operations[applied];
    return !next || (next.handledEvents >= driver.handledEvents && next.time >= driver.now);
  }

  /** The running driver goes on along `branch` (now the current one) from where it is. */
  #continueOn(driver: D, branch: SimBranch): void {
    if (branch === this.history.current) return;
    this.history.switchTo(branch.id);
    driver.follow(new OperationScript(branch.operations, driver.script?.applied ?? 0));
  }

  /** The page now runs the replay's driver: its branch is the current one. */
  adopt(replay: SimSeek<D>): void {
    this.history.switchTo(replay.branchId);
    this.history.reached(replay.driver.now);
  }
}

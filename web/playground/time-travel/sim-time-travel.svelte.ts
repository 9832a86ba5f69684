/**
 * Time travel as the page runs it: the SimTimeMachine of the loaded scenario, the seek in
 * progress (for the progress bar) and the branches (for the branch picker), as runes.
 *
 * A replay from time 0 can be long, so it never runs in one go: each animation frame advances it
 * within a small wall-clock budget, and the page stays responsive and shows the progress. A newer
 * seek, a pause, a load or an operation cancels the one in flight: its promise rejects, and a
 * fresh replay's driver is simply dropped, so the page stays where it was.
 */
import { parseDuration } from '../../../engine/config/duration.ts';
import type { JobOperation } from '../../../engine/job/job-operation.ts';
import { apiOperation } from '../api/branch-operation.ts';
import type { BranchInfo, SeekResult } from '../api/playground-api-types.ts';
import type { SimDriver } from '../drivers/sim-driver.ts';
import type { SimBranch } from '../../../engine/replay/sim-history.ts';
import { SimTimeMachine, type SimSeek } from '../../../engine/replay/sim-time-machine.ts';

/** Wall-clock ms a frame may spend replaying; the rest is left for drawing the progress. */
const SEEK_FRAME_BUDGET_MS = 12;

export const SEEK_NEEDS_SIM =
  "seek() needs the 'sim' driver: the live driver runs on the wall clock, and its past cannot be replayed. Switch with setDriver('sim').";

/** What the page lends the time travel: the running driver and how to swap in another. */
export interface TimeTravelHost {
  /** Runs the page on `driver` (the replayed one, or the same one after a forward seek) and tells the subscribers. */
  adopt(driver: SimDriver, branchId: number): void;
  /** A forward seek moved the running driver: deliver its events (false stops) and refresh the page. */
  deliver(): boolean;
  advanced(): void;
  /** Runs a call into the running driver as the page's own calls run (an exception stops the run and is shown). */
  guard<T>(call: () => T): T | undefined;
}

/** The seek in progress. */
export interface SeekProgress {
  from: number;
  target: number;
  /** 0…1 */
  progress: number;
  /** replaying from time 0 (back in time), or running forward */
  fresh: boolean;
}

interface SeekJob {
  replay: SimSeek<SimDriver>;
  resolve: (result: SeekResult) => void;
  reject: (error: Error) => void;
  frame: number | null;
}

/** A time argument of the API (ms, or a Flink duration such as "30 s") in ms; throws a message naming the call. */
export function timeArgument(call: string, time: unknown): number {
  const parsed = typeof time === 'string' ? parseDuration(time) : { ok: true as const, ms: time };
  if (!parsed.ok) throw new Error(`${call} needs a time in ms or a duration such as "30 s": ${parsed.message}`);
  if (typeof parsed.ms !== 'number' || !Number.isFinite(parsed.ms) || parsed.ms < 0) {
    throw new Error(`${call} needs a finite time of 0 ms or more, got ${JSON.stringify(time)}`);
  }
  return parsed.ms;
}

export class SimTimeTravel {
  seeking = $state.raw<SeekProgress | null>(null);
  branches = $state.raw<readonly SimBranch[]>([]);
  currentBranch = $state(1);

  readonly #host: TimeTravelHost;
  #machine: SimTimeMachine<SimDriver> | null = null;
  #job: SeekJob | null = null;
  /** the fresh replay of the last seek cancelled on its way: the next seek may carry it on */
  #dropped: SimSeek<SimDriver> | null = null;

  constructor(host: TimeTravelHost) {
    this.#host = host;
  }

  /** A new run (load, restart, new configuration): a new history, on which `driver` starts. */
  reset(driver: SimDriver | null, createDriver: () => SimDriver): void {
    this.cancel('a new run was loaded');
    this.#discardDropped();
    this.#machine = driver ? new SimTimeMachine(createDriver) : null;
    if (driver) this.#machine!.attach(driver);
    this.#publish();
  }

  /** The user applied `operation` to the running driver: record it (forking a branch at a past point). */
  record(driver: SimDriver, operation: JobOperation): void {
    if (!this.#machine) return;
    this.#discardDropped(); // replays the branch as it was before this operation: of no more use
    this.#machine.record(driver, operation);
    this.#publish();
  }

  /** Takes the run to `target` (capped by the caller) on the current branch or on `branchId`. */
  seek(current: SimDriver, target: number, branchId?: number): Promise<SeekResult> {
    this.cancel(`a later seek to ${target} ms`);
    const dropped = this.#dropped;
    this.#dropped = null;
    const machine = this.#machine;
    if (!machine) return Promise.reject(new Error('No sim run to seek in: load a scenario first.'));
    let replay: SimSeek<SimDriver>;
    try {
      replay = machine.seek(current, target, branchId, dropped ?? undefined);
    } catch (error) {
      void dropped?.driver.dispose();
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // A cancelled replay this seek could not carry on is of no more use.
    if (dropped && dropped.driver !== replay.driver) void dropped.driver.dispose();
    this.#publish();
    return new Promise<SeekResult>((resolve, reject) => {
      this.#job = { replay, resolve, reject, frame: null };
      this.seeking = { from: replay.driver.now, target, progress: replay.progress, fresh: replay.fresh };
      this.#schedule(this.#job);
    });
  }

  /** A replay that will never be adopted: its IndexedDB checkpoint storage is cleaned up and closed. */
  #discardDropped(): void {
    void this.#dropped?.driver.dispose();
    this.#dropped = null;
  }

  /** Stops the seek in flight, if any; its promise rejects saying why. */
  cancel(reason: string): void {
    const job = this.#job;
    if (!job) return;
    this.#finish(job);
    if (job.replay.fresh) this.#dropped = job.replay;
    job.reject(new Error(`The seek to ${job.replay.target} ms was cancelled by ${reason}.`));
  }

  /** The branches as the API reports them; the current one has got at least to `nowMs`. */
  branchInfo(nowMs: number): BranchInfo[] {
    return this.branches.map((b) => {
      const current = b.id === this.currentBranch;
      return {
        id: b.id,
        parentId: b.parentId,
        forkTime: b.forkTime,
        reachedMs: current ? Math.max(b.reachedMs, nowMs) : b.reachedMs,
        current,
        operations: b.operations.map(({ time, handledEvents, operation }) => ({ time, handledEvents, operation: apiOperation(operation) })),
      };
    });
  }

  #schedule(job: SeekJob): void {
    job.frame = requestAnimationFrame(() => this.#onFrame(job));
  }

  #onFrame(job: SeekJob): void {
    job.frame = null;
    if (this.#job !== job) return;
    const { replay } = job;
    const deadline = performance.now() + SEEK_FRAME_BUDGET_MS;
    let done: boolean;
    if (replay.fresh) {
      try {
        done = replay.advance(deadline);
      } catch (error) {
        this.#finish(job);
        job.reject(new Error(`The replay to ${replay.target} ms stopped: ${error instanceof Error ? error.message : String(error)}`));
        return;
      }
    } else {
      // The running driver: its events reach the subscribers as they happen, as with runUntil().
      const result = this.#host.guard(() => replay.advance(deadline, () => this.#host.deliver() && this.#job === job));
      this.#host.advanced();
      if (result === undefined) {
        this.#finish(job);
        job.reject(new Error(`The seek to ${replay.target} ms stopped: the simulation failed.`));
        return;
      }
      done = result;
    }
    if (this.#job !== job) return; // cancelled by a subscriber while its events were delivered
    if (!done) {
      this.seeking = { ...this.seeking!, progress: replay.progress };
      this.#schedule(job);
      return;
    }
    this.#finish(job);
    if (replay.fresh) this.#machine?.adopt(replay);
    this.#host.adopt(replay.driver, replay.branchId);
    this.#publish();
    job.resolve({ time: replay.driver.now, branch: replay.branchId });
  }

  #finish(job: SeekJob): void {
    if (job.frame !== null) cancelAnimationFrame(job.frame);
    job.frame = null;
    if (this.#job === job) this.#job = null;
    this.seeking = null;
  }

  #publish(): void {
    const history = this.#machine?.history;
    // A copy: the history grows its list in place, and raw state only sees a new array.
    this.branches = history ? [...history.branches] : [];
    this.currentBranch = history ? history.current.id : 1;
  }
}

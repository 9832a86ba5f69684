import { jobTimeAt, wallNow, wallTimeAt } from '../job-clock.ts';
import type { JobClock } from '../protocol.ts';

/** how early (job ms) a timer may fire and still count as due: floating point, not the timer's granularity */
const EARLY_TOLERANCE_MS = 0.001;

interface Timer {
  at: number;
  fire: (now: number) => void;
  handle: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The JobManager's timers in job time (the coordinator's periodic trigger and timeouts, restart
 * backoff, the fault schedule), run by the wall clock. A speed change re-arms them all.
 */
export class JobTimers {
  readonly #clock: () => JobClock;
  readonly #timers = new Set<Timer>();

  constructor(clock: () => JobClock) {
    this.#clock = clock;
  }

  /**
   * Calls `fire(now)` once job time reaches `at`. `now` is never less than `at`: a timer may fire
   * a hair early in floating point, and the coordinator must not see a min pause as not over yet.
   */
  schedule(at: number, fire: (now: number) => void): void {
    if (!Number.isFinite(at)) return;
    const timer: Timer = { at, fire, handle: undefined };
    this.#timers.add(timer);
    this.#arm(timer);
  }

  /** After the clock changed (speed): every pending timer waits for its job time on the new clock. */
  rearm(): void {
    for (const timer of this.#timers) {
      clearTimeout(timer.handle);
      this.#arm(timer);
    }
  }

  clear(): void {
    for (const timer of this.#timers) clearTimeout(timer.handle);
    this.#timers.clear();
  }

  #arm(timer: Timer): void {
    const delay = Math.max(0, wallTimeAt(this.#clock(), timer.at) - wallNow());
    timer.handle = setTimeout(() => {
      // setTimeout may fire a millisecond early against performance.now(): wait for the rest, or
      // an event stamped `at` would be emitted before one that happens, and is stamped, earlier.
      if (jobTimeAt(this.#clock(), wallNow()) < timer.at - EARLY_TOLERANCE_MS) return this.#arm(timer);
      this.#timers.delete(timer);
      timer.fire(Math.max(timer.at, jobTimeAt(this.#clock(), wallNow())));
    }, delay);
  }
}

/** What a subtask is doing at a moment, for Flink's busy / backpressured / idle time figures. */
export type ActivityMode = 'busy' | 'backpressured' | 'idle';

/**
 * Counters of one subtask, named after Flink's task metrics (numRecordsIn, numRecordsOut,
 * numBytesIn, busyTimeMsPerSecond, backPressuredTimeMsPerSecond, idleTimeMsPerSecond).
 * Times accumulate as the task switches activity; per-second figures come from sampling.
 */
export class TaskMetrics {
  numRecordsIn = 0;
  numRecordsOut = 0;
  numBuffersIn = 0;
  numBuffersOut = 0;
  numBytesIn = 0;
  numBytesOut = 0;
  busyMs = 0;
  backpressuredMs = 0;
  idleMs = 0;
  #mode: ActivityMode = 'idle';
  #since = 0;

  constructor(now: number) {
    this.#since = now;
  }

  get mode(): ActivityMode {
    return this.#mode;
  }

  /** Charges the time since the last switch to the current activity, then switches. */
  switchTo(mode: ActivityMode, now: number): void {
    this.settle(now);
    this.#mode = mode;
  }

  /** Charges the time up to `now` without switching (for sampling). */
  settle(now: number): void {
    const elapsed = now - this.#since;
    if (elapsed > 0) {
      if (this.#mode === 'busy') this.busyMs += elapsed;
      else if (this.#mode === 'backpressured') this.backpressuredMs += elapsed;
      else this.idleMs += elapsed;
    }
    this.#since = now;
  }
}

import { wallNow } from './job-clock.ts';

/**
 * Waits shorter than this run as the next macrotask instead of a timer: timers cannot wait less
 * than about 1 ms, and nested ones are clamped to 4 ms, which would throttle a task that is busy
 * for a fraction of a millisecond per buffer.
 */
export const SHORT_WAIT_MS = 1;

/**
 * When a TaskManager's next scheduling turn runs: at a wall-clock time, as a timer, or as soon as
 * possible, as a macrotask posted through a MessageChannel (so the data-plane and control
 * messages that queued meanwhile are handled first). Asking again for an earlier time brings the
 * turn forward; asking for a later one changes nothing. A spurious turn is harmless: a turn polls
 * only what is due.
 */
export class TurnScheduler {
  readonly #run: () => void;
  readonly #now: () => number;
  readonly #channel = new MessageChannel();
  #immediate = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  #stopped = false;

  constructor(run: () => void, now: () => number = wallNow) {
    this.#run = run;
    this.#now = now;
    this.#channel.port1.onmessage = () => {
      this.#immediate = false;
      if (!this.#stopped) this.#run();
    };
  }

  /**
   * A turn at wall-clock time `at` (ms, as `wallNow()`), or as soon as possible when it has come.
   * `lazy`: a timer even for a short wait (it may fire a few ms late), never the next macrotask.
   */
  requestAt(at: number, lazy = false): void {
    if (this.#stopped || this.#immediate || !(at < Infinity)) return;
    const delay = at - this.#now();
    if (delay <= SHORT_WAIT_MS && !lazy) return this.requestNow();
    if (at >= this.#timerAt) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Infinity;
        if (!this.#stopped) this.#run();
      },
      Math.max(0, delay),
    );
  }

  /** A turn is posted to run as the next macrotask (the TaskManager is busy). */
  get immediatePending(): boolean {
    return this.#immediate && !this.#stopped;
  }

  requestNow(): void {
    if (this.#stopped || this.#immediate) return;
    this.#immediate = true;
    this.#channel.port2.postMessage(null);
  }

  /** No more turns (the TaskManager shuts down). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#channel.port1.close();
    this.#channel.port2.close();
  }
}

/**
 * When each task of the running attempt is polled next on the virtual clock. A task is polled
 * when something reaches it (a buffer, credit, a barrier or a notification) unless it is still
 * busy with records it took earlier; at most one poll per task is pending, the earliest one: a
 * wake-up superseded by an earlier one carries a stale token and is ignored when it comes.
 */
export class PollSchedule {
  #wakeAt: number[] = [];
  #token: number[] = [];
  #busyUntil: number[] = [];

  constructor(private readonly scheduleWake: (task: number, at: number, token: number) => void) {}

  /** A new attempt's `count` tasks, none busy, none due. */
  reset(count: number, now: number): void {
    this.#wakeAt = new Array<number>(count).fill(Infinity);
    this.#token = new Array<number>(count).fill(0);
    this.#busyUntil = new Array<number>(count).fill(now);
  }

  /** Whether a wake-up with `token` is the one still wanted for task `i`. */
  isCurrent(i: number, token: number): boolean {
    return token === this.#token[i];
  }

  /** Task `i` is being polled: no poll of it is pending any more. */
  polling(i: number): void {
    this.#wakeAt[i] = Infinity;
  }

  /** Task `i` works on what it took until `until`, and is polled again then. */
  busy(i: number, until: number): void {
    this.#busyUntil[i] = until;
    this.wake(i, until);
  }

  /** Something reached task `i`: it is polled now, unless it is busy (its own wake-up comes). */
  wakeIfNotBusy(i: number, now: number): void {
    if (now >= this.#busyUntil[i]!) this.wake(i, now);
  }

  /** Schedules a poll of task `i` at `at`, unless one is already due no later. */
  wake(i: number, at: number): void {
    if (at >= this.#wakeAt[i]!) return;
    this.#wakeAt[i] = at;
    this.scheduleWake(i, at, ++this.#token[i]!);
  }
}

import { EventQueue } from './event-queue.ts';

/**
 * Events runUntil handles at least between two questions to its `stop`: the page asks
 * performance.now() that often, a few microseconds against the tens of events a millisecond holds.
 */
const STOP_CHECK_EVENTS = 32;

/**
 * The deterministic simulation kernel: a virtual clock and a queue of timed events. It knows
 * nothing about Flink; a driver schedules events and handles them when they come due.
 *
 * Determinism: time only moves when an event is taken from the queue, ties run in scheduling
 * order, and all randomness comes from the driver's seeded RandomSource. The same scenario and
 * seed therefore produce the same sequence of handled events.
 */
export class SimKernel<E> {
  #queue = new EventQueue<E>();
  #now = 0;
  #handled = 0;
  #atThisInstant = 0;
  readonly #handle: (event: E, now: number) => void;
  readonly #maxEventsPerInstant: number;

  /**
   * `maxEventsPerInstant` guards against livelock: a driver bug that keeps scheduling events at
   * the same virtual time would otherwise spin forever without the clock moving.
   */
  constructor(handle: (event: E, now: number) => void, maxEventsPerInstant = 2_000_000) {
    this.#handle = handle;
    this.#maxEventsPerInstant = maxEventsPerInstant;
  }

  /** Virtual time in milliseconds. */
  get now(): number {
    return this.#now;
  }

  /** Number of events handled so far. */
  get handledEvents(): number {
    return this.#handled;
  }

  get pendingEvents(): number {
    return this.#queue.size;
  }

  /** Time of the next event, or Infinity when nothing is scheduled. */
  get nextEventTime(): number {
    return this.#queue.peekTime();
  }

  /** Schedules an event; a time in the past runs at the current time (time never goes back). */
  schedule(at: number, event: E): void {
    this.#queue.push(at < this.#now ? this.#now : at, event);
  }

  /** Handles the next event; false when the queue is empty. */
  step(): boolean {
    const at = this.#queue.peekTime();
    if (at === Infinity) return false;
    const event = this.#queue.pop()!;
    this.#atThisInstant = at === this.#now ? this.#atThisInstant + 1 : 0;
    if (this.#atThisInstant > this.#maxEventsPerInstant) {
      throw new Error(`simulation livelock: more than ${this.#maxEventsPerInstant} events at virtual time ${at} ms without the clock moving`);
    }
    this.#now = at;
    this.#handled++;
    this.#handle(event, at);
    return true;
  }

  /**
   * Handles every event due at or before `time`, then sets the clock to `time`, and says true. With
   * `stop`, asked once STOP_CHECK_EVENTS events were handled and the next one is at a later instant,
   * it may end sooner and say false: every event up to the clock handled, as runUntil(now) leaves
   * them, none of a later instant. A runtime with a frame to keep (the page) stops there and goes
   * on later, the run the same event for event.
   */
  runUntil(time: number, stop?: () => boolean): boolean {
    let handled = 0;
    while (this.#queue.peekTime() <= time) {
      this.step();
      if (stop === undefined || ++handled < STOP_CHECK_EVENTS || this.#queue.peekTime() === this.#now) continue;
      if (stop()) return false;
      handled = 0;
    }
    if (time > this.#now && time !== Infinity) this.#now = time;
    return true;
  }

  /** Handles events until none are left, or `maxEvents` were handled (a guard for unbounded jobs). */
  runUntilIdle(maxEvents = Number.MAX_SAFE_INTEGER): number {
    let n = 0;
    while (n < maxEvents && this.step()) n++;
    return n;
  }

  /** Drops every scheduled event (used when a run is abandoned). */
  clear(): void {
    this.#queue.clear();
  }
}

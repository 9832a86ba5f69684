import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import { EventQueue } from '../sim/event-queue.ts';

export interface EventTimeTimer {
  timestamp: number;
  keyGroup: number;
  key: string;
}

/** Name of the state that holds timers, like the timer column family of Flink's RocksDB backend. */
export const TIMER_STATE = '_timer_service';

/**
 * Event-time timers of a keyed operator (Flink's InternalTimerService). Timers are keyed state,
 * stored in the backend so that snapshots carry them; a priority queue orders them in memory.
 * Registering the same (key, timestamp) twice keeps one timer, as in Flink.
 */
export class EventTimeTimers {
  #queue = new EventQueue<EventTimeTimer>();

  constructor(private readonly state: KeyedStateBackend) {}

  register(keyGroup: number, key: string, timestamp: number): void {
    const id = timerKey(timestamp, key);
    if (this.state.get(TIMER_STATE, keyGroup, id) !== undefined) return;
    this.state.put(TIMER_STATE, keyGroup, id, timestamp);
    this.#queue.push(timestamp, { timestamp, keyGroup, key });
  }

  /** Removes and returns, in timestamp order, every timer due at `watermark`. */
  *due(watermark: number): Generator<EventTimeTimer> {
    while (this.#queue.size > 0 && this.#queue.peekTime() <= watermark) {
      const timer = this.#queue.pop()!;
      this.state.delete(TIMER_STATE, timer.keyGroup, timerKey(timer.timestamp, timer.key));
      yield timer;
    }
  }

  /** Rebuilds the queue from the backend after a restore, in a deterministic order. */
  reload(): void {
    this.#queue.clear();
    const timers: EventTimeTimer[] = [];
    this.state.forEachEntry(TIMER_STATE, (keyGroup, id, timestamp) => {
      timers.push({ timestamp: timestamp as number, keyGroup, key: id.slice(id.indexOf('\u0000') + 1) });
    });
    timers.sort((a, b) => a.timestamp - b.timestamp || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const t of timers) this.#queue.push(t.timestamp, t);
  }
}

function timerKey(timestamp: number, key: string): string {
  return `${timestamp}\u0000${key}`;
}

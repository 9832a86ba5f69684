import type { StreamRecord } from '../protocol.ts';
import { assignToKeyGroup } from '../keys/key-group-assignment.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import { EventTimeTimers } from './event-time-timers.ts';
import type { Output, StreamOperator } from './stream-operator.ts';
import { tumblingWindowEnd, windowStateKey } from './tumbling-window.ts';

const SIDES = ['join-left', 'join-right'] as const;

/**
 * A two-input keyed tumbling-window inner join, as `a.join(b).where(key).equalTo(key)
 * .window(TumblingEventTimeWindows.of(size))`. Instead of emitting every joined pair it emits one
 * record per key and window with matches: the number of pairs (left count × right count), so the
 * output does not depend on how the two inputs interleave. The window fires on the combined
 * watermark of both inputs: this is where barrier alignment between two inputs matters.
 */
export class WindowJoinOperator implements StreamOperator {
  readonly #timers: EventTimeTimers;
  #watermark = -Infinity;
  lateRecordsDropped = 0;

  constructor(
    private readonly size: number,
    private readonly state: KeyedStateBackend,
    private readonly maxParallelism: number,
  ) {
    this.#timers = new EventTimeTimers(state);
  }

  processRecord(record: StreamRecord, input: number): void {
    const end = tumblingWindowEnd(record.timestamp, this.size);
    if (end - 1 <= this.#watermark) {
      this.lateRecordsDropped++;
      return;
    }
    const keyGroup = assignToKeyGroup(record.key, this.maxParallelism);
    const side = SIDES[input === 0 ? 0 : 1];
    const stateKey = windowStateKey(record.key, end);
    const count = (this.state.get(side, keyGroup, stateKey) as number | undefined) ?? 0;
    this.state.put(side, keyGroup, stateKey, count + 1);
    this.#timers.register(keyGroup, record.key, end - 1);
  }

  processWatermark(watermark: number, out: Output): void {
    this.#watermark = watermark;
    for (const timer of this.#timers.due(watermark)) {
      const stateKey = windowStateKey(timer.key, timer.timestamp + 1);
      const left = (this.state.get(SIDES[0], timer.keyGroup, stateKey) as number | undefined) ?? 0;
      const right = (this.state.get(SIDES[1], timer.keyGroup, stateKey) as number | undefined) ?? 0;
      this.state.delete(SIDES[0], timer.keyGroup, stateKey);
      this.state.delete(SIDES[1], timer.keyGroup, stateKey);
      if (left > 0 && right > 0) out.collect({ key: timer.key, value: left * right, timestamp: timer.timestamp });
    }
  }

  afterRestore(): void {
    this.#timers.reload();
  }
}

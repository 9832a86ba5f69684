import type { StreamRecord } from '../protocol.ts';
import type { Aggregate } from '../scenario/scenario-types.ts';
import { assignToKeyGroup } from '../keys/key-group-assignment.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import { EventTimeTimers } from './event-time-timers.ts';
import type { Output, StreamOperator } from './stream-operator.ts';
import { tumblingWindowEnd, windowStateKey } from './tumbling-window.ts';

/**
 * A keyed tumbling event-time window with an incremental count or sum, as
 * `keyBy(...).window(TumblingEventTimeWindows.of(size)).aggregate(...)`. The window fires when
 * the watermark passes its last timestamp (end − 1) and emits (key, aggregate) stamped end − 1.
 * Records for a window the watermark already passed are late and dropped (allowed lateness 0).
 */
export class WindowAggregateOperator implements StreamOperator {
  static readonly STATE = 'window-contents';
  readonly #timers: EventTimeTimers;
  #watermark = -Infinity;
  /** records dropped as late, Flink's numLateRecordsDropped */
  lateRecordsDropped = 0;

  constructor(
    private readonly size: number,
    private readonly aggregate: Aggregate,
    private readonly state: KeyedStateBackend,
    private readonly maxParallelism: number,
  ) {
    this.#timers = new EventTimeTimers(state);
  }

  processRecord(record: StreamRecord, _input: number): void {
    const end = tumblingWindowEnd(record.timestamp, this.size);
    if (end - 1 <= this.#watermark) {
      this.lateRecordsDropped++;
      return;
    }
    const keyGroup = assignToKeyGroup(record.key, this.maxParallelism);
    const stateKey = windowStateKey(record.key, end);
    const current = (this.state.get(WindowAggregateOperator.STATE, keyGroup, stateKey) as number | undefined) ?? 0;
    this.state.put(WindowAggregateOperator.STATE, keyGroup, stateKey, current + (this.aggregate === 'count' ? 1 : record.value));
    this.#timers.register(keyGroup, record.key, end - 1);
  }

  processWatermark(watermark: number, out: Output): void {
    this.#watermark = watermark;
    for (const timer of this.#timers.due(watermark)) {
      const stateKey = windowStateKey(timer.key, timer.timestamp + 1);
      const value = this.state.get(WindowAggregateOperator.STATE, timer.keyGroup, stateKey) as number | undefined;
      if (value === undefined) continue;
      this.state.delete(WindowAggregateOperator.STATE, timer.keyGroup, stateKey);
      out.collect({ key: timer.key, value, timestamp: timer.timestamp });
    }
  }

  afterRestore(): void {
    this.#timers.reload();
  }
}

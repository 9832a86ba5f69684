import type { StreamRecord } from '../protocol.ts';
import type { Aggregate } from '../scenario/scenario-types.ts';
import { keyGroupAssigner } from '../keys/key-group-assignment.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import type { Output, StreamOperator } from './stream-operator.ts';

/**
 * keyBy + a running count or sum in a keyed ValueState; emits (key, aggregate) on every record,
 * as `keyBy(...).sum(...)` does in Flink.
 */
export class KeyedAggregateOperator implements StreamOperator {
  static readonly STATE = 'aggregate';
  readonly #keyGroupOf: (key: string | number) => number;

  constructor(
    private readonly aggregate: Aggregate,
    private readonly state: KeyedStateBackend,
    maxParallelism: number,
  ) {
    this.#keyGroupOf = keyGroupAssigner(maxParallelism);
  }

  processRecord(record: StreamRecord, _input: number, out: Output): void {
    const keyGroup = this.#keyGroupOf(record.key);
    const current = (this.state.get(KeyedAggregateOperator.STATE, keyGroup, record.key) as number | undefined) ?? 0;
    const next = current + (this.aggregate === 'count' ? 1 : record.value);
    this.state.put(KeyedAggregateOperator.STATE, keyGroup, record.key, next);
    out.collect({ key: record.key, value: next, timestamp: record.timestamp });
  }

  processWatermark(): void {}
}

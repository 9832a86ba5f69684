import type { OperatorSpec } from '../scenario/scenario-types.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import { FilterOperator } from './filter-operator.ts';
import { KeyedAggregateOperator } from './keyed-aggregate-operator.ts';
import { MapOperator } from './map-operator.ts';
import { PlainSinkOperator } from './sink-operator.ts';
import type { StreamOperator } from './stream-operator.ts';
import { WindowAggregateOperator } from './window-aggregate-operator.ts';
import { WindowJoinOperator } from './window-join-operator.ts';

/** Operators whose input is keyed (after a hash edge) and that keep keyed state. */
export function isKeyedOperator(spec: OperatorSpec): boolean {
  return spec.type === 'keyed-aggregate' || spec.type === 'window' || spec.type === 'window-join';
}

/**
 * Creates the operator of a non-source vertex. Sources are not operators here: the task reads
 * their split directly (Flink's SourceOperator reading a split reader).
 */
export function createOperator(
  spec: Exclude<OperatorSpec, { type: 'source' }>,
  keyedState: KeyedStateBackend | undefined,
  maxParallelism: number,
): StreamOperator {
  switch (spec.type) {
    case 'map':
      return new MapOperator(spec.fn);
    case 'filter':
      return new FilterOperator(spec.filter);
    case 'keyed-aggregate':
      return new KeyedAggregateOperator(spec.aggregate, requireKeyed(keyedState), maxParallelism);
    case 'window':
      return new WindowAggregateOperator(spec.size_ms, spec.aggregate, requireKeyed(keyedState), maxParallelism);
    case 'window-join':
      return new WindowJoinOperator(spec.size_ms, requireKeyed(keyedState), maxParallelism);
    case 'sink':
      return new PlainSinkOperator();
  }
}

function requireKeyed(state: KeyedStateBackend | undefined): KeyedStateBackend {
  if (!state) throw new Error('a keyed operator was created without a keyed state backend');
  return state;
}

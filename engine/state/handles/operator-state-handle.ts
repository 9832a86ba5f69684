import type { SinkTransaction } from '../../protocol.ts';

/**
 * Flink's OperatorStateHandle (managed operator state): list state a subtask keeps whatever its
 * keys, redistributed round robin on a rescale. A source keeps its split offset here, a
 * two-phase-commit sink its pre-committed transactions. Task-local recovery does not cover it.
 */
export interface OperatorStateHandle {
  kind: 'operator';
  sourceOffset?: number;
  pendingTransactions?: readonly SinkTransaction[];
  stateSize: number;
}

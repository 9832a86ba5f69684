import type { StreamRecord } from '../protocol.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';

/** Where an operator puts its results; the task routes them to the output channels. */
export interface Output {
  collect(record: StreamRecord): void;
}

/** What an operator may use from its task. */
export interface OperatorContext {
  readonly subtaskIndex: number;
  readonly parallelism: number;
  readonly maxParallelism: number;
  /** keyed state; only keyed operators (after a hash edge) have one */
  readonly keyedState: KeyedStateBackend | undefined;
}

/**
 * One operator inside a task (Flink's StreamOperator). Called synchronously by the task, one
 * record at a time; watermarks arrive after the task combined them across inputs.
 */
export interface StreamOperator {
  /** `input` is 0 for one-input operators; 0 (left) or 1 (right) for two-input ones */
  processRecord(record: StreamRecord, input: number, out: Output): void;
  /** the task's combined watermark advanced to `watermark`: fire event-time timers up to it */
  processWatermark(watermark: number, out: Output): void;
  /** rebuild in-memory structures (timers) from keyed state after a restore */
  afterRestore?(): void;
}

import type { StreamRecord } from '../protocol.ts';
import type { Output, StreamOperator } from './stream-operator.ts';

/**
 * A plain sink: every record is written to the external system at once (the task turns the
 * sink's output into `sink-output` effects). Replayed records after a restore are written again:
 * at-least-once end to end.
 */
export class PlainSinkOperator implements StreamOperator {
  processRecord(record: StreamRecord, _input: number, out: Output): void {
    out.collect(record);
  }

  processWatermark(): void {}
}

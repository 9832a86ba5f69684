import type { NetworkBuffer } from '../protocol.ts';
import { appendRun, countOf } from './delivery-log.ts';

/** What one subtask consumed since the last drain: per gate its runs, and the barriers its source injected. */
export interface DeliveryPart {
  gates: number[][];
  barriers: number[];
  aborts: number[];
  watermarks: number[];
}

/**
 * Records, inside one subtask, the order its input gates handed out buffer contents and where a
 * source injected each barrier. Costs one array push per consumed buffer; a driver drains it in
 * batches (a TaskManager once per scheduling turn), so nothing is sent per record.
 */
export class DeliveryRecorder {
  #gates: number[][];
  #barriers: number[] = [];
  #aborts: number[] = [];
  #watermarks: number[] = [];
  #empty = true;

  constructor(readonly gateCount: number) {
    this.#gates = Array.from({ length: gateCount }, () => []);
  }

  consumed(gate: number, channel: number, buffer: NetworkBuffer): void {
    const count = countOf(buffer);
    if (count === 0) return;
    appendRun(this.#gates[gate]!, channel, count);
    this.#empty = false;
  }

  /** A source put this checkpoint's barrier (or, `cancelled`, a cancellation marker) on its outputs after `offset` records. */
  barrierInjected(checkpointId: number, offset: number, cancelled = false): void {
    this.#barriers.push(cancelled ? -checkpointId : checkpointId, offset);
    this.#empty = false;
  }

  /** A source emitted a periodic watermark after `offset` records, having injected `barriers` barriers. */
  watermarkEmitted(offset: number, barriers: number): void {
    this.#watermarks.push(offset, barriers);
    this.#empty = false;
  }

  /** The notification that a checkpoint was aborted came after `position` consumed records and events. */
  abortNotified(checkpointId: number, position: number): void {
    this.#aborts.push(checkpointId, position);
    this.#empty = false;
  }

  get isEmpty(): boolean {
    return this.#empty;
  }

  /** What was recorded since the last drain; the recorder starts over. */
  drain(): DeliveryPart {
    const part = { gates: this.#gates, barriers: this.#barriers, aborts: this.#aborts, watermarks: this.#watermarks };
    this.#gates = Array.from({ length: this.gateCount }, () => []);
    this.#barriers = [];
    this.#aborts = [];
    this.#watermarks = [];
    this.#empty = true;
    return part;
  }
}

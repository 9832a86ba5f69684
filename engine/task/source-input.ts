import type { StreamRecord } from '../protocol.ts';
import type { ReplayFeeder } from '../replay/replay-feeder.ts';
import { availableAt, availableCount, type SourceSplit } from '../sources/source-split.ts';

/**
 * Where a source's records and watermarks go: the task's output, as Flink's SourceOperator
 * hands its reader a ReaderOutput over the task's DataOutput.
 */
export interface SourceOutput {
  /** the output has room for more records (no backpressure) */
  readonly available: boolean;
  collect(record: StreamRecord): void;
  emitWatermark(watermark: number): void;
}

/** What one poll of the source did; the task turns it into its PollOutcome. */
export type SourceStep =
  /** records went to the output (0: only a recorded watermark went out) */
  | { type: 'emitted'; records: number }
  /** nothing to emit until `wakeAt` (the next record's time), or until a trigger (undefined) */
  | { type: 'idle'; wakeAt: number | undefined }
  /** the output has no room: records wait (credit-based backpressure reaches the source) */
  | { type: 'backpressured' }
  /** a bounded split was read to its end */
  | { type: 'end-of-input' };

export interface SourceInputOptions {
  /** pipeline.auto-watermark-interval: how often the periodic watermark may go out */
  autoWatermarkInterval: number;
  /** records emitted in one poll at most: one output buffer's worth */
  recordsPerBuffer: number;
}

/**
 * A source subtask's input, the role of Flink's SourceOperator with its SourceReader: it reads
 * its split (one replayable partition, see SourceSplit) from the offset a checkpoint records, at
 * the split's rate, and generates watermarks as Flink's bounded-out-of-orderness generator with
 * 0 ms: the highest timestamp seen − 1, on the periodic auto-watermark timer. Sans-I/O: time is
 * the `now` the task passes in.
 *
 * Under replay the recording decides what was timing live: where each watermark goes out and
 * how far the source may read before its next barrier.
 */
export class SourceInput {
  /** next record to emit: the offset a checkpoint records */
  #offset = 0;
  /** virtual time the job started; record i is available at jobStart + i / rate */
  readonly #jobStart = 0;
  #maxTimestamp = -Infinity;
  #lastWatermark = -Infinity;
  #nextWatermarkAt: number;
  /** barriers (and cancellation markers) injected: orders the watermarks against them in a recording */
  #barriersInjected = 0;
  /** end-of-input was reached (the task sent end-of-data) */
  #inputEnded = false;
  #replay: ReplayFeeder | undefined;

  constructor(
    readonly split: SourceSplit,
    now: number,
    private readonly options: SourceInputOptions,
    private readonly output: SourceOutput,
  ) {
    this.#nextWatermarkAt = now + options.autoWatermarkInterval;
  }

  get offset(): number {
    return this.#offset;
  }

  /**
   * Flink's `pendingRecords` (FLIP-33): records of the split available by `now` that the source
   * has not emitted yet, the consumer lag of a Kafka partition. It grows while the job is down
   * and after a restore rewinds the offset, and shrinks only as fast as the job has spare capacity.
   */
  pendingRecords(now: number): number {
    return Math.max(0, availableCount(this.split, now - this.#jobStart) - this.#offset);
  }

  get barriersInjected(): number {
    return this.#barriersInjected;
  }

  /** A restore starts reading at the checkpoint's offset (the split replays what came after it). */
  restoreOffset(offset: number): void {
    this.#offset = offset;
  }

  /** Replays a recording: watermarks and barriers go where the recording has them. */
  replayWith(feeder: ReplayFeeder): void {
    this.#replay = feeder;
  }

  /**
   * Whether a triggered barrier may go out now. Under replay it waits until the source emitted
   * as many records as the recorded barrier came after, and the watermark recorded before it.
   */
  readyForBarrier(checkpointId: number): boolean {
    const replay = this.#replay;
    if (!replay) return true;
    return replay.mayInjectBarrier(checkpointId, this.position) && !replay.watermarkFirst(this.#offset, this.#barriersInjected);
  }

  /**
   * Where in the source's stream a barrier goes out: the records emitted, plus one once the
   * input ended (end-of-data went out), so a recording tells a barrier after the last record
   * from one after end-of-data (the final checkpoint's).
   */
  get position(): number {
    return this.#offset + (this.#inputEnded ? 1 : 0);
  }

  /** The task put a barrier (or a cancellation marker) on its outputs after the records emitted so far. */
  barrierInjected(): void {
    this.#barriersInjected++;
  }

  /** One unit of source work: a due watermark, then up to one buffer's worth of available records. */
  poll(now: number, lastCheckpointId: number): SourceStep {
    // Under replay a watermark goes out at its recorded offset, not by the periodic timer.
    if (this.#replay?.watermarkDue(this.#offset, this.#barriersInjected)) return this.#emitWatermark();
    if (!this.#replay) this.#maybeEmitPeriodicWatermark(now);
    const limit = this.#replayLimit(lastCheckpointId);
    if (limit <= 0) return { type: 'idle', wakeAt: undefined };
    if (this.#offset >= this.split.count) return { type: 'end-of-input' };
    const available = availableCount(this.split, now - this.#jobStart) - this.#offset;
    if (available <= 0) return { type: 'idle', wakeAt: this.#jobStart + availableAt(this.split, this.#offset) };
    if (!this.output.available) return { type: 'backpressured' };
    return this.#emitRecords(Math.min(available, this.options.recordsPerBuffer, limit));
  }

  /**
   * The input ended. A bounded source ends with the max watermark, as Flink's sources do, so
   * every window fires: true when that is still to go out (the task broadcasts it).
   */
  endInput(): boolean {
    this.#inputEnded = true;
    if (this.#lastWatermark === Infinity) return false;
    this.#lastWatermark = Infinity;
    return true;
  }

  /**
   * When an idle source must wake for its periodic watermark: only when one would advance, and
   * never under replay (watermarks go out at recorded offsets there).
   */
  get watermarkWakeAt(): number | undefined {
    if (this.#replay || this.#maxTimestamp - 1 <= this.#lastWatermark) return undefined;
    return this.#nextWatermarkAt;
  }

  /**
   * Under replay the source stops at the recorded offset of its next barrier until triggered
   * (its end of input too, when the recorded barrier came after its last record), and at its
   * next watermark. Records it may still emit; Infinity live.
   */
  #replayLimit(lastCheckpointId: number): number {
    if (!this.#replay) return Infinity;
    return Math.min(this.#replay.sourceLimit(lastCheckpointId), this.#replay.watermarkLimit()) - this.#offset;
  }

  #emitRecords(n: number): SourceStep {
    for (let i = 0; i < n; i++) {
      const record = this.split.recordAt(this.#offset++);
      if (record.timestamp > this.#maxTimestamp) this.#maxTimestamp = record.timestamp;
      this.output.collect(record);
    }
    return { type: 'emitted', records: n };
  }

  /** Periodic watermarks, as Flink's bounded-out-of-orderness generator (0 ms): max − 1. */
  #maybeEmitPeriodicWatermark(now: number): void {
    if (now < this.#nextWatermarkAt) return;
    while (this.#nextWatermarkAt <= now) this.#nextWatermarkAt += this.options.autoWatermarkInterval;
    this.#emitWatermark();
  }

  /** The watermark goes out when it advanced (max − 1). */
  #emitWatermark(): SourceStep {
    const watermark = this.#maxTimestamp - 1;
    if (watermark > this.#lastWatermark) {
      this.#lastWatermark = watermark;
      this.output.emitWatermark(watermark);
    }
    return { type: 'emitted', records: 0 };
  }
}

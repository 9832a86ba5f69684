import type { DataBuffer, EventBuffer, NetworkBuffer, StreamRecord } from '../protocol.ts';

/**
 * Slots a buffer being filled is made with, at most: a buffer of small records (32 kB of 1-byte
 * records is 32,768) grows past it as an array does, so thousands of idle channels hold little.
 */
const MAX_PREALLOCATED_RECORDS = 1024;

/**
 * The sending end of one channel (Flink's ResultSubpartition plus the credit the receiver
 * announced). Records are appended to a buffer being filled; a full buffer, a watermark, an event
 * or the flush timeout finishes it into the backlog; a backlog buffer goes out only against a
 * credit, one credit per buffer.
 */
export class ResultSubpartition {
  /**
   * The buffer being filled, made at its full size with its first record: pushing 327 records
   * onto an empty array grew it six times, every record of the job leaving the old copies behind
   * as garbage.
   */
  #filling: StreamRecord[] = [];
  /** records in #filling (its slots past them are empty) */
  #filled = 0;
  #backlog: NetworkBuffer[] = [];
  #credits: number;

  constructor(
    readonly channelId: number,
    initialCredits: number,
    private readonly recordsPerBuffer: number,
    private readonly recordSizeBytes: number,
  ) {
    this.#credits = initialCredits;
  }

  get credits(): number {
    return this.#credits;
  }

  /** Finished buffers waiting for credit. */
  get backlog(): number {
    return this.#backlog.length;
  }

  get hasPartialBuffer(): boolean {
    return this.#filled > 0;
  }

  /** Records and events not yet sent, for in-flight figures and unaligned checkpoints. */
  get queuedBuffers(): readonly NetworkBuffer[] {
    return this.#backlog;
  }

  addRecord(record: StreamRecord): void {
    if (this.#filled === 0) this.#filling = new Array<StreamRecord>(Math.min(this.recordsPerBuffer, MAX_PREALLOCATED_RECORDS));
    this.#filling[this.#filled++] = record;
    if (this.#filled >= this.recordsPerBuffer) this.finishBuffer();
  }

  /** Closes the buffer being filled, with a watermark after its records if one is given. */
  finishBuffer(watermark?: number): void {
    const filled = this.#filled;
    if (filled === 0 && watermark === undefined) return;
    const records = filled === 0 ? [] : this.#filling;
    // A partial buffer (a flush, a watermark, an event) gives back its empty slots.
    if (filled < records.length) records.length = filled;
    const buffer: DataBuffer = {
      kind: 'data',
      records,
      sizeBytes: filled * this.recordSizeBytes + (watermark === undefined ? 0 : 16),
    };
    if (watermark !== undefined) buffer.watermark = watermark;
    this.#backlog.push(buffer);
    this.#filling = [];
    this.#filled = 0;
  }

  /** Appends an event after everything written so far (the current buffer is finished first). */
  addEvent(buffer: NetworkBuffer): void {
    this.finishBuffer();
    this.#backlog.push(buffer);
  }

  /** Puts a priority event (an unaligned barrier) ahead of the backlog; returns what it overtook. */
  addPriorityEvent(buffer: NetworkBuffer): NetworkBuffer[] {
    this.finishBuffer();
    const overtaken = this.#backlog.slice();
    this.#backlog.unshift(buffer);
    return overtaken;
  }

  /** True while the barrier of this checkpoint waits in the backlog (it was not sent yet). */
  holdsBarrier(checkpointId: number): boolean {
    return this.#barrierIndex(checkpointId) >= 0;
  }

  /**
   * Flink's PipelinedSubpartition#alignedBarrierTimeout: an aligned barrier still waiting in the
   * backlog when its aligned-checkpoint-timeout passes becomes a priority event at the front; the
   * data buffers it overtakes are returned, to be persisted as output channel state. Returns
   * undefined when the barrier has left already (Flink completes the channel state future empty).
   */
  timeOutAlignedBarrier(checkpointId: number, asPriority: (barrier: EventBuffer) => EventBuffer): DataBuffer[] | undefined {
    const at = this.#barrierIndex(checkpointId);
    if (at < 0) return undefined;
    const [barrier] = this.#backlog.splice(at, 1) as [EventBuffer];
    const overtaken = this.#backlog.slice(0, at).filter((b): b is DataBuffer => b.kind === 'data');
    this.#backlog.unshift(asPriority(barrier));
    return overtaken;
  }

  #barrierIndex(checkpointId: number): number {
    return this.#backlog.findIndex((b) => b.kind === 'event' && b.event.kind === 'barrier' && b.event.checkpointId === checkpointId);
  }

  addCredits(n: number): void {
    this.#credits += n;
  }

  /**
   * Takes the next buffer that may go out now, or undefined. Each takes one credit, except a
   * priority event (an unaligned barrier), which Flink sends even when the receiver has no credit.
   */
  pollSendable(): NetworkBuffer | undefined {
    const head = this.#backlog[0];
    if (!head) return undefined;
    if (head.kind === 'event' && head.priority) return this.#backlog.shift();
    if (this.#credits === 0) return undefined;
    this.#credits--;
    return this.#backlog.shift();
  }

  /** Drops everything (the task was cancelled or failed). */
  clear(): void {
    this.#filling = [];
    this.#filled = 0;
    this.#backlog = [];
  }
}

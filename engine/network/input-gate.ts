import type { DataBuffer, NetworkBuffer } from '../protocol.ts';

/** The receiving end of one channel (Flink's InputChannel). */
export class InputChannel {
  readonly queue: NetworkBuffer[] = [];
  /** blocked channels are not read: an aligned barrier arrived here and alignment is still running */
  blocked = false;
  /** the upstream subtask's input ended (end-of-data was read): no more records, barriers still come */
  endOfData = false;
  /** the upstream subtask finished (end-of-partition was read) */
  finished = false;
  /** the last watermark read from this channel */
  watermark = -Infinity;
  /** highest checkpoint id whose barrier was read from this channel */
  lastBarrierId = 0;
  /** buffers at the front of the queue that overtook the others (priority events, pulled-forward barriers) */
  priorityHead = 0;
  /**
   * The unaligned checkpoint whose in-flight data this channel records: its snapshot was taken
   * before this channel's barrier arrived, so every data buffer arriving until then belongs to it
   * (Flink's ChannelStatePersister in state RECORDING).
   */
  #recording: number | undefined;
  /**
   * The data a priority barrier overtook when it arrived. Flink tells them apart from later
   * arrivals by sequence number (RemoteInputChannel#getInflightBuffersUnsafe); here they are
   * remembered until the snapshot of that checkpoint asks for them.
   */
  #overtaken: { checkpointId: number; buffers: DataBuffer[] } | undefined;

  constructor(
    readonly channelId: number,
    /** index of the upstream subtask */
    readonly index: number,
  ) {}

  /** Queues an arriving buffer (at the front when it overtakes); returns it when it is in-flight data being recorded. */
  arrive(buffer: NetworkBuffer, front: boolean): DataBuffer | undefined {
    if (buffer.kind === 'event') this.#eventArrived(buffer.event, front);
    if (front) {
      this.queue.unshift(buffer);
      this.priorityHead++;
    } else {
      this.queue.push(buffer);
    }
    return buffer.kind === 'data' && this.#recording !== undefined ? buffer : undefined;
  }

  #eventArrived(event: Extract<NetworkBuffer, { kind: 'event' }>['event'], overtakes: boolean): void {
    if (event.kind === 'end-of-partition') this.#recording = undefined;
    if (event.kind !== 'barrier') return;
    // The barrier ends the recording: what it overtook arrived before it and was recorded already
    // (for its checkpoint; a newer one whose snapshot is still to come asks for them).
    if (this.#recording !== undefined && event.checkpointId >= this.#recording) this.#recording = undefined;
    if (overtakes) this.#overtaken = { checkpointId: event.checkpointId, buffers: dataOf(this.queue) };
  }

  /**
   * Flink's checkpointStarted for an unaligned snapshot: returns the queued data that precedes
   * this checkpoint's barrier in the stream, and records later arrivals while the barrier is
   * still to come. A barrier of this checkpoint queued behind data moves to the front (Flink
   * converts its announcement into a priority event), so it is read next.
   */
  startRecording(checkpointId: number): { inFlight: DataBuffer[]; barrierMoved: boolean } {
    const overtaken = this.#overtaken;
    this.#overtaken = undefined;
    if (overtaken?.checkpointId === checkpointId) return { inFlight: overtaken.buffers, barrierMoved: false };
    if (this.finished || this.lastBarrierId >= checkpointId) return { inFlight: [], barrierMoved: false };
    // A newer barrier bounds the data too (this checkpoint was cancelled upstream).
    const at = this.queue.findIndex((b) => (barrierIdOf(b) ?? 0) >= checkpointId);
    if (at < 0) {
      this.#recording = checkpointId;
      return { inFlight: dataOf(this.queue), barrierMoved: false };
    }
    return { inFlight: dataOf(this.queue.slice(0, at)), barrierMoved: this.#prioritize(at, checkpointId) };
  }

  /** Makes this checkpoint's queued barrier at `at` a priority buffer at the front; true when it moved. */
  #prioritize(at: number, checkpointId: number): boolean {
    if (barrierIdOf(this.queue[at]!) !== checkpointId || at < this.priorityHead) return false;
    if (at > 0) this.queue.unshift(...this.queue.splice(at, 1));
    this.priorityHead++;
    return at > 0;
  }

  /** Checkpoints up to this id were given up: nothing more is their in-flight data. */
  stopRecording(checkpointId = Infinity): void {
    if (this.#recording !== undefined && this.#recording <= checkpointId) this.#recording = undefined;
    if (this.#overtaken && this.#overtaken.checkpointId <= checkpointId) this.#overtaken = undefined;
  }

  /** Takes the head of the queue. */
  take(): NetworkBuffer {
    const buffer = this.queue.shift()!;
    if (this.priorityHead > 0) this.priorityHead--;
    this.lastBarrierId = Math.max(this.lastBarrierId, barrierIdOf(buffer) ?? 0);
    return buffer;
  }

  clear(): void {
    this.queue.length = 0;
    this.priorityHead = 0;
    this.stopRecording();
  }
}

function barrierIdOf(buffer: NetworkBuffer): number | undefined {
  return buffer.kind === 'event' && buffer.event.kind === 'barrier' ? buffer.event.checkpointId : undefined;
}

function dataOf(buffers: readonly NetworkBuffer[]): DataBuffer[] {
  return buffers.filter((b): b is DataBuffer => b.kind === 'data');
}

/**
 * One logical input of a task (Flink's InputGate): the channels from every upstream subtask of
 * one edge. Buffers are read in arrival order across channels, skipping blocked channels, as
 * Flink's gate hands out channels from its queue of channels with data.
 */
export class InputGate {
  readonly channels: InputChannel[];
  /** channel indices in the order their buffers arrived; one entry per queued buffer */
  #arrivals: number[] = [];

  constructor(channelIds: readonly number[]) {
    this.channels = channelIds.map((id, i) => new InputChannel(id, i));
  }

  get queuedBuffers(): number {
    return this.#arrivals.length;
  }

  /**
   * Queues a buffer. A priority event overtakes what is queued on its channel (an unaligned
   * barrier); so does a barrier the task asks to pull forward (`front`). Returns the buffer when
   * it is in-flight data of an unaligned checkpoint that must be persisted.
   */
  receive(channelIndex: number, buffer: NetworkBuffer, front = buffer.kind === 'event' && buffer.priority): DataBuffer | undefined {
    const inFlight = this.channels[channelIndex]!.arrive(buffer, front);
    if (front) this.#arrivals.unshift(channelIndex);
    else this.#arrivals.push(channelIndex);
    return inFlight;
  }

  /**
   * Starts recording in-flight data on every channel for an unaligned snapshot; returns, per
   * channel, the queued data that is in flight (see InputChannel#startRecording).
   */
  startRecording(checkpointId: number): Array<{ channel: number; buffers: DataBuffer[] }> {
    return this.channels.map((c) => {
      const { inFlight, barrierMoved } = c.startRecording(checkpointId);
      // Entries only count a channel's buffers, so any one of this channel's entries can move up.
      if (barrierMoved) this.#arrivals.unshift(...this.#arrivals.splice(this.#arrivals.lastIndexOf(c.index), 1));
      return { channel: c.index, buffers: inFlight };
    });
  }

  /** True when some unblocked channel has a buffer to read. */
  hasReadable(): boolean {
    for (const c of this.#arrivals) if (!this.channels[c]!.blocked) return true;
    return false;
  }

  /** Takes the next buffer in arrival order from an unblocked channel. */
  pollNext(): { channel: InputChannel; buffer: NetworkBuffer } | undefined {
    for (let i = 0; i < this.#arrivals.length; i++) {
      const c = this.#arrivals[i]!;
      const channel = this.channels[c]!;
      if (channel.blocked) continue;
      this.#arrivals.splice(i, 1);
      return { channel, buffer: channel.take() };
    }
    return undefined;
  }

  /**
   * Takes a buffer that overtook the others (a priority event, a pulled-forward barrier), if an
   * unblocked channel has one. Flink handles priority events even while the output is
   * backpressured (CheckpointedInputGate#processPriorityEvents runs as its own mailbox action).
   */
  pollPriority(): { channel: InputChannel; buffer: NetworkBuffer } | undefined {
    const channel = this.channels.find((c) => c.priorityHead > 0 && !c.blocked);
    if (!channel) return undefined;
    this.#arrivals.splice(this.#arrivals.indexOf(channel.index), 1);
    return { channel, buffer: channel.take() };
  }

  /** The gate's watermark: the minimum over channels that have not finished. */
  combinedWatermark(): number {
    let min = Infinity;
    for (const c of this.channels) if (!c.finished && c.watermark < min) min = c.watermark;
    return min;
  }

  get allFinished(): boolean {
    return this.channels.every((c) => c.finished);
  }

  /** Every channel delivered end-of-data (or ended outright): the gate's input is over. */
  get allEndOfData(): boolean {
    return this.channels.every((c) => c.endOfData || c.finished);
  }

  /** Drops every queued buffer (the task was cancelled or failed). */
  clear(): void {
    for (const c of this.channels) c.clear();
    this.#arrivals = [];
  }
}

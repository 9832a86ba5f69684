import type { NetworkBuffer } from '../protocol.ts';

/** The receiving end of one channel (Flink's InputChannel). */
export class InputChannel {
  readonly queue: NetworkBuffer[] = [];
  /** blocked channels are not read: an aligned barrier arrived here and alignment is still running */
  blocked = false;
  /** the upstream subtask finished (end-of-partition was read) */
  finished = false;
  /** the last watermark read from this channel */
  watermark = -Infinity;

  constructor(
    readonly channelId: number,
    /** index of the upstream subtask */
    readonly index: number,
  ) {}
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

  receive(channelIndex: number, buffer: NetworkBuffer): void {
    const channel = this.channels[channelIndex]!;
    if (buffer.kind === 'event' && buffer.priority) {
      // A priority event overtakes what is queued on its channel (unaligned barrier).
      channel.queue.unshift(buffer);
      this.#arrivals.unshift(channelIndex);
    } else {
      channel.queue.push(buffer);
      this.#arrivals.push(channelIndex);
    }
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
      return { channel, buffer: channel.queue.shift()! };
    }
    return undefined;
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

  /** Drops every queued buffer (the task was cancelled or failed). */
  clear(): void {
    for (const c of this.channels) c.queue.length = 0;
    this.#arrivals = [];
  }
}

import type { InputChannel, InputGate } from '../network/input-gate.ts';

/**
 * Combines the watermarks of a task's input channels into the task's own, as Flink's
 * StatusWatermarkValve: each channel keeps the highest watermark read from it, the task's
 * watermark is the minimum over the channels that still count, and it only ever moves forward,
 * so an operator sees each advance once and never a step back. A finished channel no longer
 * counts (it will send nothing more), as an idle one stops being aligned in Flink's valve.
 *
 * The per-channel watermark stays on the InputChannel (the inspector shows it there); the valve
 * owns only the combined one. Callers act on an advance (fire timers, forward it downstream).
 */
export class StatusWatermarkValve {
  /** the last watermark the valve let out (Flink's lastOutputWatermark) */
  #combined = -Infinity;

  constructor(private readonly gates: readonly InputGate[]) {}

  /** The task's watermark: the last one let out. */
  get watermark(): number {
    return this.#combined;
  }

  /**
   * A watermark read from a channel (Flink's inputWatermark): an older one than the channel
   * already had changes nothing. Returns the task's new watermark when this advanced it.
   */
  inputWatermark(channel: InputChannel, watermark: number): number | undefined {
    if (watermark > channel.watermark) channel.watermark = watermark;
    return this.#advance();
  }

  /**
   * A channel finished (its end-of-partition was read, `finished` is set): the minimum is taken
   * without it. Returns the task's new watermark when that advanced it.
   */
  onChannelFinished(): number | undefined {
    return this.#advance();
  }

  /** The minimum over every gate's open channels, let out when it is ahead of the last one. */
  #advance(): number | undefined {
    let combined = Infinity;
    for (const gate of this.gates) combined = Math.min(combined, gate.combinedWatermark());
    if (combined <= this.#combined) return undefined;
    this.#combined = combined;
    return combined;
  }
}

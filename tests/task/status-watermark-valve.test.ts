import { describe, expect, it } from 'vitest';
import { InputGate } from '../../engine/network/input-gate.ts';
import { StatusWatermarkValve } from '../../engine/task/status-watermark-valve.ts';

/** One step fed to the valve: a watermark read from channel `channel` of gate `gate`, or that channel's end. */
type Step = { gate: number; channel: number; watermark: number } | { gate: number; channel: number; ends: true };

/** Feeds the steps in order; returns what the valve let out after each (undefined: no advance). */
function feed(gateSizes: number[], steps: Step[]): { released: Array<number | undefined>; valve: StatusWatermarkValve } {
  const gates = gateSizes.map((n, g) => new InputGate(Array.from({ length: n }, (_, c) => 10 * (g + 1) + c)));
  const valve = new StatusWatermarkValve(gates);
  const released = steps.map((step) => {
    const channel = gates[step.gate]!.channels[step.channel]!;
    if ('watermark' in step) return valve.inputWatermark(channel, step.watermark);
    channel.finished = true;
    return valve.onChannelFinished();
  });
  return { released, valve };
}

const wm = (channel: number, watermark: number, gate = 0): Step => ({ gate, channel, watermark });
const ends = (channel: number, gate = 0): Step => ({ gate, channel, ends: true });

describe('StatusWatermarkValve', () => {
  it.each<[string, number[], Step[], Array<number | undefined>]>([
    ['a single channel lets every advance through', [1], [wm(0, 5), wm(0, 9)], [5, 9]],
    ['the valve holds the combined watermark at the minimum of its active channels', [2], [wm(0, 50), wm(1, 20), wm(1, 70)], [undefined, 20, 50]],
    ['a channel that has sent no watermark yet holds the others back', [3], [wm(0, 10), wm(1, 10)], [undefined, undefined]],
    ['a watermark older than the channel already had changes nothing', [2], [wm(0, 30), wm(1, 30), wm(0, 10), wm(1, 40)], [undefined, 30, undefined, undefined]],
    ['an equal minimum is not let out twice', [2], [wm(0, 5), wm(1, 5), wm(1, 8), wm(0, 5)], [undefined, 5, undefined, undefined]],
    ['an ended channel no longer holds the watermark back', [2], [wm(0, 40), ends(1)], [undefined, 40]],
    ['when every channel ended the watermark goes to the end of time', [2], [wm(0, 40), ends(0), ends(1)], [undefined, undefined, Infinity]],
    ['the minimum is taken across every gate of a two-input task', [1, 1], [wm(0, 100, 0), wm(0, 60, 1), wm(0, 200, 1)], [undefined, 60, 100]],
    ['an ended gate leaves the minimum to the other gate', [1, 1], [wm(0, 100, 0), ends(0, 1)], [undefined, 100]],
  ])('%s', (_name, gateSizes, steps, expected) => {
    expect(feed(gateSizes, steps).released).toEqual(expected);
  });

  it.each<[string, Step[], number]>([
    ['nothing let out yet', [wm(0, 30)], -Infinity],
    ['the last advance', [wm(0, 30), wm(1, 50), ends(0)], 50],
    ['an older watermark on a channel does not lower it', [wm(0, 30), wm(1, 50), wm(0, 10)], 30],
  ])('its watermark is the last one it let out: %s', (_name, steps, expected) => {
    expect(feed([2], steps).valve.watermark).toBe(expected);
  });

  it('keeps the highest watermark read from each channel on the channel (the inspector shows it)', () => {
    const gate = new InputGate([10, 11]);
    const valve = new StatusWatermarkValve([gate]);
    valve.inputWatermark(gate.channels[0]!, 30);
    valve.inputWatermark(gate.channels[0]!, 10);
    expect(gate.channels.map((c) => c.watermark)).toEqual([30, -Infinity]);
  });
});

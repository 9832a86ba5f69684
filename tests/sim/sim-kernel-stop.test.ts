/**
 * SimKernel.runUntil with a `stop`: the page's frame ends a slice early once its deadline passed,
 * at an instant's end, and the run goes on later the same event for event.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimKernel } from '../../engine/sim/sim-kernel.ts';

/** A kernel whose events record themselves (time and id) and each schedule a follower 0–3 ms later, ids from `next`. */
function recordingKernel(seedTimes: readonly number[], gaps: readonly number[]) {
  const handled: Array<[number, number]> = [];
  let next = seedTimes.length;
  const kernel: SimKernel<number> = new SimKernel<number>((id, at) => {
    handled.push([at, id]);
    if (next < 2000) kernel.schedule(at + gaps[id % gaps.length]!, next++);
  });
  seedTimes.forEach((t, id) => kernel.schedule(t, id));
  return { kernel, handled };
}

describe('a simulation kernel asked to stop', () => {
  it('handles every event when it is never asked to stop, and says it reached the time', () => {
    const { kernel, handled } = recordingKernel([0, 1, 2], [1, 0, 2]);
    expect(kernel.runUntil(50, () => false)).toBe(true);
    expect(kernel.now).toBe(50);
    expect(handled.every(([at]) => at <= 50)).toBe(true);
    expect(kernel.nextEventTime).toBeGreaterThan(50);
  });

  it('stops at an instant’s end once 32 events were handled, with every event up to its clock handled and none later', () => {
    // many events at each instant: a stop may only come where the clock moves on
    const { kernel, handled } = recordingKernel([0, 0, 0, 0, 0], [0, 0, 0, 1]);
    expect(kernel.runUntil(1000, () => true)).toBe(false);
    expect(handled.length).toBeGreaterThanOrEqual(32);
    expect(kernel.now).toBe(handled.at(-1)![0]);
    expect(kernel.nextEventTime).toBeGreaterThan(kernel.now);
  });

  it('handles the same events in the same order however often it is stopped (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 8 }), fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 6 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 50 }), (seeds, gaps, answers) => {
        const whole = recordingKernel(seeds, gaps);
        whole.kernel.runUntil(400);
        const stopped = recordingKernel(seeds, gaps);
        let asked = 0;
        let calls = 0;
        while (!stopped.kernel.runUntil(400, () => answers[asked++ % answers.length]!)) {
          calls++;
          // between two calls the clock is at an instant whose events were all handled
          expect(stopped.kernel.nextEventTime).toBeGreaterThan(stopped.kernel.now);
        }
        expect(stopped.handled).toEqual(whole.handled);
        expect(stopped.kernel.now).toBe(whole.kernel.now);
        expect(calls).toBeLessThanOrEqual(Math.ceil(whole.handled.length / 32));
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

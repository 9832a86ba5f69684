import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventQueue } from '../../engine/sim/event-queue.ts';
import { SimKernel } from '../../engine/sim/sim-kernel.ts';

describe('the event queue', () => {
  it('pops events in time order, and events at the same time in the order they were pushed', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), (times) => {
        const q = new EventQueue<number>();
        times.forEach((t, i) => q.push(t, i));
        const popped: number[] = [];
        while (q.size > 0) popped.push(q.pop()!);
        const expected = times.map((t, i) => ({ t, i })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => x.i);
        expect(popped).toEqual(expected);
      }),
    );
  });

  it('reports Infinity as the next time when empty', () => {
    expect(new EventQueue<number>().peekTime()).toBe(Infinity);
  });
});

describe('the simulation kernel', () => {
  it('moves the clock only when it handles an event, and never backwards', () => {
    const seen: number[] = [];
    const kernel = new SimKernel<string>((_e, now) => seen.push(now));
    kernel.schedule(5, 'a');
    kernel.schedule(2, 'b');
    kernel.runUntil(3);
    expect(seen).toEqual([2]);
    expect(kernel.now).toBe(3);
    kernel.schedule(1, 'late'); // in the past: runs now
    kernel.runUntilIdle();
    expect(seen).toEqual([2, 3, 5]);
  });

  it('steps one event at a time', () => {
    const handled: string[] = [];
    const kernel = new SimKernel<string>((e) => handled.push(e));
    kernel.schedule(1, 'x');
    kernel.schedule(1, 'y');
    expect(kernel.step()).toBe(true);
    expect(handled).toEqual(['x']);
    expect(kernel.step()).toBe(true);
    expect(kernel.step()).toBe(false);
    expect(kernel.handledEvents).toBe(2);
  });
});

describe('the kernel livelock guard', () => {
  it('throws instead of spinning when events keep coming at the same instant', () => {
    const kernel: SimKernel<number> = new SimKernel<number>((e, now) => kernel.schedule(now, e + 1), 1000);
    kernel.schedule(5, 0);
    expect(() => kernel.runUntilIdle()).toThrow(/simulation livelock: more than 1000 events at virtual time 5 ms/);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { clockFrom } from '../../workers/job-clock.ts';
import { sleepJobTime } from '../../workers/job-time-sleep.ts';
import type { JobClock } from '../../workers/protocol.ts';

describe('sleepJobTime (modelled storage costs on the live job clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function tracked(jobMs: number, clock: () => JobClock): { done: () => boolean } {
    let resolved = false;
    void sleepJobTime(jobMs, clock).then(() => (resolved = true));
    return { done: () => resolved };
  }

  it('waits the job time divided by the speed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const clock = clockFrom(0, 2);
    const sleep = tracked(100, () => clock);
    await vi.advanceTimersByTimeAsync(45);
    expect(sleep.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(sleep.done()).toBe(true);
  });

  it('crawls while the clock is held and finishes at the normal pace once it runs again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    let clock = clockFrom(0, 0.001);
    const sleep = tracked(50, () => clock);
    await vi.advanceTimersByTimeAsync(10_000);
    // 10 s of wall time at 1/1000 is 10 ms of job time: 40 ms still to go.
    expect(sleep.done()).toBe(false);
    clock = clockFrom(10, 1);
    await vi.advanceTimersByTimeAsync(35);
    expect(sleep.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(60);
    expect(sleep.done()).toBe(true);
  });
});

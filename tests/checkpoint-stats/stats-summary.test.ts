import { describe, expect, it } from 'vitest';
import { StatsSummary } from '../../engine/checkpoint/stats/stats-summary.ts';
import { SlidingWindow } from '../../engine/checkpoint/stats/sliding-window.ts';

describe('StatsSummary', () => {
  it('reports zeros and NaN percentiles before any value', () => {
    const snapshot = new StatsSummary(10).snapshot();
    expect([snapshot.min, snapshot.max, snapshot.avg, snapshot.count]).toEqual([0, 0, 0, 0]);
    expect(snapshot.quantile(0.5)).toBeNaN();
  });

  it('ignores negative values, which Flink uses for "unknown"', () => {
    const summary = new StatsSummary(10);
    summary.add(-1);
    summary.add(30);
    const snapshot = summary.snapshot();
    expect([snapshot.min, snapshot.max, snapshot.count, snapshot.sum]).toEqual([30, 30, 1, 30]);
  });

  it('averages with Java long division, rounding towards zero', () => {
    const summary = new StatsSummary();
    for (const value of [1, 2, 2]) summary.add(value);
    expect(summary.snapshot().avg).toBe(1);
  });

  it('keeps min, max and average over every value but percentiles over the window only', () => {
    const summary = new StatsSummary(3);
    for (const value of [1_000, 10, 20, 30]) summary.add(value);
    const snapshot = summary.snapshot();
    expect([snapshot.min, snapshot.max, snapshot.avg]).toEqual([10, 1_000, 265]);
    expect(snapshot.quantile(0.5)).toBe(20);
    expect(snapshot.quantile(0.999)).toBe(30);
  });

  it('has NaN percentiles when built without a histogram, like Flink per-task summaries', () => {
    const summary = new StatsSummary();
    summary.add(5);
    expect(summary.snapshot().quantile(0.5)).toBeNaN();
  });
});

describe('SlidingWindow', () => {
  it('overwrites the oldest value once full', () => {
    const window = new SlidingWindow(2);
    for (const value of [1, 2, 3]) window.add(value);
    expect(window.values().sort()).toEqual([2, 3]);
  });

  it('rejects a capacity below 1 with a RangeError', () => {
    expect(() => new SlidingWindow(0)).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { TurnScheduler } from '../../workers/turn-scheduler.ts';
import { until } from './until.ts';

describe('TurnScheduler', () => {
  it('tells that a turn is posted to run next, until it ran', async () => {
    let turns = 0;
    const scheduler = new TurnScheduler(() => turns++);
    expect(scheduler.immediatePending).toBe(false);
    scheduler.requestNow();
    expect(scheduler.immediatePending).toBe(true);
    await until(() => turns === 1, 5_000, 1);
    expect(scheduler.immediatePending).toBe(false);
    scheduler.stop();
  });

  it('has no turn pending for a timer, nor once stopped', () => {
    const now = 0;
    const scheduler = new TurnScheduler(() => {}, () => now);
    scheduler.requestAt(now + 50);
    expect(scheduler.immediatePending).toBe(false);
    scheduler.requestNow();
    scheduler.stop();
    expect(scheduler.immediatePending).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { capacityPlanning } from '../support/capacity-planning-scenario.ts';
import { SimDriver } from '../../web/playground/drivers/sim-driver.ts';

describe('the backlog chart’s history (the sources’ pendingRecords each second)', () => {
  it('stays near 0 while the job keeps up', () => {
    const driver = new SimDriver(capacityPlanning(undefined));
    driver.advanceTo(8000);
    const backlog = driver.history.seconds.pendingRecords;
    expect(backlog).toHaveLength(driver.history.seconds.time.length);
    expect(Math.max(...backlog.map((n) => n ?? 0))).toBeLessThan(50);
  });

  it('piles up while the job restarts, and the report says when it caught up again', () => {
    const driver = new SimDriver(capacityPlanning(4000));
    driver.advanceTo(45_000);
    const backlog = driver.history.seconds.pendingRecords.map((n) => n ?? 0);
    // 2 s of restart delay at 2,000 records/s, and the records since the checkpoint read again
    expect(Math.max(...backlog)).toBeGreaterThan(4000);
    expect(driver.history.seconds.pendingRecords.at(-1)).toBe(driver.metrics().vertices['source']!.pendingRecords);
    const [restore] = driver.stats().restores;
    // about 200 records/s to spare: the backlog takes about half a minute to work off
    expect(restore?.catchUpMs).toBeGreaterThan(20_000);
    expect(backlog.at(-1)).toBeLessThan(50);
  });
});

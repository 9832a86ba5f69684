/**
 * What the backlog chart marks after a failure (lesson 10, 容量规划): the failure, the restore and
 * the moment the sources caught up, from the run's own catch-up times — the chart and stats()
 * cannot disagree on how long the catch-up took.
 */
import { describe, expect, it } from 'vitest';
import { capacityPlanning } from '../support/capacity-planning-scenario.ts';
import type { JobEvent, RestoreRecord } from '../../engine/run/job-events.ts';
import { catchUpMarkers } from '../../web/charts/catch-up-markers.ts';
import { SimDriver } from '../../web/playground/drivers/sim-driver.ts';

const restore = (time: number): RestoreRecord => ({ time, checkpointId: 1, isSavepoint: false, subtasks: [] });
const status = (time: number, s: 'RUNNING' | 'RESTARTING'): JobEvent => ({ type: 'job-status', time, status: s });

const markersOf = (driver: SimDriver) => catchUpMarkers(driver.restores, driver.events, driver.catchUps());

describe('the catch-up markers of the backlog chart', () => {
  it('mark the failure, the restore and the catch-up of each restore, in seconds', () => {
    const events = [status(0, 'RUNNING'), status(4000, 'RESTARTING'), status(6000, 'RUNNING'), status(9000, 'RESTARTING'), status(10_000, 'RUNNING')];
    const catchUps = [
      { catchUpMs: null, elapsedMs: 3000 },
      { catchUpMs: 2000, elapsedMs: 2000 },
    ];
    expect(catchUpMarkers([restore(6000), restore(10_000)], events, catchUps)).toEqual([
      { failedAt: 4, restoredAt: 6, caughtUpAt: null, catchUpMs: null },
      { failedAt: 9, restoredAt: 10, caughtUpAt: 12, catchUpMs: 2000 },
    ]);
  });

  it('are none while the job has not failed', () => {
    const driver = new SimDriver(capacityPlanning(undefined));
    driver.advanceTo(8000);
    expect(markersOf(driver)).toEqual([]);
  });

  it('leave the catch-up open while the backlog is still above its level', () => {
    const driver = new SimDriver(capacityPlanning(4000));
    driver.advanceTo(12_000);
    const [marker] = markersOf(driver);
    expect(marker).toMatchObject({ failedAt: 4, caughtUpAt: null, catchUpMs: null });
    expect(marker!.restoredAt).toBeGreaterThanOrEqual(6);
  });

  it('close it where the run reports the catch-up: the kill at 4 s, RUNNING again after the 2 s restart delay, caught up half a minute later', () => {
    const driver = new SimDriver(capacityPlanning(4000));
    driver.advanceTo(45_000);
    const [marker, ...more] = markersOf(driver);
    const [reported] = driver.stats().restores;
    expect(more).toEqual([]);
    expect(marker).toEqual({ failedAt: 4, restoredAt: reported!.time / 1000, caughtUpAt: (reported!.time + reported!.catchUpMs!) / 1000, catchUpMs: reported!.catchUpMs });
    expect(marker!.restoredAt - marker!.failedAt).toBeGreaterThanOrEqual(2);
    expect(marker!.catchUpMs).toBeGreaterThan(20_000);
  });
});

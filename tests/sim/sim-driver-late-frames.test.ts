/**
 * The page's sim driver, in frames (`advanceTo(…, endSliceAtDeadline)`), ends a slice still running when its frame's
 * deadline passed, at an instant's end, instead of running the whole slice: the run then is where
 * a run advanced to that time without frames is, and advancing in late frames gives the same run.
 */
import { describe, expect, it } from 'vitest';
import { SimDriver } from '../../web/playground/drivers/sim-driver.ts';
import { loadShippedScenario } from '../support/shipped-scenarios.ts';

/** What the run did: its events, restores, checkpoints and the sink's output per key. */
function runOf(driver: SimDriver) {
  return { now: driver.now, events: driver.events.map((e) => ({ ...e })), restores: driver.restores, checkpoints: driver.checkpointing().counts, output: driver.output(50) };
}

describe('the sim driver in the page’s frames that are late', () => {
  it('ends a slice early in a late frame, where a run advanced to the same time without frames is', () => {
    const scenario = loadShippedScenario('exactly-once-under-failures.yaml');
    const paged = new SimDriver(scenario, { checkpointStorage: false });
    const whole = new SimDriver(scenario, { checkpointStorage: false });
    const slicesEndedEarly: number[] = [];
    for (let frame = 0; frame < 400 && paged.now < 3000; frame++) {
      const before = paged.now;
      // a frame whose deadline has passed already: the run still moves on, by a few events at least
      paged.advanceTo(before + 20, performance.now(), undefined, true);
      expect(paged.now).toBeGreaterThan(before);
      if (paged.now < before + 20) slicesEndedEarly.push(paged.now);
    }
    expect(slicesEndedEarly.length).toBeGreaterThan(0);
    const at = slicesEndedEarly.at(-1)!;
    const resumed = new SimDriver(scenario, { checkpointStorage: false });
    while (resumed.now < at) resumed.advanceTo(Math.min(at, resumed.now + 20), performance.now(), undefined, true);
    whole.advanceTo(at);
    expect(runOf(resumed)).toEqual(runOf(whole));
  });

  it('gives the same run in late frames as without frames, through its failures and checkpoints', () => {
    const scenario = loadShippedScenario('exactly-once-under-failures.yaml');
    const paged = new SimDriver(scenario, { checkpointStorage: false });
    const whole = new SimDriver(scenario, { checkpointStorage: false });
    // before its bounded input ends (about 5.1 s): a run that ended stops its clock where it ended
    const end = 4500;
    while (paged.now < end) paged.advanceTo(Math.min(end, paged.now + 20), performance.now(), undefined, true);
    whole.advanceTo(end);
    expect(whole.isTerminal).toBe(false);
    expect(whole.restores.length).toBeGreaterThan(0);
    expect(runOf(paged)).toEqual(runOf(whole));
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { SimDriver } from '../../web/playground/drivers/sim-driver.ts';

/**
 * The shipped at-least-once scenario (a failure makes its plain sink write duplicates), with an
 * unbounded source: a run that finishes compares complete outputs, with no reference lead.
 */
function atLeastOnce(): Scenario {
  const parsed = parseScenarioText(readFileSync('public/scenarios/at-least-once-duplicates.yaml', 'utf8'));
  if (!parsed.ok) throw new Error('at-least-once-duplicates.yaml does not parse');
  const document = parsed.value as { job: { vertices: Array<{ source?: { count?: number } }> }; run?: unknown };
  for (const v of document.job.vertices) delete v.source?.count;
  const valid = validateScenario({ ...document, run: { until: '8 s' } });
  if (!valid.ok) throw new Error('the unbounded at-least-once scenario is invalid');
  return valid.scenario;
}

/** The sink comparison the page shows (the per-key rows in their order too), without this run's own total. */
const shown = (driver: SimDriver) => {
  const { duplicates, missing, referenceRecords, keyCount, rows } = driver.output(20);
  return { duplicates, missing, referenceRecords, keyCount, rows };
};
/** The counts alone: before the reference covered its lead once, it has not met every key yet. */
const counts = ({ duplicates, missing, referenceRecords }: ReturnType<typeof shown>) => ({ duplicates, missing, referenceRecords });

describe('the sim driver’s failure-free reference, caught up over frames', () => {
  it('never shows a comparison the failure-free run was not ahead for: each frame shows the comparison of an earlier time, and the same one once caught up', () => {
    const scenario = atLeastOnce();
    const now = new SimDriver(scenario, { checkpointStorage: false });
    const inFrames = new SimDriver(scenario, { checkpointStorage: false, referenceCatchUp: 'in-frames' });
    const end = scenario.run.until_ms;
    // the comparison each 20 ms of the run whose reference is always ahead
    const byTime = new Map<number, ReturnType<typeof shown>>([[0, shown(now)]]);
    let lagged = 0;
    for (let t = 20; t <= end && !inFrames.isTerminal; t += 20) {
      now.advanceTo(t);
      byTime.set(now.now, shown(now));
      // a frame that is always late: one slice of the run, one of the reference
      inFrames.advanceTo(t, performance.now());
      const compared = inFrames.comparedMs;
      if (compared < inFrames.now) lagged++;
      expect(byTime.has(compared), `compared at ${compared} ms`).toBe(true);
      const want = byTime.get(compared)!;
      if (compared > 0) expect(shown(inFrames), `at ${t} ms, compared at ${compared} ms`).toEqual(want);
      else expect(counts(shown(inFrames)), `at ${t} ms, compared at 0 ms`).toEqual(counts(want));
    }
    // the reference had a lead to build, then kept it
    expect(lagged).toBeGreaterThan(0);
    expect(inFrames.comparedMs).toBe(inFrames.now);
    expect(inFrames.output()).toEqual(now.output());
    expect(shown(now).duplicates, 'the scenario writes duplicates after its failure').toBeGreaterThan(0);
  });

  it('catches up at once when asked (the API’s stats and a pause)', () => {
    const scenario = atLeastOnce();
    const now = new SimDriver(scenario, { checkpointStorage: false });
    const inFrames = new SimDriver(scenario, { checkpointStorage: false, referenceCatchUp: 'in-frames' });
    now.advanceTo(1000);
    for (let t = 20; t <= 1000; t += 20) inFrames.advanceTo(t, performance.now());
    expect(inFrames.comparedMs).toBeLessThan(1000);
    inFrames.catchUpReference();
    expect(inFrames.comparedMs).toBe(1000);
    expect(shown(inFrames)).toEqual(shown(now));
    expect(inFrames.stats().output).toEqual(now.stats().output);
  });

  it('keeps the comparison near the run at full speed: the reference takes most of each frame while it is short of its lead, instead of catching up at the run’s end', () => {
    const scenario = atLeastOnce();
    // The wall clock the driver reads is a counter: each look at it costs 0.2 ms, whatever the
    // machine's load, so the frames below hold the same work on every run.
    let wallMs = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (wallMs += 0.2));
    const inFrames = new SimDriver(scenario, { checkpointStorage: false, referenceCatchUp: 'in-frames' });
    // frames of 10 ms that each ask for far more virtual time than the machine can run in them
    try {
      for (let frame = 0; frame < 200 && !inFrames.isTerminal; frame++) inFrames.advanceTo(inFrames.now + 2000, performance.now() + 10);
    } finally {
      clock.mockRestore();
    }
    expect(inFrames.now).toBeGreaterThan(1000);
    expect(inFrames.now - inFrames.comparedMs, `the run at ${inFrames.now} ms, compared at ${inFrames.comparedMs} ms`).toBeLessThan(inFrames.now / 4);
  });
});

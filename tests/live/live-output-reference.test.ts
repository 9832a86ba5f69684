/**
 * The live page's output oracle (web/playground/oracle/live-output-reference.ts), driven by a stand-in
 * for the live run: a Simulation with the scenario's faults, whose sink writes and source offsets
 * go to the oracle as the live driver's do. The independent check is SinkOutputLog.compareTo
 * against a complete failure-free run.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { LiveOutputReference, sourceOffsetsOf, tapSinkWrites } from '../../web/playground/oracle/live-output-reference.ts';

function scenario(file: string): Scenario {
  const parsed = parseScenarioText(readFileSync(`public/scenarios/${file}`, 'utf8'));
  if (!parsed.ok) throw new Error(file);
  const validated = validateScenario(parsed.value);
  if (!validated.ok) throw new Error(file);
  return validated.scenario;
}

/** Runs the faulty "live" stand-in to the end, following it with the oracle every 100 ms; returns the counts seen on the way. */
function follow(s: Scenario): { live: Simulation; reference: LiveOutputReference; duplicatesSeen: number[] } {
  const live = new Simulation(s);
  const reference = new LiveOutputReference(s, live.seed);
  tapSinkWrites(live.sinkOutput, (records) => reference.oracle.mine(records));
  const duplicatesSeen: number[] = [];
  while (!live.job.isTerminal) {
    live.runUntil(live.now + 100);
    reference.follow(sourceOffsetsOf(live.metrics().subtasks), live.jobStatus === 'FINISHED', Infinity);
    duplicatesSeen.push(reference.oracle.duplicates);
  }
  return { live, reference, duplicatesSeen };
}

function failureFree(s: Scenario): Simulation {
  const run = new Simulation({ ...s, faults: [] });
  run.runToEnd();
  return run;
}

describe('LiveOutputReference', () => {
  it('finds no duplicate at any point and nothing missing at the end of an exactly-once run with a task failure and a kill', () => {
    const s = scenario('exactly-once-under-failures.yaml');
    const { live, reference, duplicatesSeen } = follow(s);
    expect(live.restarts).toBeGreaterThanOrEqual(2);
    expect(duplicatesSeen.every((n) => n === 0)).toBe(true);
    expect(reference.oracle.missing).toBe(0);
    expect(live.sinkOutput.compareTo(failureFree(s).sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('counts the duplicates of an at-least-once run as the complete comparison does', () => {
    const s = scenario('at-least-once-duplicates.yaml');
    const { live, reference } = follow(s);
    const expected = live.sinkOutput.compareTo(failureFree(s).sinkOutput);
    expect(expected.duplicates).toBeGreaterThan(0);
    expect({ duplicates: reference.oracle.duplicates, missing: reference.oracle.missing }).toEqual(expected);
  });

  it('matches the reference to the live sources by offset, not by time', () => {
    const s = scenario('exactly-once-under-failures.yaml');
    const reference = new LiveOutputReference(s, s.seed);
    // Nothing reported yet: the reference does not run ahead on its own.
    reference.follow(new Map(), false, Infinity);
    expect(reference.referenceMs).toBe(0);
    const offsets = new Map([['source#0', 1000], ['source#1', 1000]]);
    reference.follow(offsets, false, Infinity);
    // Record 1000 of a 2000/s split is read at about 0.5 s of virtual time, whatever the live clock says.
    expect(reference.matchedMs).toBeGreaterThanOrEqual(480);
    expect(reference.matchedMs).toBeLessThanOrEqual(600);
  });
});

/**
 * Time travel in a sim run, as the page does it (SimDriver + SimTimeMachine, no DOM): seeking
 * back replays the recorded operations from time 0 into a fresh driver, seeking forward plays the
 * rest of the branch, and acting at a past point forks a branch that diverges from there on.
 * Determinism is checked on everything the page reports: the Flink REST documents, the restores,
 * the sink output and the job events.
 */
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { OperationScript } from '../../engine/replay/operation-script.ts';
import { SimDriver } from '../../web/playground/drivers/sim-driver.ts';
import type { JobOperation } from '../../engine/job/job-operation.ts';
import { SimTimeMachine, type SimSeek } from '../../engine/replay/sim-time-machine.ts';
import { CHECKPOINTING_SCENARIO } from '../browser/scenarios.ts';

function scenario(): Scenario {
  const result = validateScenario({ ...CHECKPOINTING_SCENARIO, run: { until: '14 s' } });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.scenario;
}

/** The page's side: one driver at a time, operations through the driver and recorded, seeks swapped in. */
class Page {
  readonly scenario = scenario();
  readonly machine = new SimTimeMachine(() => new SimDriver(this.scenario));
  driver = new SimDriver(this.scenario);

  constructor() {
    this.machine.attach(this.driver);
  }

  /** Advances in uneven slices, as animation frames would. */
  runTo(time: number): void {
    let frame = 0;
    while (this.driver.now < time && !this.driver.isTerminal) {
      this.driver.advanceTo(Math.min(time, this.driver.now + 37 + (frame++ % 5) * 113));
    }
  }

  act(operation: JobOperation): void {
    const problem = this.driver.operate(operation);
    if (problem !== undefined) throw new Error(problem);
    this.machine.record(this.driver, operation);
  }

  /** Seeks and finishes the replay at once (the page spreads it over frames). */
  seek(time: number, branchId?: number): SimSeek<SimDriver> {
    const replay = this.machine.seek(this.driver, time, branchId);
    let slices = 0;
    while (!replay.advance(Infinity, () => ++slices % 50 !== 0));
    if (replay.fresh) {
      this.machine.adopt(replay);
      this.driver = replay.driver;
    }
    return replay;
  }
}

/** Everything the page reports about a run, as plain data. */
function observe(driver: SimDriver) {
  const stats = driver.stats();
  return { stats, events: structuredClone(driver.events) };
}

describe('time travel in a sim run', () => {
  it('seeking back to T and forward to the end gives the same statistics, sink output and events as the original run', () => {
    const page = new Page();
    page.runTo(3000);
    page.act({ type: 'trigger-savepoint' });
    page.runTo(5200);
    page.act({ type: 'kill-task-manager', task_manager: 'tm-1' });
    page.runTo(7000);
    const atSeven = observe(page.driver);
    page.runTo(9100);
    page.act({ type: 'slow-operator', vertex: 'counts', factor: 4 });
    page.runTo(14_000);
    const original = observe(page.driver);
    expect(original.stats.restores.length).toBeGreaterThan(0);
    expect(original.stats.checkpoints.counts.completed).toBeGreaterThan(5);

    const back = page.seek(7000);
    expect(back.fresh).toBe(true);
    expect(page.driver.now).toBe(7000);
    expect(observe(page.driver)).toEqual(atSeven);

    const forward = page.seek(14_000);
    expect(forward.fresh).toBe(false);
    expect(page.driver.now).toBe(14_000);
    const replayed = observe(page.driver);
    expect(replayed.stats.checkpoints).toEqual(original.stats.checkpoints);
    expect(replayed.stats.checkpointDetails).toEqual(original.stats.checkpointDetails);
    expect(replayed.stats.restores).toEqual(original.stats.restores);
    expect(replayed.stats.output).toEqual(original.stats.output);
    expect(replayed).toEqual(original);
    expect(page.machine.history.branches).toHaveLength(1);
  });

  it('a different action at a past point starts a branch that diverges from that point on; the old branch can be returned to', () => {
    const page = new Page();
    page.runTo(5200);
    page.act({ type: 'kill-task-manager', task_manager: 'tm-1' });
    page.runTo(12_000);
    const original = observe(page.driver);

    page.seek(4000);
    page.act({ type: 'fail-task', vertex: 'sink', subtask: 2 });
    expect(page.machine.history.current).toMatchObject({ id: 2, parentId: 1, forkTime: 4000 });
    page.runTo(12_000);
    const branched = observe(page.driver);

    const before = (events: typeof original.events) => events.filter((e) => e.time < 4000);
    expect(before(branched.events)).toEqual(before(original.events));
    const firstAfter = (events: typeof original.events) => events.find((e) => e.time >= 4000);
    expect(firstAfter(branched.events)).toMatchObject({ type: 'fault', time: 4000 });
    expect(firstAfter(branched.events)).not.toEqual(firstAfter(original.events));
    expect(branched.stats.checkpoints).not.toEqual(original.stats.checkpoints);
    expect(branched.stats.restores.map((r) => r.time)).not.toEqual(original.stats.restores.map((r) => r.time));

    // Back to the first branch at the same time: the original run again.
    const back = page.seek(12_000, 1);
    expect(back.fresh).toBe(true);
    expect(page.machine.history.current.id).toBe(1);
    expect(observe(page.driver)).toEqual(original);
    expect(page.machine.history.branch(2)!.reachedMs).toBe(12_000);
  });

  it('replays an operation applied between two events of the same instant (after step()) at exactly that point', () => {
    const original = new Simulation(scenario());
    original.runUntil(2000);
    // Step until the next event is due at the same instant, and act between the two.
    while (original.kernel.nextEventTime !== original.now) original.step();
    const point = { time: original.now, handledEvents: original.kernel.handledEvents };
    expect(original.triggerCheckpoint('checkpoint')).toBeUndefined();
    original.runUntil(6000);

    const replayed = new Simulation(scenario());
    const script = new OperationScript([{ ...point, operation: { type: 'trigger-checkpoint' } }]);
    for (const time of [1000, point.time, 4000, 6000]) script.runUntil(replayed, time);
    expect(script.applied).toBe(1);
    expect(replayed.events).toEqual(original.events);
    expect(replayed.coordinator.stats.checkpointingStatistics()).toEqual(original.coordinator.stats.checkpointingStatistics());
  });

  it('refuses to replay an operation where the recorded run could not have applied it', () => {
    const replayed = new Simulation(scenario());
    const script = new OperationScript([{ time: 1000, handledEvents: 3, operation: { type: 'trigger-checkpoint' } }]);
    expect(() => script.runUntil(replayed, 2000)).toThrow(/The replay diverged from the recorded run: trigger-checkpoint at 1000 ms was recorded after event 3/);
  });

  it('a seek that is dropped before it is adopted leaves the page where it was', () => {
    const page = new Page();
    page.runTo(6000);
    page.act({ type: 'kill-task-manager', task_manager: 'tm-0' });
    page.runTo(8000);
    const replay = page.machine.seek(page.driver, 2000);
    replay.advance(Infinity, () => false); // one slice, then abandoned
    expect(replay.done).toBe(false);
    expect(replay.progress).toBeGreaterThan(0);
    expect(replay.progress).toBeLessThan(1);
    expect(page.driver.now).toBe(8000);
    expect(page.machine.history.current.operations).toHaveLength(1);
    page.act({ type: 'trigger-checkpoint' });
    expect(page.machine.history.branches).toHaveLength(1);
  });

  it('carries on a dropped replay when the next seek goes further back than it got, with the same result', () => {
    const page = new Page();
    page.runTo(4000);
    const atFour = observe(page.driver);
    page.runTo(6000);
    page.act({ type: 'kill-task-manager', task_manager: 'tm-0' });
    page.runTo(8000);
    const first = page.machine.seek(page.driver, 7000);
    first.advance(Infinity, () => false); // one slice, then the user presses the arrow key again
    const second = page.machine.seek(page.driver, 4000, undefined, first);
    expect(second.driver).toBe(first.driver);
    while (!second.advance(Infinity));
    expect(observe(second.driver)).toEqual(atFour);

    // One that got past the new target cannot go back: a fresh one starts.
    const third = page.machine.seek(page.driver, 1000, undefined, second);
    expect(third.driver).not.toBe(second.driver);
    expect(third.driver.now).toBe(0);

    // Nor one that replays the branch as it was before a later operation.
    third.advance(Infinity, () => false);
    page.act({ type: 'trigger-savepoint' });
    const fourth = page.machine.seek(page.driver, 5000, undefined, third);
    expect(fourth.driver).not.toBe(third.driver);
  });

  it('plays the recorded operations ahead when the run goes on event by event (step) after a seek back', () => {
    const page = new Page();
    page.runTo(3000);
    page.act({ type: 'fail-task', vertex: 'counts', subtask: 1 });
    page.runTo(4000);
    const original = observe(page.driver);

    page.seek(2000);
    while (page.driver.now < 3500) page.driver.step();
    page.runTo(4000);
    expect(page.driver.script?.applied).toBe(1);
    expect(observe(page.driver)).toEqual(original);
  });
});

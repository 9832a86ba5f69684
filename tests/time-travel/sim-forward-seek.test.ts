/**
 * A seek forward continues the deterministic run the page has, instead of replaying it from
 * time 0: on the current branch, and on another branch when the run is a point of that branch too
 * (it applied the operations both share and the other's next one is still ahead). Where it lands
 * is the run a replay from time 0 reaches: the same statistics document and events.
 */
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { JobOperation } from '../../engine/job/job-operation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { SimDriver } from '../../web/playground/drivers/sim-driver.ts';
import { SimTimeMachine } from '../../engine/replay/sim-time-machine.ts';
import { CHECKPOINTING_SCENARIO } from '../browser/scenarios.ts';

function scenario(): Scenario {
  const result = validateScenario({ ...CHECKPOINTING_SCENARIO, run: { until: '14 s' } });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.scenario;
}

/** The page's side, counting the drivers it builds to replay from time 0. */
class Page {
  readonly scenario = scenario();
  replaysFromZero = 0;
  readonly machine = new SimTimeMachine(() => {
    this.replaysFromZero++;
    return new SimDriver(this.scenario);
  });
  driver = new SimDriver(this.scenario);

  constructor() {
    this.machine.attach(this.driver);
  }

  runTo(time: number): void {
    while (this.driver.now < time && !this.driver.isTerminal) this.driver.advanceTo(Math.min(time, this.driver.now + 250));
  }

  killTaskManager(id: string): void {
    this.#act({ type: 'kill-task-manager', task_manager: id });
  }

  failTask(vertexId: string, subtask: number): void {
    this.#act({ type: 'fail-task', vertex: vertexId, subtask });
  }

  /** As the page does: the operation through the driver, then recorded. */
  #act(operation: JobOperation): void {
    expect(this.driver.operate(operation)).toBeUndefined();
    this.machine.record(this.driver, operation);
  }

  /** Seeks and finishes at once (the page spreads it over frames); true when it replayed from time 0. */
  seek(time: number, branchId?: number): boolean {
    const replay = this.machine.seek(this.driver, time, branchId);
    while (!replay.advance(Infinity));
    this.machine.adopt(replay);
    this.driver = replay.driver;
    return replay.fresh;
  }
}

function observe(driver: SimDriver) {
  return { now: driver.now, stats: driver.stats(), events: structuredClone(driver.events) };
}

describe('a forward seek in a sim run', () => {
  it('continues the running driver on its branch, and lands where a replay from time 0 lands', () => {
    const page = new Page();
    page.runTo(3000);
    page.killTaskManager('tm-0');
    page.runTo(4000);
    const running = page.driver;

    expect(page.seek(9000)).toBe(false);
    expect(page.driver).toBe(running);
    expect(page.replaysFromZero).toBe(0);
    const continued = observe(page.driver);

    page.runTo(11_000);
    expect(page.seek(9000)).toBe(true);
    expect(page.replaysFromZero).toBe(1);
    expect(observe(page.driver)).toEqual(continued);
  });

  it('continues on another branch when the run applied what both share and the other’s next operation is ahead', () => {
    const page = new Page();
    page.runTo(6000);
    page.killTaskManager('tm-0');
    page.runTo(8000);
    expect(page.seek(4000)).toBe(true);
    page.failTask('counts', 1); // forks branch 2 at 4 s
    page.runTo(5000);
    expect(page.seek(3000)).toBe(true); // on branch 2, before its failure: also a point of branch 1
    expect(page.replaysFromZero).toBe(2);
    const running = page.driver;

    expect(page.seek(7000, 1)).toBe(false);
    expect(page.driver).toBe(running);
    expect(page.replaysFromZero).toBe(2);
    expect(page.machine.history.current.id).toBe(1);
    const continued = observe(page.driver);
    expect(continued.events.some((e) => e.type === 'fault' && e.fault?.kind === 'kill-task-manager')).toBe(true);
    expect(continued.events.some((e) => e.type === 'fault' && e.fault?.kind === 'fail-task')).toBe(false);

    page.runTo(8000);
    expect(page.seek(7000)).toBe(true);
    expect(observe(page.driver)).toEqual(continued);
  });

  it('replays from time 0 for a branch whose operations the run has not applied', () => {
    const page = new Page();
    page.runTo(5000);
    page.killTaskManager('tm-0');
    page.runTo(6000);
    expect(page.seek(4000)).toBe(true);
    page.failTask('counts', 1); // branch 2: the run applied its failure, which branch 1 lacks
    page.runTo(4500);
    expect(page.seek(6000, 1)).toBe(true);
    expect(page.machine.history.current.id).toBe(1);
    expect(page.driver.events.some((e) => e.type === 'fault' && e.fault?.kind === 'fail-task')).toBe(false);
  });
});

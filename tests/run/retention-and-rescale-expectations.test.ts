/**
 * What outlives a job and how it comes back, as expectations: the checkpoints retention keeps once
 * the job ended, and a restore at another parallelism from a savepoint or a checkpoint. The runs
 * are real sim runs whose operator requests (cancel, rescale) come at set times.
 */
import { describe, expect, it } from 'vitest';
import type { ScheduledOperation } from '../../engine/job/scheduled-operation.ts';
import { checkExpectations } from '../../engine/run/expectations.ts';
import { failureLine } from '../../engine/run/expectation-failure.ts';
import { expectationInputs } from '../../engine/run/run-report.ts';
import type { ExpectationSpec, Scenario } from '../../engine/scenario/scenario-types.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';

/** source → count → sink at parallelism 2, 20 s of input, a checkpoint every 200 ms, the newest 2 kept; four slots. */
function scenario(config: Scenario['config'] = {}, faults: Scenario['faults'] = []): Scenario {
  const base = keyedCountJob({ keys: 50, rate: 1000, count: 20_000 });
  return {
    ...base,
    job: { ...base.job, edges: base.job.edges.map((e) => ({ ...e, partitioning: e.from === 'count' ? 'rebalance' : e.partitioning })) },
    cluster: { hosts: 1, task_managers_per_host: 1, slots_per_task_manager: 4 },
    config: { 'execution.checkpointing.interval': 200, 'execution.checkpointing.num-retained': 2, ...config },
    faults,
  };
}

function run(s: Scenario, operations: ScheduledOperation[], until: number): Simulation {
  const sim = new Simulation(s, { operations });
  sim.runUntil(until);
  return sim;
}

function check(sim: Simulation, ...expectations: ExpectationSpec[]) {
  return checkExpectations(expectations, expectationInputs(sim, { duplicates: 0, missing: 0 }));
}

const CANCEL_AT_1S: ScheduledOperation[] = [{ at_ms: 1000, operation: { type: 'cancel' } }];

describe('retained checkpoints once the job ended', () => {
  it.each([
    ['NO_EXTERNALIZED_CHECKPOINTS', 0],
    ['DELETE_ON_CANCELLATION', 0],
    ['RETAIN_ON_CANCELLATION', 2],
  ] as const)('a job cancelled at its scheduled time with %s keeps %i checkpoints', (retention, kept) => {
    const sim = run(scenario({ 'execution.checkpointing.externalized-checkpoint-retention': retention }), CANCEL_AT_1S, 3000);
    expect(sim.jobStatus).toBe('CANCELED');
    expect(sim.jobMaster.events.find((e) => e.type === 'job-status' && e.status === 'CANCELED')?.time).toBe(1000);
    expect(sim.retainedCheckpoints).toHaveLength(kept);
    const [atLeast, atMost] = check(sim, { type: 'min-retained-checkpoints', value: 2 }, { type: 'max-retained-checkpoints', value: 0 });
    expect([atLeast!.held, atMost!.held]).toEqual([kept === 2, kept === 0]);
    expect(atLeast!.seen).toBe(String(kept));
  });

  it('holds neither bound while the job still runs, and says so', () => {
    const sim = run(scenario({ 'execution.checkpointing.externalized-checkpoint-retention': 'RETAIN_ON_CANCELLATION' }), [], 1000);
    const results = check(sim, { type: 'min-retained-checkpoints', value: 0 }, { type: 'max-retained-checkpoints', value: 5 });
    expect(results.map((r) => r.held)).toEqual([false, false]);
    expect(results[0]!.actual).toBe('the job is still RUNNING');
  });

  it('reports an operator request the ended job cannot carry out as not applied, with the reason', () => {
    const sim = run(scenario(), [...CANCEL_AT_1S, { at_ms: 1500, operation: { type: 'rescale', vertex: 'count', parallelism: 3 } }], 3000);
    expect(sim.jobMaster.events).toContainEqual(expect.objectContaining({ type: 'fault-not-applied', time: 1500, faultType: 'rescale', reason: 'cannot rescale while the job is CANCELED' }));
  });
});

describe('a restore at another parallelism', () => {
  // Checkpoints triggered at about 0.2 s, 0.7 s, 1.2 s …; a savepoint at 1 s and, once it completed,
  // Count rescaled to 3 before the next checkpoint: the savepoint is the newest state, and the restore reads it.
  const rescaled = () =>
    run(
      scenario({ 'execution.checkpointing.interval': 500 }, [{ at_ms: 1000, type: 'trigger-savepoint' }]),
      [{ at_ms: 1100, operation: { type: 'rescale', vertex: 'count', parallelism: 3 } }],
      2000,
    );

  it('holds for the new parallelism read from a savepoint, and not for a checkpoint or the old parallelism', () => {
    const sim = rescaled();
    expect(sim.restores).toHaveLength(1);
    expect(sim.restores[0]!.isSavepoint).toBe(true);
    const results = check(
      sim,
      { type: 'restored-parallelism', vertex: 'count', parallelism: 3, from: 'savepoint' },
      { type: 'restored-parallelism', vertex: 'count', parallelism: 3 },
      { type: 'restored-parallelism', vertex: 'count', parallelism: 3, from: 'checkpoint' },
      { type: 'restored-parallelism', vertex: 'count', parallelism: 2 },
    );
    expect(results.map((r) => r.held)).toEqual([true, true, false, false]);
    const id = sim.restores[0]!.checkpointId;
    expect(failureLine(results[2]!)).toBe(`expected count to restore at parallelism 3 from a checkpoint, got 3 from savepoint ${id}`);
  });

  it('does not hold without a restore', () => {
    const [result] = check(run(scenario(), [], 1000), { type: 'restored-parallelism', vertex: 'count', parallelism: 2 });
    expect(result).toMatchObject({ held: false, seen: 'no restore' });
  });
});

describe('the scenario file', () => {
  const file = (expectations: unknown[]) => ({
    version: 1,
    name: 'x',
    job: {
      vertices: [
        { id: 'src', type: 'source', source: { kind: 'sequence', keys: 4, rate_per_s: 100 } },
        { id: 'count', type: 'keyed-aggregate', aggregate: 'count' },
        { id: 'out', type: 'sink', sink: 'plain' },
      ],
      edges: [
        { from: 'src', to: 'count', partitioning: 'hash' },
        { from: 'count', to: 'out' },
      ],
    },
    run: { until: '5 s' },
    expectations,
  });

  it('reads the retention and parallelism expectations', () => {
    const expectations = [
      { type: 'min-retained-checkpoints', value: 3 },
      { type: 'max-retained-checkpoints', value: 0 },
      { type: 'restored-parallelism', vertex: 'count', parallelism: 4, from: 'savepoint' },
      { type: 'restored-parallelism', vertex: 'count', parallelism: 1 },
    ];
    const valid = validateScenario(file(expectations));
    expect(valid.ok && valid.scenario.expectations).toEqual(expectations);
  });

  it.each([
    ['a vertex the job does not have', { vertex: 'cont', parallelism: 4 }, { path: 'expectations[0].vertex', message: 'no vertex has the id "cont"', suggestion: 'count' }],
    ['an unknown origin', { vertex: 'count', parallelism: 4, from: 'snapshot' }, { path: 'expectations[0].from', message: 'unknown restore origin "snapshot"', allowed: expect.stringContaining('savepoint') }],
    ['a parallelism of 0', { vertex: 'count', parallelism: 0 }, { path: 'expectations[0].parallelism' }],
  ])('refuses restored-parallelism with %s, naming the field', (_, fields, error) => {
    const valid = validateScenario(file([{ type: 'restored-parallelism', ...fields }]));
    expect(valid.ok).toBe(false);
    if (!valid.ok) expect(valid.errors[0]).toMatchObject(error);
  });
});

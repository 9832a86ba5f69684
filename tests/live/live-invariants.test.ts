/**
 * The invariant checkers attach to the live runtime as they do to the sim: a live run (in-process
 * TaskManagers, the wall clock) with a TaskManager killed after a checkpoint, judged by every
 * checker from its events and its report, against a failure-free sim run as the oracle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveDriver } from '../../workers/live/live-driver.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { runReport } from '../../engine/run/run-report.ts';
import { InvariantCheckers } from '../../engine/run/invariants/invariant-checkers.ts';
import { FencingChecker } from '../../engine/run/invariants/fencing-checker.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { inProcessTaskManagers } from './in-process-task-managers.ts';
import { until as waitUntil } from './until.ts';

function checkpointedCounts(): Scenario {
  const base = keyedCountJob({ keys: 12, rate: 3000, count: 6000, parallelism: 3 });
  return {
    ...base,
    job: { ...base.job, vertices: base.job.vertices.map((v) => (v.id === 'sink' ? { ...v, operator: { type: 'sink' as const, sink: 'two-phase-commit' as const } } : v)) },
    config: { 'execution.checkpointing.interval': 200, 'heartbeat.interval': 1000, 'heartbeat.timeout': 5000, 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': 5, 'restart-strategy.fixed-delay.delay': 100 },
    cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 },
  };
}

let driver: LiveDriver | undefined;
afterEach(() => {
  driver?.dispose();
  driver = undefined;
});

/** This file's waits: up to 10 s. */
const until = (condition: () => boolean, timeoutMs = 10_000) => waitUntil(condition, timeoutMs);

describe('invariant checkers on the live runtime', () => {
  it('find nothing wrong with a live run that restores after a TaskManager kill', async () => {
    const scenario = checkpointedCounts();
    const cluster = inProcessTaskManagers();
    const live = (driver = await LiveDriver.start(scenario, { launchTaskManager: cluster.launch, heartbeatScale: 0.1 }));
    const checkers = new InvariantCheckers(live, { liveness: { from: 0, bounded: true } });
    const detach = checkers.attach(live);
    await until(() => live.coordinator.latestCheckpoint() !== undefined);
    expect(live.killTaskManager('tm-1')).toBeUndefined();
    expect(await live.whenTerminal()).toBe('FINISHED');
    detach();
    const reference = new Simulation({ ...scenario, faults: [] });
    reference.runToEnd();
    const comparison = live.sinkOutput.compareTo(reference.sinkOutput);
    const report = runReport(live, comparison);
    const oracle = { ahead: { duplicates: comparison.duplicates }, behind: { perKey: reference.sinkOutput.perKey(), missing: comparison.missing } };
    expect(live.restores).toHaveLength(1);
    // not vacuous: the statistics checker holds the report's counts against the events it was fed
    expect(checkers.verdict({ scenario, report, oracle })).toEqual([]);
    expect(new InvariantCheckers(live).verdict({ scenario, report, oracle }).map((v) => v.invariant)).toContain('checkpoint-statistics');
  });

  it('fence off the killed attempt: the fencing checker sees its cancellation, the acknowledgements and commits the job took, and nothing from the old attempt after it', async () => {
    const scenario = checkpointedCounts();
    const cluster = inProcessTaskManagers();
    const live = (driver = await LiveDriver.start(scenario, { launchTaskManager: cluster.launch, heartbeatScale: 0.1 }));
    const checkers = new InvariantCheckers(live);
    const detach = checkers.attach(live);
    await until(() => live.coordinator.latestCheckpoint() !== undefined);
    expect(live.killTaskManager('tm-1')).toBeUndefined();
    expect(await live.whenTerminal()).toBe('FINISHED');
    detach();
    const fencing = checkers.checkers.find((c): c is FencingChecker => c instanceof FencingChecker)!;
    expect(fencing.seen['attempt-cancelled']).toBe(1);
    expect(fencing.seen.acknowledge).toBeGreaterThan(0);
    expect(fencing.seen.commit).toBeGreaterThan(0);
    expect(fencing.verdict()).toEqual([]);
    expect(live.jobMaster.isFencedOff(0)).toBe(true);
  });
});

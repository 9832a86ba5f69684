/**
 * The live runtime makes a run's operator requests (a lesson step's cancel or rescale) at their
 * job times, through the JobMaster as the sim does: in Node, with in-process TaskManagers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveDriver } from '../../workers/live/live-driver.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { inProcessTaskManagers } from './in-process-task-managers.ts';

/** source → keyed count → sink, 10 s of input, a checkpoint every 200 ms, the newest 2 kept, on 2 TaskManagers. */
function scenario(): Scenario {
  const base = keyedCountJob({ keys: 12, rate: 1000, count: 10_000 });
  return {
    ...base,
    config: {
      'execution.checkpointing.interval': 200,
      'execution.checkpointing.num-retained': 2,
      'execution.checkpointing.externalized-checkpoint-retention': 'RETAIN_ON_CANCELLATION',
    },
    cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 2 },
  };
}

let driver: LiveDriver | undefined;
afterEach(() => {
  driver?.dispose();
  driver = undefined;
});

describe('operator requests at set times in the live runtime', () => {
  it('cancels the job at the requested job time, and RETAIN_ON_CANCELLATION keeps its newest checkpoints', async () => {
    const cluster = inProcessTaskManagers();
    driver = await LiveDriver.start(scenario(), { launchTaskManager: cluster.launch, heartbeatScale: 0.1, operations: [{ at_ms: 1500, operation: { type: 'cancel' } }] });
    expect(await driver.whenTerminal()).toBe('CANCELED');
    const canceledAt = driver.events.find((e) => e.type === 'job-status' && e.status === 'CANCELED')!.time;
    // A job timer fires at its time or a little after, never before.
    expect(canceledAt).toBeGreaterThanOrEqual(1500);
    expect(canceledAt).toBeLessThan(5000);
    expect(driver.retainedCheckpoints).toHaveLength(2);
  }, 60_000);
});

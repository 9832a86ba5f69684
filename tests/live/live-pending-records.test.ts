/**
 * The live runtime reports the sources' pendingRecords with the TaskManagers' heartbeats, as the
 * sim's metrics sampler does, and samples the backlog a restore's catch-up time is read from.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveDriver } from '../../workers/live/live-driver.ts';
import { catchUpTimes } from '../../engine/run/catch-up-time.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { inProcessTaskManagers } from './in-process-task-managers.ts';
import { until as waitUntil } from './until.ts';

/** source → keyed count → sink, 2 s of input, checkpointing every 200 ms on 3 TaskManagers. */
function scenario(): Scenario {
  const base = keyedCountJob({ keys: 12, rate: 3000, count: 6000, parallelism: 3 });
  return {
    ...base,
    config: {
      'execution.checkpointing.interval': 200,
      'heartbeat.interval': 1000,
      'heartbeat.timeout': 5000,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 5,
      'restart-strategy.fixed-delay.delay': 100,
    },
    cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 },
  };
}

let driver: LiveDriver | undefined;
afterEach(() => {
  driver?.dispose();
  driver = undefined;
});

describe('pendingRecords in the live runtime', () => {
  it('comes with the heartbeats for every source subtask, summed per source vertex, and a restore catches up', async () => {
    const cluster = inProcessTaskManagers();
    driver = await LiveDriver.start(scenario(), { launchTaskManager: cluster.launch, heartbeatScale: 0.1 });
    const live = driver;
    await until(() => live.sourceBacklog.samples.length >= 2 && live.coordinator.latestCheckpoint() !== undefined);
    const metrics = live.metrics();
    const sources = metrics.subtasks.filter((s) => s.vertexId === 'source');
    expect(sources).toHaveLength(3);
    for (const s of metrics.subtasks) expect(s.pendingRecords !== undefined).toBe(s.vertexId === 'source');
    expect(metrics.vertices['source']!.pendingRecords).toBe(sources.reduce((n, s) => n + s.pendingRecords!, 0));

    expect(live.killTaskManager('tm-1')).toBeUndefined();
    expect(await live.whenTerminal()).toBe('FINISHED');
    expect(live.restores).toHaveLength(1);
    // A bounded input read to its end leaves no backlog: the restore caught up before the job finished.
    const [catchUp] = catchUpTimes(live.restores, live.events, live.sourceBacklog.samples, live.now);
    expect(catchUp!.catchUpMs).not.toBeNull();
  });
});

/** This file's waits: up to 10 s. */
const until = (condition: () => boolean, timeoutMs = 10_000) => waitUntil(condition, timeoutMs);

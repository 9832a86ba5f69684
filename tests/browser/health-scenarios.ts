/**
 * Scenarios for the cluster's health marks (the heartbeat chips, lost hosts) and for a scheduled
 * fault that cannot be carried out: keyed counts on three hosts with one TaskManager each, short
 * heartbeats (1 s, timed out after 5 s) and a restart delay long enough for a fault to fall in it.
 * Shared by the Node tests and the browser test.
 */
import { keyedCountsJob } from './scenarios.ts';

export const HEALTH_HEARTBEAT_INTERVAL_MS = 1000;
export const HEALTH_HEARTBEAT_TIMEOUT_MS = 5000;
export const HEALTH_RESTART_DELAY_MS = 1000;

export function healthScenario(name: string, faults: object[] = []): Record<string, unknown> {
  return {
    version: 1,
    name,
    seed: 7,
    job: keyedCountsJob({ keys: 16, rate: 400 }),
    config: {
      'parallelism.default': 3,
      'execution.checkpointing.interval': '1 s',
      'heartbeat.interval': `${HEALTH_HEARTBEAT_INTERVAL_MS} ms`,
      'heartbeat.timeout': `${HEALTH_HEARTBEAT_TIMEOUT_MS} ms`,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 10,
      'restart-strategy.fixed-delay.delay': `${HEALTH_RESTART_DELAY_MS} ms`,
    },
    cluster: { hosts: 3, task_managers_per_host: 1, slots_per_task_manager: 1 },
    run: { until: '10 min' },
    faults,
  };
}

/** A TaskManager killed at 3 s; the fail-task 300 ms later falls in the restart's delay and is not applied. */
export const FAIL_TASK_DURING_RESTART = healthScenario('Fail task during a restart', [
  { at: '3 s', type: 'kill-task-manager', task_manager: 'tm-1' },
  { at: '3300 ms', type: 'fail-task', vertex: 'count', subtask: 0 },
]);

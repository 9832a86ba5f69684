import { describe, expect, it } from 'vitest';
import { JobStatusTransitionChecker } from '../../../engine/run/invariants/job-status-transition-checker.ts';
import type { JobStatus } from '../../../engine/job/job-status.ts';
import { runOutcome } from '../../support/run-outcome.ts';

function verdict(statuses: Array<[number, JobStatus]>, end: string = statuses.at(-1)![1]): string[] {
  const checker = new JobStatusTransitionChecker();
  for (const [time, status] of statuses) checker.onEvent({ type: 'job-status', time, status });
  return checker.verdict(runOutcome({ status: end })).map((v) => v.message);
}

describe('the job status transition checker', () => {
  it.each<Array<[number, JobStatus]>>([
    [[0, 'RUNNING'], [5, 'RESTARTING'], [9, 'RUNNING'], [20, 'FINISHED']],
    [[0, 'RUNNING'], [5, 'RESTARTING'], [9, 'RUNNING'], [12, 'FAILING'], [12, 'FAILED']],
    [[0, 'RUNNING'], [5, 'CANCELLING'], [6, 'CANCELED']],
    [[0, 'RUNNING'], [5, 'RESTARTING'], [6, 'CANCELED']],
  ])('passes Flink\'s legal path %j', (...path) => {
    expect(verdict(path)).toEqual([]);
  });

  it.each<[Array<[number, JobStatus]>, string]>([
    [[[0, 'FINISHED']], 'illegal job status transition CREATED → FINISHED'],
    [[[0, 'RUNNING'], [5, 'FAILED']], 'illegal job status transition RUNNING → FAILED'],
    [[[0, 'RUNNING'], [5, 'FINISHED'], [6, 'RUNNING']], 'illegal job status transition FINISHED → RUNNING'],
    [[[0, 'RUNNING'], [5, 'RESTARTING'], [6, 'FINISHED']], 'illegal job status transition RESTARTING → FINISHED'],
    [[[0, 'RUNNING'], [5, 'CANCELLING'], [6, 'RUNNING']], 'illegal job status transition CANCELLING → RUNNING'],
  ])('flags %j', (path, message) => {
    expect(verdict(path)).toEqual([message]);
  });

  it('flags job time going backwards and a report that disagrees with the last event', () => {
    expect(verdict([[10, 'RUNNING'], [5, 'RESTARTING']], 'RUNNING')).toEqual([
      'job time went back from 10 to 5 at RUNNING → RESTARTING',
      'the report says RUNNING, the last job-status event RESTARTING',
    ]);
  });
});

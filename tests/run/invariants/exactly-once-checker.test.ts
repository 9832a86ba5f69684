import { describe, expect, it } from 'vitest';
import { ExactlyOnceChecker } from '../../../engine/run/invariants/exactly-once-checker.ts';
import type { JobEvent } from '../../../engine/run/job-events.ts';
import { runOutcome } from '../../support/run-outcome.ts';

const restore = (time: number, checkpointId: number, isSavepoint: boolean): JobEvent => ({ type: 'restore', time, restore: { time, checkpointId, isSavepoint, subtasks: [] } });
const completed = (time: number, checkpointId: number, isSavepoint = false): JobEvent => ({ type: 'checkpoint-completed', time, checkpointId, isSavepoint });

function verdict(events: JobEvent[], outcome: Parameters<typeof runOutcome>[0]) {
  const checker = new ExactlyOnceChecker();
  events.forEach((e) => checker.onEvent(e));
  return checker.verdict(runOutcome(outcome)).map((v) => v.message);
}

describe('the exactly-once checker', () => {
  it('passes an output equal to the failure-free one', () => {
    expect(verdict([], { oracle: { ahead: { duplicates: 0 }, behind: { perKey: {}, missing: 0 } } })).toEqual([]);
  });

  it('flags duplicates and missing records under EXACTLY_ONCE with a two-phase-commit sink', () => {
    expect(verdict([], { oracle: { ahead: { duplicates: 3 }, behind: { perKey: {}, missing: 2 } } })).toEqual([
      '3 records written more often than in the failure-free run',
      '2 records of the failure-free run missing from the sink',
    ]);
  });

  it.each([
    ['AT_LEAST_ONCE', 'two-phase-commit'],
    ['EXACTLY_ONCE', 'plain'],
  ] as const)('promises nothing under %s with a %s sink', (mode, sink) => {
    expect(verdict([], { mode, sink, oracle: { ahead: { duplicates: 3 }, behind: { perKey: {}, missing: 0 } } })).toEqual([]);
  });

  it('checks only for missing records once an operator restored a savepoint older than the latest checkpoint', () => {
    const oracle = { ahead: { duplicates: 3 }, behind: { perKey: {}, missing: 1 } };
    expect(verdict([completed(10, 1, true), completed(20, 2), restore(30, 1, true)], { oracle })).toEqual(['1 records of the failure-free run missing from the sink']);
    // the savepoint was the newest state: nothing was rewound, duplicates count
    expect(verdict([completed(10, 1), completed(20, 2, true), restore(30, 2, true)], { oracle })).toHaveLength(2);
  });

  it('leaves missing records alone when the oracle asks nothing of the output (a bounded job that did not finish)', () => {
    expect(verdict([], { oracle: { ahead: { duplicates: 0 } } })).toEqual([]);
  });
});

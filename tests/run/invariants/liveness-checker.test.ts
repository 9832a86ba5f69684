import { describe, expect, it } from 'vitest';
import { LivenessChecker } from '../../../engine/run/invariants/liveness-checker.ts';
import type { JobEvent } from '../../../engine/run/job-events.ts';
import { perKey, runOutcome } from '../../support/run-outcome.ts';

const completed = (time: number): JobEvent => ({ type: 'checkpoint-completed', time, checkpointId: 1, isSavepoint: false });

function verdict(options: { bounded: boolean; events: JobEvent[]; status: string; written?: Record<string, number>; expected?: Record<string, number> }): string[] {
  const checker = new LivenessChecker({ from: 100, bounded: options.bounded });
  options.events.forEach((e) => checker.onEvent(e));
  const oracle = { ahead: { duplicates: 0 }, behind: { perKey: perKey(options.expected ?? {}), missing: 0 } };
  return checker.verdict(runOutcome({ status: options.status, perKey: options.written ?? {}, oracle })).map((v) => v.message);
}

describe('the liveness checker', () => {
  it('passes a bounded job that finished, and an unbounded one that checkpoints and caught up after the faults', () => {
    expect(verdict({ bounded: true, events: [], status: 'FINISHED' })).toEqual([]);
    expect(verdict({ bounded: false, events: [completed(150)], status: 'RUNNING', written: { a: 5 }, expected: { a: 4 } })).toEqual([]);
  });

  it('flags a bounded job that did not finish', () => {
    expect(verdict({ bounded: true, events: [], status: 'RESTARTING' })).toEqual(['the bounded job ended RESTARTING, not FINISHED']);
  });

  it('flags an unbounded job with no checkpoint after the faults stopped, not running, and behind the failure-free run', () => {
    expect(verdict({ bounded: false, events: [completed(50)], status: 'RESTARTING', written: { a: 1 }, expected: { a: 4 } })).toEqual([
      'the unbounded job is RESTARTING, not RUNNING, after the faults stopped',
      'no checkpoint completed after the faults stopped at 100 ms',
      'the sink holds 1 records, fewer than the 4 the failure-free run had written a while before: the job did not catch up',
    ]);
  });
});

describe('the liveness checker against what the failure-free run achieved', () => {
  function verdictWith(reference: { status: string; checkpointedInLivenessPhase: boolean }, options: { bounded: boolean; events: JobEvent[]; status: string }): string[] {
    const checker = new LivenessChecker({ from: 100, bounded: options.bounded });
    options.events.forEach((e) => checker.onEvent(e));
    const oracle = { ahead: { duplicates: 0 }, behind: { perKey: {}, missing: 0 }, reference };
    return checker.verdict(runOutcome({ status: options.status, oracle })).map((v) => v.message);
  }

  it.each([
    { case: 'a bounded job that did not finish, when the failure-free run did not finish either', bounded: true, reference: { status: 'RUNNING', checkpointedInLivenessPhase: false }, events: [], status: 'RUNNING', want: [] },
    { case: 'a bounded job that did not finish, when the failure-free run did', bounded: true, reference: { status: 'FINISHED', checkpointedInLivenessPhase: true }, events: [], status: 'RUNNING', want: ['the bounded job ended RUNNING, not FINISHED'] },
    { case: 'an unbounded job with no checkpoint after the faults, when the failure-free run had none either', bounded: false, reference: { status: 'RESTARTING', checkpointedInLivenessPhase: false }, events: [], status: 'RESTARTING', want: [] },
    {
      case: 'an unbounded job with no checkpoint after the faults, when the failure-free run had one',
      bounded: false,
      reference: { status: 'RUNNING', checkpointedInLivenessPhase: true },
      events: [completed(50)],
      status: 'RESTARTING',
      want: ['the unbounded job is RESTARTING, not RUNNING, after the faults stopped', 'no checkpoint completed after the faults stopped at 100 ms'],
    },
  ])('judges $case', ({ bounded, reference, events, status, want }) => {
    expect(verdictWith(reference, { bounded, events, status })).toEqual(want);
  });
});

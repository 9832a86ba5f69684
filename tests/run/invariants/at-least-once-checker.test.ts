import { describe, expect, it } from 'vitest';
import { AtLeastOnceChecker } from '../../../engine/run/invariants/at-least-once-checker.ts';
import { perKey, runOutcome } from '../../support/run-outcome.ts';

function verdict(actual: Record<string, number>, expected: Record<string, number> | undefined) {
  const oracle = { ahead: { duplicates: 0 }, ...(expected ? { behind: { perKey: perKey(expected), missing: 0 } } : {}) };
  return new AtLeastOnceChecker().verdict(runOutcome({ mode: 'AT_LEAST_ONCE', sink: 'plain', perKey: actual, oracle })).map((v) => v.message);
}

describe('the at-least-once checker', () => {
  it('passes an output with every key at least as often as the failure-free one, duplicates included', () => {
    expect(verdict({ a: 3, b: 5 }, { a: 3, b: 2 })).toEqual([]);
  });

  it('flags a key with fewer records, and a key missing altogether', () => {
    expect(verdict({ a: 2 }, { a: 3, b: 1 })).toEqual(['2 keys have fewer records than the failure-free run (a: 2 of 3, b: 0 of 1)']);
  });

  it('asks nothing when the oracle has no output to hold the run to', () => {
    expect(verdict({}, undefined)).toEqual([]);
  });
});

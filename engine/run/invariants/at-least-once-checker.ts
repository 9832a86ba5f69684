/**
 * At-least-once loses nothing: whatever the mode and the sink, every key has at least as many
 * records in the sink as the failure-free run wrote for it (by `behind`). Per key counts rather
 * than values: under AT_LEAST_ONCE a record replayed into state changes later aggregates' values,
 * but never the number of outputs.
 */
import type { JobEvent } from '../job-events.ts';
import type { InvariantChecker, InvariantViolation, RunOutcome } from './invariant-checker.ts';

export class AtLeastOnceChecker implements InvariantChecker {
  readonly invariant = 'at-least-once';

  onEvent(_event: JobEvent): void {}

  verdict({ report, oracle }: RunOutcome): InvariantViolation[] {
    if (!oracle.behind) return [];
    const actual = report.output.perKey;
    const short = Object.entries(oracle.behind.perKey).filter(([key, expected]) => (actual[key]?.records ?? 0) < expected.records);
    if (short.length === 0) return [];
    const examples = short.slice(0, 3).map(([key, e]) => `${key}: ${actual[key]?.records ?? 0} of ${e.records}`);
    return [{ invariant: this.invariant, time: null, message: `${short.length} keys have fewer records than the failure-free run (${examples.join(', ')})` }];
  }
}

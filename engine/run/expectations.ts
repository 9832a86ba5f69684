import type { ExpectationSpec } from '../scenario/scenario-types.ts';

/** What the expectations are checked against. */
export interface ExpectationInputs {
  jobStatus: string;
  sinkRecords: number;
  duplicates: number;
  missing: number;
  completedCheckpoints: number;
  failedCheckpoints: number;
  restores: number;
}

export interface ExpectationResult {
  expectation: ExpectationSpec;
  held: boolean;
  /** what was seen, in words, e.g. "job status was FINISHED" */
  actual: string;
}

/** Checks each expectation of a scenario; the CLI exits 1 when one does not hold. */
export function checkExpectations(expectations: readonly ExpectationSpec[], seen: ExpectationInputs): ExpectationResult[] {
  return expectations.map((e) => {
    switch (e.type) {
      case 'job-status':
        return { expectation: e, held: seen.jobStatus === e.status, actual: `job status was ${seen.jobStatus}` };
      case 'exactly-once':
        return {
          expectation: e,
          held: seen.duplicates === 0 && seen.missing === 0,
          actual: `${seen.duplicates} duplicate and ${seen.missing} missing records against the failure-free run`,
        };
      case 'min-sink-records':
        return { expectation: e, held: seen.sinkRecords >= e.value, actual: `${seen.sinkRecords} records reached the sink` };
      case 'min-completed-checkpoints':
        return { expectation: e, held: seen.completedCheckpoints >= e.value, actual: `${seen.completedCheckpoints} checkpoints completed` };
      case 'max-failed-checkpoints':
        return { expectation: e, held: seen.failedCheckpoints <= e.value, actual: `${seen.failedCheckpoints} checkpoints failed` };
      case 'min-duplicates':
        return { expectation: e, held: seen.duplicates >= e.value, actual: `${seen.duplicates} duplicates against the failure-free run` };
      case 'min-restores':
        return { expectation: e, held: seen.restores >= e.value, actual: `${seen.restores} restores` };
    }
  });
}

export function describeExpectation(e: ExpectationSpec): string {
  switch (e.type) {
    case 'job-status':
      return `job status is ${e.status}`;
    case 'exactly-once':
      return 'sink output equals the failure-free output';
    case 'min-sink-records':
      return `at least ${e.value} records reach the sink`;
    case 'min-completed-checkpoints':
      return `at least ${e.value} checkpoints complete`;
    case 'max-failed-checkpoints':
      return `at most ${e.value} checkpoints fail`;
    case 'min-duplicates':
      return `at least ${e.value} duplicates show (at-least-once)`;
    case 'min-restores':
      return `at least ${e.value} restores happen`;
  }
}

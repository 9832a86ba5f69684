/**
 * Reads the expectations a run is checked against (the CLI exits 1 when one fails).
 */

import { type Issues, type ListItem, ObjectReader } from './field-reader.ts';
import type { ExpectationSpec } from './scenario-types.ts';
import { EXPECTATION_FIELDS, EXPECTATION_TYPES, JOB_STATUSES } from './scenario-vocabulary.ts';

export function readExpectations(issues: Issues, items: ListItem[]): ExpectationSpec[] | undefined {
  const expectations = items.map((item) => readExpectation(issues, item));
  return expectations.every((e) => e !== undefined) ? (expectations as ExpectationSpec[]) : undefined;
}

function readExpectation(issues: Issues, item: ListItem): ExpectationSpec | undefined {
  const expectation = ObjectReader.of(issues, item.path, item.value, 'an expectation');
  if (!expectation) return undefined;
  const type = expectation.oneOf('type', EXPECTATION_TYPES, { required: true, what: 'expectation type' });
  const known = type === undefined ? [...new Set(Object.values(EXPECTATION_FIELDS).flat())] : EXPECTATION_FIELDS[type];
  expectation.rejectUnknown(known);
  switch (type) {
    case undefined:
      return undefined;
    case 'exactly-once':
      return { type };
    case 'job-status': {
      const status = readJobStatus(expectation);
      return status === undefined ? undefined : { type, status };
    }
    case 'min-sink-records':
    case 'min-completed-checkpoints':
    case 'max-failed-checkpoints':
    case 'min-duplicates':
    case 'min-restores': {
      const value = expectation.integer('value', { required: true, min: 0 });
      return value === undefined ? undefined : { type, value };
    }
  }
}

/** Flink's JobStatus names; matched case-insensitively like Flink's enum options, stored upper-case. */
function readJobStatus(expectation: ObjectReader): string | undefined {
  const raw = expectation.raw('status');
  const upper = typeof raw === 'string' ? raw.toUpperCase() : undefined;
  if (upper !== undefined && (JOB_STATUSES as readonly string[]).includes(upper)) return upper;
  return expectation.oneOf('status', JOB_STATUSES, { required: true, what: 'job status' });
}

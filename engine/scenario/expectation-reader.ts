/**
 * Reads the expectations a run is checked against (the CLI exits 1 when one fails).
 */

import { type ListItem, ObjectReader } from './field-reader.ts';
import { type FaultContext, readSubtask } from './fault-reader.ts';
import { CHECKPOINT_FAILURE_REASON_NAMES } from '../checkpoint/checkpoint-failure-reason.ts';
import type { CheckpointStatistic, ExpectationSpec } from './scenario-types.ts';
import { LOCAL_RECOVERY_FALLBACK_REASONS } from '../recovery/local-recovery.ts';
import { CHECKPOINT_STATISTICS, EXPECTATION_FIELDS, EXPECTATION_TYPES, JOB_STATUSES, RESTORE_SOURCES, RESTORED_FROM, ROCKSDB_METRICS, STATISTIC_AGGREGATES } from './scenario-vocabulary.ts';
import { didYouMean } from './did-you-mean.ts';
import { quote } from '../config/value-description.ts';
import { message } from '../messages/engine-message.ts';

/** `context` is the job the expectations name vertices and subtasks of (as faults do). */
export function readExpectations(context: FaultContext, items: ListItem[]): ExpectationSpec[] | undefined {
  const expectations = items.map((item) => readExpectation(context, item));
  return expectations.every((e) => e !== undefined) ? (expectations as ExpectationSpec[]) : undefined;
}

function readExpectation(context: FaultContext, item: ListItem): ExpectationSpec | undefined {
  const expectation = ObjectReader.of(context.issues, item.path, item.value, 'an expectation');
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
    case 'min-restores':
    case 'min-retained-checkpoints':
    case 'max-retained-checkpoints': {
      const value = expectation.integer('value', { required: true, min: 0 });
      return value === undefined ? undefined : { type, value };
    }
    case 'min-failed-checkpoints': {
      const value = expectation.integer('value', { required: true, min: 0 });
      const reason = expectation.oneOf('reason', CHECKPOINT_FAILURE_REASON_NAMES, { what: 'checkpoint failure reason' });
      if (value === undefined || (expectation.has('reason') && reason === undefined)) return undefined;
      return reason === undefined ? { type, value } : { type, value, reason };
    }
    case 'min-restored-subtasks': {
      const value = expectation.integer('value', { required: true, min: 0 });
      const source = expectation.oneOf('source', RESTORE_SOURCES, { required: true, what: 'restore source' });
      const reason = expectation.oneOf('reason', LOCAL_RECOVERY_FALLBACK_REASONS, { what: 'local recovery fallback reason' });
      if (value === undefined || source === undefined || (expectation.has('reason') && reason === undefined)) return undefined;
      return reason === undefined ? { type, value, source } : { type, value, source, reason };
    }
    case 'restore-source':
      return readRestoreSource(context, expectation);
    case 'mixed-restore':
      return readMixedRestore(context, expectation);
    case 'statistic':
      return readStatistic(expectation);
    case 'catch-up-time':
      return readCatchUpTime(expectation);
    case 'restored-parallelism':
      return readRestoredParallelism(context, expectation);
    case 'rocksdb-metric':
      return readRocksDbMetric(context, expectation);
  }
}

/** `restore-source`: a subtask of the job (checked as a fault's is), where it restored from, and optionally why and in which restore. */
function readRestoreSource(context: FaultContext, expectation: ObjectReader): ExpectationSpec | undefined {
  const target = readSubtask(context, expectation);
  const source = expectation.oneOf('source', RESTORE_SOURCES, { required: true, what: 'restore source' });
  const reason = expectation.oneOf('reason', LOCAL_RECOVERY_FALLBACK_REASONS, { what: 'local recovery fallback reason' });
  const restore = expectation.integer('restore', { min: 1 });
  if (target === undefined || source === undefined) return undefined;
  if ((expectation.has('reason') && reason === undefined) || (expectation.has('restore') && restore === undefined)) return undefined;
  return {
    type: 'restore-source',
    vertex: String(target.vertex),
    subtask: Number(target.subtask),
    source,
    ...(reason === undefined ? {} : { reason }),
    ...(restore === undefined ? {} : { restore }),
  };
}

/** `mixed-restore`: a subtask of the job, and optionally in which restore it mixed local and remote handles. */
function readMixedRestore(context: FaultContext, expectation: ObjectReader): ExpectationSpec | undefined {
  const target = readSubtask(context, expectation);
  const restore = expectation.integer('restore', { min: 1 });
  if (target === undefined || (expectation.has('restore') && restore === undefined)) return undefined;
  return { type: 'mixed-restore', vertex: String(target.vertex), subtask: Number(target.subtask), ...(restore === undefined ? {} : { restore }) };
}

/** `restored-parallelism`: a vertex of the job, the parallelism it came back with, and optionally what it restored from. */
function readRestoredParallelism(context: FaultContext, expectation: ObjectReader): ExpectationSpec | undefined {
  const vertex = readVertexId(context, expectation, true);
  const parallelism = expectation.integer('parallelism', { required: true, min: 1 });
  const from = expectation.oneOf('from', RESTORED_FROM, { what: 'restore origin' });
  if (vertex === null) return undefined;
  if (vertex === undefined || parallelism === undefined || (expectation.has('from') && from === undefined)) return undefined;
  return { type: 'restored-parallelism', vertex, parallelism, ...(from === undefined ? {} : { from }) };
}

/** `rocksdb-metric: lsm.flush.count, vertex: count, min: 10`: a counter, optionally of one vertex, with `min`, `max` or both (counts, or bytes). */
function readRocksDbMetric(context: FaultContext, expectation: ObjectReader): ExpectationSpec | undefined {
  const metric = expectation.oneOf('metric', ROCKSDB_METRICS, { required: true, what: 'RocksDB metric' });
  const vertex = readVertexId(context, expectation, false);
  if (!expectation.has('min') && !expectation.has('max')) {
    expectation.issues.error(expectation.pathOf('max'), message('expectation.needs-bound', { kind: 'rocksdb-metric' }), { allowed: message('phrase', { text: 'min, max' }) });
    return undefined;
  }
  const min = expectation.integer('min', { min: 0 });
  const max = expectation.integer('max', { min: 0 });
  if (metric === undefined || vertex === null) return undefined;
  if ((expectation.has('vertex') && vertex === undefined) || (expectation.has('min') && min === undefined) || (expectation.has('max') && max === undefined)) return undefined;
  return { type: 'rocksdb-metric', metric, ...(vertex === undefined ? {} : { vertex }), ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

/** The expectation's `vertex`, which must name a vertex of the job: undefined when absent (or not a string), null when it names none. */
function readVertexId(context: FaultContext, expectation: ObjectReader, required: boolean): string | undefined | null {
  const ids = context.vertices.flatMap((v) => (v.id === undefined ? [] : [v.id]));
  const vertex = expectation.string('vertex', { required, allowed: message('phrase', { text: 'the id of a vertex' }) });
  if (vertex === undefined || ids.includes(vertex)) return vertex;
  const suggestion = didYouMean(vertex, ids);
  expectation.issues.error(expectation.pathOf('vertex'), message('graph.unknown-vertex', { id: quote(vertex) }), { allowed: message('names', { names: ids }), ...(suggestion === undefined ? {} : { suggestion }) });
  return null;
}

/** `catch-up-time` with `min`, `max` or both, durations in Flink syntax (`20 s`). */
function readCatchUpTime(expectation: ObjectReader): ExpectationSpec | undefined {
  if (!expectation.has('min') && !expectation.has('max')) {
    expectation.issues.error(expectation.pathOf('max'), message('expectation.needs-bound', { kind: 'catch-up-time' }), { allowed: message('phrase', { text: 'min, max' }) });
    return undefined;
  }
  const min = expectation.duration('min', { min: 0 });
  const max = expectation.duration('max', { min: 0 });
  if ((expectation.has('min') && min === undefined) || (expectation.has('max') && max === undefined)) return undefined;
  return { type: 'catch-up-time', ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

/** `statistic: checkpoint-pause, aggregate: p50, max: 10 ms`: durations in Flink syntax, bytes for persisted-data and checkpointed-size, a number for checkpointed-fraction, a count for concurrent-checkpoints. */
function readStatistic(expectation: ObjectReader): ExpectationSpec | undefined {
  const statistic = expectation.oneOf('statistic', CHECKPOINT_STATISTICS, { required: true, what: 'checkpoint statistic' });
  const aggregate = expectation.oneOf('aggregate', STATISTIC_AGGREGATES, { required: true, what: 'statistic aggregate' });
  if (!expectation.has('min') && !expectation.has('max')) {
    expectation.issues.error(expectation.pathOf('max'), message('expectation.needs-bound', { kind: 'statistic' }), { allowed: message('phrase', { text: 'min, max' }) });
    return undefined;
  }
  const bound = (key: 'min' | 'max') => (statistic === undefined ? undefined : readBound(expectation, key, statistic));
  const min = bound('min');
  const max = bound('max');
  if (statistic === undefined || aggregate === undefined) return undefined;
  if ((expectation.has('min') && min === undefined) || (expectation.has('max') && max === undefined)) return undefined;
  return { type: 'statistic', statistic, aggregate, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

function readBound(expectation: ObjectReader, key: 'min' | 'max', statistic: CheckpointStatistic): number | undefined {
  switch (statistic) {
    case 'concurrent-checkpoints':
    case 'persisted-data':
    case 'checkpointed-size':
      return expectation.integer(key, { min: 0 });
    case 'checkpointed-fraction':
      return expectation.number(key, { min: 0 });
    default:
      return expectation.duration(key, { min: 0 });
  }
}

/** Flink's JobStatus names; matched case-insensitively like Flink's enum options, stored upper-case. */
function readJobStatus(expectation: ObjectReader): string | undefined {
  const raw = expectation.raw('status');
  const upper = typeof raw === 'string' ? raw.toUpperCase() : undefined;
  if (upper !== undefined && (JOB_STATUSES as readonly string[]).includes(upper)) return upper;
  return expectation.oneOf('status', JOB_STATUSES, { required: true, what: 'job status' });
}

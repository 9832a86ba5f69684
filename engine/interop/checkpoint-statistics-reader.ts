/**
 * One checkpoint as Flink's CheckpointStatistics (a history entry, a `latest` entry, or the body of
 * GET …/checkpoints/details/:checkpointid), and its per-vertex TaskCheckpointStatistics, read from
 * any release from 1.9 on and written in the current shape (the playground's own document types).
 *
 * Filling in what older releases did not write:
 * - `checkpointed_size` (1.15): before it, `state_size` was the only size and meant the bytes the
 *   checkpoint persisted (FLINK-13390: "the accurate name of this field should be
 *   checkpointed_data_size"), so both become that figure;
 * - `processed_data` / `persisted_data` (1.12): not measured before, so 0;
 * - `checkpoint_type` (1.12): SAVEPOINT for a savepoint, else CHECKPOINT (unaligned checkpoints
 *   came in 1.11 without a type to show them);
 * - `savepointFormat` (1.17): null, as Flink writes it for a checkpoint or an unknown format.
 */
import type {
  CheckpointStatisticsDocument,
  CompletedCheckpointStatisticsDocument,
  FailedCheckpointStatisticsDocument,
  TaskCheckpointStatisticsDocument,
} from '../checkpoint/stats/rest-document-types.ts';
import type { CheckpointStatsStatus, SavepointFormat } from '../checkpoint/stats/checkpoint-stats-types.ts';
import type { RestCheckpointType } from '../checkpoint/stats/checkpoint-stats.ts';
import { readClassName } from './class-name-reader.ts';
import type { JsonObjectReader } from './json-object-reader.ts';

export const CHECKPOINT_STATUSES: readonly CheckpointStatsStatus[] = ['IN_PROGRESS', 'COMPLETED', 'FAILED'];
const CHECKPOINT_CLASS_NAMES = ['completed', 'failed', 'in_progress'] as const;
const CHECKPOINT_TYPES: readonly RestCheckpointType[] = ['CHECKPOINT', 'UNALIGNED_CHECKPOINT', 'SAVEPOINT', 'SYNC_SAVEPOINT'];
const SAVEPOINT_FORMATS: readonly SavepointFormat[] = ['CANONICAL', 'NATIVE'];

type CheckpointClassName = (typeof CHECKPOINT_CLASS_NAMES)[number];

const STATUS_OF_CLASS: { readonly [C in CheckpointClassName]: CheckpointStatsStatus } = {
  completed: 'COMPLETED',
  failed: 'FAILED',
  in_progress: 'IN_PROGRESS',
};

/** A checkpoint entry of any subtype; `tasks` as written (empty in the overview). */
export function readCheckpointStatistics(entry: JsonObjectReader): CheckpointStatisticsDocument {
  const status = entry.oneOf('status', CHECKPOINT_STATUSES, 'not-a-checkpoint-status');
  const className = readClassName(entry, CHECKPOINT_CLASS_NAMES, classOfStatus(status));
  if (className !== undefined && status !== undefined && STATUS_OF_CLASS[className] !== status) {
    entry.reading.report({ code: 'status-does-not-match-class', path: entry.pathOf('status'), params: { status, className } });
  }
  const fields = sharedFields(entry, status ?? 'IN_PROGRESS');
  if (className === 'completed') return { className, ...fields, ...completedFields(entry) };
  if (className === 'failed') return { className, ...fields, ...failedFields(entry) };
  return { className: 'in_progress', ...fields };
}

/** `latest.completed` / `latest.savepoint`: a completed entry (a failed one there is reported). */
export function readCompletedCheckpointStatistics(entry: JsonObjectReader): CompletedCheckpointStatisticsDocument {
  return expectClass(entry, readCheckpointStatistics(entry), 'completed') as CompletedCheckpointStatisticsDocument;
}

export function readFailedCheckpointStatistics(entry: JsonObjectReader): FailedCheckpointStatisticsDocument {
  return expectClass(entry, readCheckpointStatistics(entry), 'failed') as FailedCheckpointStatisticsDocument;
}

function expectClass(entry: JsonObjectReader, read: CheckpointStatisticsDocument, className: CheckpointClassName): CheckpointStatisticsDocument {
  // Only a valid subtype of the wrong kind is reported here; an invalid one was reported already.
  const key = entry.has('className') || !entry.has('@class') ? 'className' : '@class';
  const named = entry.value[key];
  const valid = (CHECKPOINT_CLASS_NAMES as readonly unknown[]).includes(named) || named === undefined;
  if (valid && read.className !== className) {
    entry.reading.report({ code: 'not-a-class-name', path: entry.pathOf(key), params: { value: read.className, allowed: className } });
  }
  return read;
}

function classOfStatus(status: CheckpointStatsStatus | undefined): CheckpointClassName | undefined {
  return CHECKPOINT_CLASS_NAMES.find((c) => STATUS_OF_CLASS[c] === status);
}

function sharedFields(entry: JsonObjectReader, status: CheckpointStatsStatus) {
  const isSavepoint = entry.boolean('is_savepoint');
  const stateSize = entry.integer('state_size');
  return {
    id: entry.integer('id'),
    status,
    is_savepoint: isSavepoint,
    savepointFormat: readSavepointFormat(entry),
    trigger_timestamp: entry.integer('trigger_timestamp'),
    latest_ack_timestamp: entry.integer('latest_ack_timestamp'),
    checkpointed_size: entry.integerSince('checkpointed_size', 'checkpointed_size', stateSize),
    state_size: stateSize,
    end_to_end_duration: entry.integer('end_to_end_duration'),
    alignment_buffered: entry.integer('alignment_buffered'),
    processed_data: entry.integerSince('processed_data', 'processed_data', 0),
    persisted_data: entry.integerSince('persisted_data', 'processed_data', 0),
    num_subtasks: entry.integer('num_subtasks'),
    num_acknowledged_subtasks: entry.integer('num_acknowledged_subtasks'),
    checkpoint_type: readCheckpointType(entry, isSavepoint),
    tasks: readTasks(entry),
  };
}

function readSavepointFormat(entry: JsonObjectReader): SavepointFormat | null {
  entry.reading.observe('savepointFormat', entry.has('savepointFormat'));
  if (!entry.has('savepointFormat') || entry.value['savepointFormat'] === null) return null;
  return entry.oneOf('savepointFormat', SAVEPOINT_FORMATS, 'not-an-allowed-value') ?? null;
}

function readCheckpointType(entry: JsonObjectReader, isSavepoint: boolean): RestCheckpointType {
  entry.reading.observe('checkpoint_type', entry.has('checkpoint_type'));
  if (!entry.has('checkpoint_type')) return isSavepoint ? 'SAVEPOINT' : 'CHECKPOINT';
  return entry.oneOf('checkpoint_type', CHECKPOINT_TYPES, 'not-an-allowed-value') ?? 'CHECKPOINT';
}

function completedFields(entry: JsonObjectReader) {
  return { external_path: entry.nullableString('external_path'), discarded: entry.boolean('discarded') };
}

function failedFields(entry: JsonObjectReader) {
  return { failure_timestamp: entry.integer('failure_timestamp'), failure_message: entry.nullableString('failure_message') };
}

function readTasks(entry: JsonObjectReader): Record<string, TaskCheckpointStatisticsDocument> {
  const tasks: Record<string, TaskCheckpointStatisticsDocument> = {};
  for (const [vertexId, task] of entry.entries('tasks')) tasks[vertexId] = readTaskCheckpointStatistics(task);
  return tasks;
}

/** TaskCheckpointStatistics: one vertex's figures within one checkpoint. */
export function readTaskCheckpointStatistics(task: JsonObjectReader): TaskCheckpointStatisticsDocument {
  const stateSize = task.integer('state_size');
  return {
    id: task.integer('id'),
    status: task.oneOf('status', CHECKPOINT_STATUSES, 'not-a-checkpoint-status') ?? 'IN_PROGRESS',
    latest_ack_timestamp: task.integer('latest_ack_timestamp'),
    checkpointed_size: task.integerSince('checkpointed_size', 'checkpointed_size', stateSize),
    state_size: stateSize,
    end_to_end_duration: task.integer('end_to_end_duration'),
    alignment_buffered: task.integer('alignment_buffered'),
    processed_data: task.integerSince('processed_data', 'processed_data', 0),
    persisted_data: task.integerSince('persisted_data', 'processed_data', 0),
    num_subtasks: task.integer('num_subtasks'),
    num_acknowledged_subtasks: task.integer('num_acknowledged_subtasks'),
  };
}

/**
 * GET …/checkpoints/details/:checkpointid/subtasks/:vertexid
 * (TaskCheckpointStatisticsWithSubtaskDetails): one vertex's figures, a summary over its subtasks,
 * and one entry per subtask index, completed or pending.
 *
 * Filling in as checkpoint-statistics-reader.ts does (`checkpointed_size` from `state_size` before
 * 1.15, in-flight data 0 before 1.12); a subtask's `unaligned_checkpoint` and `aborted`, which
 * older releases did not write, are false: the release could not checkpoint unaligned, or reported
 * no aborted subtasks.
 */
import type {
  CompletedSubtaskCheckpointStatisticsDocument,
  PendingSubtaskCheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../checkpoint/stats/rest-document-types.ts';
import { readTaskCheckpointStatistics } from './checkpoint-statistics-reader.ts';
import { readClassName } from './class-name-reader.ts';
import { JsonObjectReader } from './json-object-reader.ts';
import { readStatsSummary, readStatsSummarySince, unmeasuredStatsSummary } from './stats-summary-reader.ts';

type SubtaskDocument = CompletedSubtaskCheckpointStatisticsDocument | PendingSubtaskCheckpointStatisticsDocument;

const SUBTASK_CLASS_NAMES = ['completed', 'pending'] as const;
const SUBTASK_STATUSES = ['completed', 'pending_or_failed'] as const;

/** SubtaskCheckpointStatistics: a pending subtask's status string covers failed ones too. */
const STATUS_OF_CLASS = { completed: 'completed', pending: 'pending_or_failed' } as const;

export function readTaskCheckpointStatisticsWithSubtaskDetails(document: JsonObjectReader): TaskCheckpointStatisticsWithSubtaskDetailsDocument {
  return {
    ...readTaskCheckpointStatistics(document),
    summary: readSummary(document.object('summary')),
    subtasks: document.readItems('subtasks', readSubtask),
  };
}

function readSummary(summary: JsonObjectReader | undefined): TaskCheckpointStatisticsWithSubtaskDetailsDocument['summary'] {
  const stateSize = readStatsSummary(summary?.object('state_size'));
  const duration = summary?.object('checkpoint_duration');
  const alignment = summary?.object('alignment');
  return {
    checkpointed_size: summary ? readStatsSummarySince(summary, 'checkpointed_size', 'checkpointed_size', () => stateSize) : stateSize,
    state_size: stateSize,
    end_to_end_duration: readStatsSummary(summary?.object('end_to_end_duration')),
    checkpoint_duration: { sync: readStatsSummary(duration?.object('sync')), async: readStatsSummary(duration?.object('async')) },
    alignment: {
      buffered: readStatsSummary(alignment?.object('buffered')),
      processed: alignment ? readStatsSummarySince(alignment, 'processed', 'processed_data', unmeasuredStatsSummary) : unmeasuredStatsSummary(),
      persisted: alignment ? readStatsSummarySince(alignment, 'persisted', 'processed_data', unmeasuredStatsSummary) : unmeasuredStatsSummary(),
      duration: readStatsSummary(alignment?.object('duration')),
    },
    start_delay: readStatsSummary(summary?.object('start_delay')),
  };
}

function readSubtask(subtask: JsonObjectReader): SubtaskDocument {
  const status = subtask.oneOf('status', SUBTASK_STATUSES, 'not-an-allowed-value');
  const className = readClassName(subtask, SUBTASK_CLASS_NAMES, status === 'completed' ? 'completed' : status && 'pending');
  const index = subtask.integer('index');
  if (className !== undefined && status !== undefined && STATUS_OF_CLASS[className] !== status) {
    subtask.reading.report({ code: 'status-does-not-match-class', path: subtask.pathOf('status'), params: { status, className } });
  }
  if (className === 'pending' || status === 'pending_or_failed') return { className: 'pending', index, status: 'pending_or_failed' };
  return readCompletedSubtask(subtask, index);
}

function readCompletedSubtask(subtask: JsonObjectReader, index: number): CompletedSubtaskCheckpointStatisticsDocument {
  const stateSize = subtask.integer('state_size');
  const checkpoint = subtask.object('checkpoint');
  const alignment = subtask.object('alignment');
  return {
    className: 'completed',
    index,
    status: 'completed',
    ack_timestamp: subtask.integer('ack_timestamp'),
    end_to_end_duration: subtask.integer('end_to_end_duration'),
    checkpointed_size: subtask.integerSince('checkpointed_size', 'checkpointed_size', stateSize),
    state_size: stateSize,
    checkpoint: { sync: checkpoint?.integer('sync') ?? 0, async: checkpoint?.integer('async') ?? 0 },
    alignment: {
      buffered: alignment?.integer('buffered') ?? 0,
      processed: alignment?.integerSince('processed', 'processed_data', 0) ?? 0,
      persisted: alignment?.integerSince('persisted', 'processed_data', 0) ?? 0,
      duration: alignment?.integer('duration') ?? 0,
    },
    start_delay: subtask.integer('start_delay'),
    unaligned_checkpoint: subtask.optionalBoolean('unaligned_checkpoint', false),
    aborted: subtask.optionalBoolean('aborted', false),
  };
}

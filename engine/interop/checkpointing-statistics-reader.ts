/**
 * GET /jobs/:jobid/checkpoints (CheckpointingStatistics): counts, summary, latest, history.
 *
 * The counts are taken as Flink wrote them, never checked against the history: the history holds
 * only the last `web.checkpoints.history` entries, and failures before a checkpoint was created
 * are counted without an entry. A `latest` entry Flink had nothing for is null.
 */
import type {
  CheckpointingStatisticsDocument,
  RestoredCheckpointStatisticsDocument,
} from '../checkpoint/stats/rest-document-types.ts';
import {
  readCheckpointStatistics,
  readCompletedCheckpointStatistics,
  readFailedCheckpointStatistics,
} from './checkpoint-statistics-reader.ts';
import { JsonObjectReader } from './json-object-reader.ts';
import { readStatsSummary, readStatsSummarySince, unmeasuredStatsSummary } from './stats-summary-reader.ts';

export function readCheckpointingStatistics(document: JsonObjectReader): CheckpointingStatisticsDocument {
  return {
    counts: readCounts(document.object('counts')),
    summary: readSummary(document.object('summary')),
    latest: readLatest(document.nullableObject('latest')),
    history: document.readItems('history', readCheckpointStatistics),
  };
}

function readCounts(counts: JsonObjectReader | undefined): CheckpointingStatisticsDocument['counts'] {
  const read = (key: string) => counts?.integer(key) ?? 0;
  return { restored: read('restored'), total: read('total'), in_progress: read('in_progress'), completed: read('completed'), failed: read('failed') };
}

function readSummary(summary: JsonObjectReader | undefined): CheckpointingStatisticsDocument['summary'] {
  if (summary === undefined) {
    const none = unmeasuredStatsSummary();
    return { checkpointed_size: none, state_size: none, end_to_end_duration: none, alignment_buffered: none, processed_data: none, persisted_data: none };
  }
  const stateSize = readStatsSummary(summary.object('state_size'));
  return {
    // before 1.15 state_size was the checkpointed size (see checkpoint-statistics-reader.ts)
    checkpointed_size: readStatsSummarySince(summary, 'checkpointed_size', 'checkpointed_size', () => stateSize),
    state_size: stateSize,
    end_to_end_duration: readStatsSummary(summary.object('end_to_end_duration')),
    alignment_buffered: readStatsSummary(summary.object('alignment_buffered')),
    processed_data: readStatsSummarySince(summary, 'processed_data', 'processed_data', unmeasuredStatsSummary),
    persisted_data: readStatsSummarySince(summary, 'persisted_data', 'processed_data', unmeasuredStatsSummary),
  };
}

function readLatest(latest: JsonObjectReader | null): CheckpointingStatisticsDocument['latest'] {
  const completed = latest?.nullableObject('completed') ?? null;
  const savepoint = latest?.nullableObject('savepoint') ?? null;
  const failed = latest?.nullableObject('failed') ?? null;
  const restored = latest?.nullableObject('restored') ?? null;
  return {
    completed: completed && readCompletedCheckpointStatistics(completed),
    savepoint: savepoint && readCompletedCheckpointStatistics(savepoint),
    failed: failed && readFailedCheckpointStatistics(failed),
    restored: restored && readRestored(restored),
  };
}

function readRestored(restored: JsonObjectReader): RestoredCheckpointStatisticsDocument {
  return {
    id: restored.integer('id'),
    restore_timestamp: restored.integer('restore_timestamp'),
    is_savepoint: restored.boolean('is_savepoint'),
    external_path: restored.nullableString('external_path'),
  };
}

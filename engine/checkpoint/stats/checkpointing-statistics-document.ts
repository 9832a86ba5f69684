import type { CheckpointStatsCounts } from './checkpoint-stats-counts.ts';
import type { CheckpointStatsHistory } from './checkpoint-stats-history.ts';
import type { RestoredCheckpointStats } from './checkpoint-stats-types.ts';
import {
  checkpointStatisticsDocument,
  completedCheckpointStatisticsDocument,
  failedCheckpointStatisticsDocument,
} from './checkpoint-statistics-document.ts';
import type { CompletedCheckpointStatsSummary } from './completed-checkpoint-stats-summary.ts';
import type { CheckpointingStatisticsDocument, RestoredCheckpointStatisticsDocument } from './rest-document-types.ts';
import { statsSummaryDocument, zeroStatsSummaryDocument } from './stats-summary-document.ts';

export interface CheckpointingStatisticsSources {
  counts: CheckpointStatsCounts;
  summary: CompletedCheckpointStatsSummary;
  history: CheckpointStatsHistory;
  restored: RestoredCheckpointStats | undefined;
}

/** CheckpointingStatisticsHandler: GET /jobs/:jobid/checkpoints. Entries carry no tasks here. */
export function checkpointingStatisticsDocument(sources: CheckpointingStatisticsSources): CheckpointingStatisticsDocument {
  return {
    counts: countsDocument(sources.counts),
    summary: summaryDocument(sources.summary),
    latest: latestDocument(sources.history, sources.restored),
    history: sources.history.newestFirst().map((checkpoint) => checkpointStatisticsDocument(checkpoint, false)),
  };
}

function countsDocument(counts: CheckpointStatsCounts): CheckpointingStatisticsDocument['counts'] {
  return {
    restored: counts.restored,
    total: counts.total,
    in_progress: counts.inProgress,
    completed: counts.completed,
    failed: counts.failed,
  };
}

function summaryDocument(summary: CompletedCheckpointStatsSummary): CheckpointingStatisticsDocument['summary'] {
  return {
    checkpointed_size: statsSummaryDocument(summary.checkpointedSize.snapshot()),
    state_size: statsSummaryDocument(summary.stateSize.snapshot()),
    end_to_end_duration: statsSummaryDocument(summary.endToEndDuration.snapshot()),
    alignment_buffered: zeroStatsSummaryDocument(),
    processed_data: statsSummaryDocument(summary.processedData.snapshot()),
    persisted_data: statsSummaryDocument(summary.persistedData.snapshot()),
  };
}

function latestDocument(
  history: CheckpointStatsHistory,
  restored: RestoredCheckpointStats | undefined,
): CheckpointingStatisticsDocument['latest'] {
  const { latestCompleted, latestSavepoint, latestFailed } = history;
  return {
    completed: latestCompleted ? completedCheckpointStatisticsDocument(latestCompleted, false) : null,
    savepoint: latestSavepoint ? completedCheckpointStatisticsDocument(latestSavepoint, false) : null,
    failed: latestFailed ? failedCheckpointStatisticsDocument(latestFailed, false) : null,
    restored: restored ? restoredDocument(restored) : null,
  };
}

function restoredDocument(restored: RestoredCheckpointStats): RestoredCheckpointStatisticsDocument {
  return {
    id: restored.id,
    restore_timestamp: restored.restoreTimestamp,
    is_savepoint: restored.isSavepoint,
    external_path: restored.externalPath,
  };
}

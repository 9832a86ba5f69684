/**
 * The JSON documents of Flink's checkpoint REST endpoints (flink-runtime
 * rest/messages/checkpoints/*), as JSON.parse reads Flink's responses: the same keys, in the same
 * order, with the same values. Two Jackson habits show through:
 * - `@Nullable` fields are written as null, never left out;
 * - a double that is not finite is written as a string ("NaN"), so percentiles are `JacksonDouble`.
 */
import type { CheckpointStatsStatus, SavepointFormat } from './checkpoint-stats-types.ts';
import type { RestCheckpointType } from './checkpoint-stats.ts';

/** How Jackson writes a Java double: a number, or "NaN" / "Infinity" / "-Infinity" as a string. */
export type JacksonDouble = number | 'NaN' | 'Infinity' | '-Infinity';

/** StatsSummaryDto */
export interface StatsSummaryDocument {
  min: number;
  max: number;
  avg: number;
  p50: JacksonDouble;
  p90: JacksonDouble;
  p95: JacksonDouble;
  p99: JacksonDouble;
  p999: JacksonDouble;
}

/** TaskCheckpointStatistics: one vertex within one checkpoint. */
export interface TaskCheckpointStatisticsDocument {
  id: number;
  status: CheckpointStatsStatus;
  latest_ack_timestamp: number;
  checkpointed_size: number;
  state_size: number;
  end_to_end_duration: number;
  alignment_buffered: number;
  processed_data: number;
  persisted_data: number;
  num_subtasks: number;
  num_acknowledged_subtasks: number;
}

/** The fields every CheckpointStatistics subtype shares, after `className`. */
interface CheckpointStatisticsFields {
  id: number;
  status: CheckpointStatsStatus;
  is_savepoint: boolean;
  savepointFormat: SavepointFormat | null;
  trigger_timestamp: number;
  latest_ack_timestamp: number;
  checkpointed_size: number;
  state_size: number;
  end_to_end_duration: number;
  alignment_buffered: number;
  processed_data: number;
  persisted_data: number;
  num_subtasks: number;
  num_acknowledged_subtasks: number;
  checkpoint_type: RestCheckpointType;
  /** vertex id → statistics; `{}` in the overview, filled in the details endpoint */
  tasks: Record<string, TaskCheckpointStatisticsDocument>;
}

export interface CompletedCheckpointStatisticsDocument extends CheckpointStatisticsFields {
  className: 'completed';
  external_path: string | null;
  discarded: boolean;
}

export interface FailedCheckpointStatisticsDocument extends CheckpointStatisticsFields {
  className: 'failed';
  failure_timestamp: number;
  failure_message: string | null;
}

export interface PendingCheckpointStatisticsDocument extends CheckpointStatisticsFields {
  className: 'in_progress';
}

/** CheckpointStatistics, polymorphic on `className` (Jackson writes the type id first). */
export type CheckpointStatisticsDocument =
  | CompletedCheckpointStatisticsDocument
  | FailedCheckpointStatisticsDocument
  | PendingCheckpointStatisticsDocument;

/** CheckpointingStatistics.RestoredCheckpointStatistics */
export interface RestoredCheckpointStatisticsDocument {
  id: number;
  restore_timestamp: number;
  is_savepoint: boolean;
  external_path: string | null;
}

/** GET /jobs/:jobid/checkpoints */
export interface CheckpointingStatisticsDocument {
  counts: { restored: number; total: number; in_progress: number; completed: number; failed: number };
  summary: {
    checkpointed_size: StatsSummaryDocument;
    state_size: StatsSummaryDocument;
    end_to_end_duration: StatsSummaryDocument;
    alignment_buffered: StatsSummaryDocument;
    processed_data: StatsSummaryDocument;
    persisted_data: StatsSummaryDocument;
  };
  latest: {
    completed: CompletedCheckpointStatisticsDocument | null;
    savepoint: CompletedCheckpointStatisticsDocument | null;
    failed: FailedCheckpointStatisticsDocument | null;
    restored: RestoredCheckpointStatisticsDocument | null;
  };
  history: CheckpointStatisticsDocument[];
}

/** SubtaskCheckpointStatistics.CompletedSubtaskCheckpointStatistics */
export interface CompletedSubtaskCheckpointStatisticsDocument {
  className: 'completed';
  index: number;
  status: 'completed';
  ack_timestamp: number;
  end_to_end_duration: number;
  checkpointed_size: number;
  state_size: number;
  checkpoint: { sync: number; async: number };
  alignment: { buffered: number; processed: number; persisted: number; duration: number };
  start_delay: number;
  unaligned_checkpoint: boolean;
  aborted: boolean;
}

/** SubtaskCheckpointStatistics.PendingSubtaskCheckpointStatistics */
export interface PendingSubtaskCheckpointStatisticsDocument {
  className: 'pending';
  index: number;
  status: 'pending_or_failed';
}

/** GET /jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid */
export interface TaskCheckpointStatisticsWithSubtaskDetailsDocument extends TaskCheckpointStatisticsDocument {
  summary: {
    checkpointed_size: StatsSummaryDocument;
    state_size: StatsSummaryDocument;
    end_to_end_duration: StatsSummaryDocument;
    checkpoint_duration: { sync: StatsSummaryDocument; async: StatsSummaryDocument };
    alignment: {
      buffered: StatsSummaryDocument;
      processed: StatsSummaryDocument;
      persisted: StatsSummaryDocument;
      duration: StatsSummaryDocument;
    };
    start_delay: StatsSummaryDocument;
  };
  subtasks: (CompletedSubtaskCheckpointStatisticsDocument | PendingSubtaskCheckpointStatisticsDocument)[];
}

/** GET /jobs/:jobid/checkpoints/config (CheckpointConfigInfo) */
export interface CheckpointConfigDocument {
  mode: 'exactly_once' | 'at_least_once';
  interval: number;
  timeout: number;
  min_pause: number;
  max_concurrent: number;
  externalization: { enabled: boolean; delete_on_cancellation: boolean };
  state_backend: string;
  checkpoint_storage: string;
  unaligned_checkpoints: boolean;
  tolerable_failed_checkpoints: number;
  aligned_checkpoint_timeout: number;
  checkpoints_after_tasks_finish: boolean;
  state_changelog_enabled: boolean;
  changelog_periodic_materialization_interval: number;
  changelog_storage: string;
}

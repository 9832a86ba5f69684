/**
 * The figures "Reproduce in the playground" compares, read the same way from an imported job's
 * statistics and from the model's run (both are DoctorDocuments), so a difference between the two
 * columns is a difference of the jobs, not of the reading.
 */
import type { CheckpointStatisticsDocument, StatsSummaryDocument } from '../checkpoint/stats/rest-document-types.ts';
import type { DoctorDocuments } from '../doctor/doctor-documents.ts';
import { median } from '../doctor/median.ts';

/** Each figure null when the statistics do not hold it (a 1.9 response has no subtask details). */
export interface CheckpointFigures {
  /** end-to-end duration of completed checkpoints, ms */
  medianDurationMs: number | null;
  p90DurationMs: number | null;
  maxDurationMs: number | null;
  /** bytes a completed checkpoint uploaded (the delta when incremental) */
  medianCheckpointedSizeBytes: number | null;
  /** bytes of the whole state a completed checkpoint covers */
  medianFullSizeBytes: number | null;
  /** per subtasks document, the slowest subtask's phase; then the median over documents, ms */
  medianAsyncMs: number | null;
  medianSyncMs: number | null;
  medianAlignmentMs: number | null;
  medianStartDelayMs: number | null;
  completed: number | null;
  failed: number | null;
  /** failed of triggered (completed + failed) */
  failedShare: number | null;
  /** median gap between consecutive triggers in the history, ms (the interval when min-pause does not stretch it) */
  medianTriggerGapMs: number | null;
  /** subtasks of the job (the latest completed checkpoint's num_subtasks) */
  subtasks: number | null;
}

export function checkpointFigures(documents: DoctorDocuments): CheckpointFigures {
  const completed = completedCheckpoints(documents);
  const summary = documents.checkpoints?.summary;
  const durations = completed.map((c) => c.end_to_end_duration);
  const counts = documents.checkpoints?.counts;
  const triggered = counts ? counts.completed + counts.failed : 0;
  return {
    medianDurationMs: figure(median(durations), summary?.end_to_end_duration.p50),
    p90DurationMs: figure(nearestRank(durations, 0.9), summary?.end_to_end_duration.p90),
    maxDurationMs: figure(Math.max(...durations), summary?.end_to_end_duration.max),
    medianCheckpointedSizeBytes: figure(median(completed.map((c) => c.checkpointed_size)), summary?.checkpointed_size.p50),
    medianFullSizeBytes: figure(median(completed.map((c) => c.state_size)), summary?.state_size.p50),
    ...subtaskPhaseFigures(documents),
    completed: counts?.completed ?? null,
    failed: counts?.failed ?? null,
    failedShare: counts && triggered > 0 ? counts.failed / triggered : null,
    medianTriggerGapMs: medianTriggerGap(documents.checkpoints?.history ?? []),
    subtasks: completed[0]?.num_subtasks ?? documents.checkpoints?.latest.completed?.num_subtasks ?? null,
  };
}

/** Completed checkpoints (not savepoints), newest first: from the history, else the details, else the latest one. */
function completedCheckpoints(documents: DoctorDocuments): CheckpointStatisticsDocument[] {
  const isCompletedCheckpoint = (c: CheckpointStatisticsDocument) => c.status === 'COMPLETED' && !c.is_savepoint;
  const history = (documents.checkpoints?.history ?? []).filter(isCompletedCheckpoint);
  if (history.length > 0) return history;
  const details = Object.values(documents.checkpointDetails ?? {}).filter(isCompletedCheckpoint).sort((a, b) => b.id - a.id);
  if (details.length > 0) return details;
  const latest = documents.checkpoints?.latest.completed;
  return latest ? [latest] : [];
}

/** The history's figure when it has one, else the summary's (which covers more checkpoints but may be NaN before 1.15). */
function figure(fromHistory: number, fromSummary: StatsSummaryDocument[keyof StatsSummaryDocument] | undefined): number | null {
  if (Number.isFinite(fromHistory)) return fromHistory;
  return typeof fromSummary === 'number' && Number.isFinite(fromSummary) && fromSummary > 0 ? fromSummary : null;
}

/** Flink's nearest-rank percentile of the history's values. */
function nearestRank(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

function subtaskPhaseFigures(documents: DoctorDocuments): Pick<CheckpointFigures, 'medianAsyncMs' | 'medianSyncMs' | 'medianAlignmentMs' | 'medianStartDelayMs'> {
  const summaries = (documents.checkpointSubtaskDetails ?? []).map((d) => d.statistics.summary);
  const of = (pick: (s: (typeof summaries)[number]) => StatsSummaryDocument) => (summaries.length === 0 ? null : median(summaries.map((s) => pick(s).max)));
  return {
    medianAsyncMs: of((s) => s.checkpoint_duration.async),
    medianSyncMs: of((s) => s.checkpoint_duration.sync),
    medianAlignmentMs: of((s) => s.alignment.duration),
    medianStartDelayMs: of((s) => s.start_delay),
  };
}

function medianTriggerGap(history: readonly CheckpointStatisticsDocument[]): number | null {
  const times = history.filter((c) => !c.is_savepoint).map((c) => c.trigger_timestamp).sort((a, b) => a - b);
  const gaps = times.slice(1).map((t, i) => t - times[i]!).filter((g) => g > 0);
  return gaps.length === 0 ? null : median(gaps);
}

/**
 * An imported Flink job's checkpoint history on the timeline: each history entry becomes the job
 * events a run records for it (triggered at `trigger_timestamp`; completed or failed
 * `end_to_end_duration` later, which Flink measures to the last acknowledgement or to the
 * failure), so the run's timeline model lays it out (lanes, min-pause, gaps) unchanged. Flink's
 * timestamps are wall-clock ms; the axis starts at the first trigger in the history, as a run's
 * starts at 0. An import holds no faults, restores or job status changes: the history is all.
 */
import type { CheckpointStatisticsDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';
import type { JobEvent } from '../../engine/run/job-events.ts';
import { buildTimeline, type TimelineModel } from './timeline-model.ts';

export function importedTimeline(history: readonly CheckpointStatisticsDocument[], minPauseMs: number): TimelineModel {
  if (history.length === 0) return buildTimeline([], 0, minPauseMs);
  const origin = Math.min(...history.map((c) => c.trigger_timestamp));
  const events = history.flatMap((c) => checkpointEvents(c, origin)).sort((a, b) => a.time - b.time);
  const now = Math.max(0, ...events.map((e) => e.time));
  return buildTimeline(events, now, minPauseMs);
}

function checkpointEvents(checkpoint: CheckpointStatisticsDocument, origin: number): JobEvent[] {
  const start = checkpoint.trigger_timestamp - origin;
  const triggered: JobEvent = { type: 'checkpoint-triggered', time: start, checkpointId: checkpoint.id, isSavepoint: checkpoint.is_savepoint };
  // Flink writes -1 for a duration it does not know yet
  const end = start + Math.max(0, checkpoint.end_to_end_duration);
  if (checkpoint.className === 'completed') return [triggered, { type: 'checkpoint-completed', time: end, checkpointId: checkpoint.id, isSavepoint: checkpoint.is_savepoint }];
  if (checkpoint.className === 'failed') return [triggered, { type: 'checkpoint-failed', time: end, checkpointId: checkpoint.id, reason: checkpoint.failure_message ?? '' }];
  return [triggered];
}

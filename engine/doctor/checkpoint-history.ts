/**
 * The checkpoints the documents list, oldest first: the overview's history (Flink keeps the latest
 * `web.checkpoints.history` of them), or, from saved details responses alone, those checkpoints.
 * Savepoints are left out: they are triggered by hand, not by the interval.
 */
import type { CheckpointStatisticsDocument, CompletedCheckpointStatisticsDocument } from '../checkpoint/stats/rest-document-types.ts';
import type { DoctorDocuments } from './doctor-documents.ts';

export function checkpointHistory(documents: DoctorDocuments): CheckpointStatisticsDocument[] {
  const entries = documents.checkpoints?.history ?? Object.values(documents.checkpointDetails ?? {});
  return entries.filter((c) => !c.is_savepoint).sort((a, b) => a.id - b.id);
}

export function completedCheckpoints(documents: DoctorDocuments): CompletedCheckpointStatisticsDocument[] {
  return checkpointHistory(documents).filter((c): c is CompletedCheckpointStatisticsDocument => c.className === 'completed');
}

/**
 * The idle time between one completed checkpoint's end and the next one's trigger, for each pair
 * of consecutive completed checkpoints: the article's "is there a gap between checkpoints?".
 */
export function pausesBetween(completed: readonly CompletedCheckpointStatisticsDocument[]): number[] {
  const pauses: number[] = [];
  for (let i = 1; i < completed.length; i++) {
    const previous = completed[i - 1]!;
    pauses.push(Math.max(0, completed[i]!.trigger_timestamp - (previous.trigger_timestamp + previous.end_to_end_duration)));
  }
  return pauses;
}

/**
 * (a) The first article's 2.1: checkpoints that take as long as the interval leave no gap between
 * them, and the job is always checkpointing. execution.checkpointing.min-pause forces a gap.
 */
import { LONG_MAX_VALUE } from '../../checkpoint/stats/checkpoint-config-document.ts';
import { completedCheckpoints, pausesBetween } from '../checkpoint-history.ts';
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';
import { median } from '../median.ts';

/** Consecutive pairs needed: one slow checkpoint followed at once by the next is not a pattern. */
const MIN_PAUSES = 3;
/** "Near the interval": a median end-to-end duration of at least this share of the interval. */
const NEAR_INTERVAL_SHARE = 0.8;
/** "No gap": a median pause under this share of the interval (a min-pause of 10 % would clear it). */
const NO_GAP_SHARE_OF_INTERVAL = 0.1;
/** Without the config (a lone overview response), checkpointing at least this share of the time. */
const ALWAYS_CHECKPOINTING_SHARE = 0.9;

export const alwaysCheckpointing: DoctorRule = {
  id: 'always-checkpointing',
  diagnose(documents: DoctorDocuments): Finding[] {
    const completed = completedCheckpoints(documents);
    const pauses = pausesBetween(completed);
    if (pauses.length < MIN_PAUSES) return [];
    const durationMs = median(completed.map((c) => c.end_to_end_duration));
    const pauseMs = median(pauses);
    const interval = configuredInterval(documents);
    const always = interval === undefined
      ? durationMs / (durationMs + pauseMs) >= ALWAYS_CHECKPOINTING_SHARE
      : durationMs >= NEAR_INTERVAL_SHARE * interval && pauseMs < NO_GAP_SHARE_OF_INTERVAL * interval;
    if (!always) return [];
    const minPauseMs = documents.checkpointConfig?.min_pause ?? -1;
    return [{ code: 'always-checkpointing', lesson: 'interval-and-min-pause', params: { durationMs, intervalMs: interval ?? -1, pauseMs, minPauseMs, checkpoints: completed.length } }];
  },
};

/** undefined when unknown or when periodic checkpoints are off (Flink reports Long.MAX_VALUE). */
function configuredInterval(documents: DoctorDocuments): number | undefined {
  const interval = documents.checkpointConfig?.interval;
  return interval === undefined || interval >= LONG_MAX_VALUE ? undefined : interval;
}

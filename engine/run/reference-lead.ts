import type { FlinkConfig } from '../config/flink-config.ts';

/** How far the reference runs ahead: enough for a commit shifted by a restart, at least 1 s, at most 1 min. */
const LEAD_MIN_MS = 1000;
const LEAD_MAX_MS = 60_000;
const LEAD_CHECKPOINT_CYCLES = 3;

/**
 * How far ahead of a run its failure-free reference must be for counting duplicates. A restart
 * shifts the checkpoint schedule, so a two-phase-commit sink may commit a transaction a little
 * earlier than the failure-free run does at the same time; against a reference at the same time,
 * those records would count as duplicates and call a correct exactly-once run wrong. Missing
 * records are counted against the reference at the same time. (The page's sim driver and the
 * CLI's run of a scenario with a run length both follow this.)
 */
export function referenceLeadMs(config: Pick<FlinkConfig, 'checkpointInterval' | 'minPause'>): number {
  const cycle = config.checkpointInterval === undefined ? 0 : Math.max(config.checkpointInterval, config.minPause);
  return Math.min(LEAD_MAX_MS, Math.max(LEAD_MIN_MS, LEAD_CHECKPOINT_CYCLES * cycle));
}

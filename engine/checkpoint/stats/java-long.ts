import type { SubtaskCheckpointStats } from './checkpoint-stats-types.ts';

/**
 * Flink's checkpoint figures are Java longs: times come from System.currentTimeMillis, durations
 * from nanoseconds / 1_000_000, sizes are byte counts. The simulator's virtual clock has fractions of
 * a millisecond, so the tracker truncates every figure it takes, as a Java (long) cast does, before
 * doing any arithmetic: the REST documents then carry the integers Flink's would.
 */
export function javaLong(value: number, what: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`${what} must be a finite number, got ${value}`);
  return Math.trunc(value);
}

export function subtaskStatsAsJavaLongs(stats: SubtaskCheckpointStats): SubtaskCheckpointStats {
  return {
    ...stats,
    subtaskIndex: javaLong(stats.subtaskIndex, 'subtaskIndex'),
    ackTimestamp: javaLong(stats.ackTimestamp, 'ackTimestamp'),
    stateSize: javaLong(stats.stateSize, 'stateSize'),
    checkpointedSize: javaLong(stats.checkpointedSize, 'checkpointedSize'),
    syncDurationMs: javaLong(stats.syncDurationMs, 'syncDurationMs'),
    asyncDurationMs: javaLong(stats.asyncDurationMs, 'asyncDurationMs'),
    alignmentDurationMs: javaLong(stats.alignmentDurationMs, 'alignmentDurationMs'),
    startDelayMs: javaLong(stats.startDelayMs, 'startDelayMs'),
    processedDataBytes: javaLong(stats.processedDataBytes, 'processedDataBytes'),
    persistedDataBytes: javaLong(stats.persistedDataBytes, 'persistedDataBytes'),
  };
}

import type { StreamRecord } from '../protocol.ts';

/**
 * One split of a replayable source, like one partition of a Kafka topic: record `offset` is
 * always the same record, so a source restored to an offset replays exactly what it emitted.
 * Record `offset` becomes available `offset / rate` seconds after the job started; a source that
 * restarts late finds a backlog waiting, as a Kafka consumer with lag does.
 */
export interface SourceSplit {
  /** records in the split; Infinity for an unbounded one */
  readonly count: number;
  readonly ratePerSecond: number;
  recordAt(offset: number): StreamRecord;
}

/** Virtual time (ms since job start) at which record `offset` of a split becomes available. */
export function availableAt(split: SourceSplit, offset: number): number {
  return (offset * 1000) / split.ratePerSecond;
}

/** Number of records of a split available at `elapsedMs` after the job started. */
export function availableCount(split: SourceSplit, elapsedMs: number): number {
  const n = Math.floor((elapsedMs * split.ratePerSecond) / 1000 + 1e-9) + 1;
  return Math.min(n, split.count);
}

/** Event time of record `offset`: derived from the offset and the rate, so replays agree. */
export function eventTimeOf(ratePerSecond: number, offset: number): number {
  return Math.floor((offset * 1000) / ratePerSecond);
}

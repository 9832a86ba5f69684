import type { CheckpointStats } from './checkpoint-stats.ts';

/**
 * Flink's CheckpointStatsHistory: the last `maxSize` checkpoints in the order they were triggered
 * (in-progress ones included), plus the latest completed checkpoint, completed savepoint and failed
 * checkpoint, which stay reachable by id after they leave the history.
 */
export class CheckpointStatsHistory {
  /** oldest first */
  readonly #entries: CheckpointStats[] = [];
  #latestCompleted: CheckpointStats | undefined;
  #latestSavepoint: CheckpointStats | undefined;
  #latestFailed: CheckpointStats | undefined;

  constructor(readonly maxSize: number) {
    if (!Number.isInteger(maxSize) || maxSize < 0) {
      throw new RangeError(`history size must be a non-negative integer, got ${maxSize}`);
    }
  }

  addInProgress(checkpoint: CheckpointStats): void {
    if (this.maxSize === 0) return;
    this.#entries.push(checkpoint);
    if (this.#entries.length > this.maxSize) this.#entries.shift();
  }

  /**
   * Flink's replacePendingCheckpointById bookkeeping: the highest id wins. A savepoint that does not
   * beat the latest savepoint falls through to the completed-checkpoint slot, exactly as in Flink.
   */
  checkpointFinished(checkpoint: CheckpointStats): void {
    if (checkpoint.status === 'COMPLETED') this.#completed(checkpoint);
    else if (checkpoint.status === 'FAILED' && isNewer(checkpoint, this.#latestFailed)) this.#latestFailed = checkpoint;
  }

  #completed(checkpoint: CheckpointStats): void {
    if (checkpoint.isSavepoint && isNewer(checkpoint, this.#latestSavepoint)) this.#latestSavepoint = checkpoint;
    else if (isNewer(checkpoint, this.#latestCompleted)) this.#latestCompleted = checkpoint;
  }

  /** Youngest first, as the REST history lists them. */
  newestFirst(): CheckpointStats[] {
    return [...this.#entries].reverse();
  }

  get latestCompleted(): CheckpointStats | undefined {
    return this.#latestCompleted;
  }

  get latestSavepoint(): CheckpointStats | undefined {
    return this.#latestSavepoint;
  }

  get latestFailed(): CheckpointStats | undefined {
    return this.#latestFailed;
  }

  /** Every checkpoint the details endpoint can still answer for: the history and the three latest. */
  reachable(): CheckpointStats[] {
    const reachable = this.newestFirst();
    for (const latest of [this.#latestCompleted, this.#latestSavepoint, this.#latestFailed]) {
      if (latest !== undefined && !reachable.includes(latest)) reachable.push(latest);
    }
    return reachable;
  }

  byId(id: number): CheckpointStats | undefined {
    return this.reachable().find((checkpoint) => checkpoint.id === id);
  }
}

function isNewer(checkpoint: CheckpointStats, latest: CheckpointStats | undefined): boolean {
  return latest === undefined || checkpoint.id > latest.id;
}

/**
 * Flink's CheckpointStatsCounts. `total` counts every checkpoint and savepoint that was triggered
 * or failed while being triggered: total = in progress + completed + failed.
 */
export class CheckpointStatsCounts {
  restored = 0;
  total = 0;
  inProgress = 0;
  completed = 0;
  failed = 0;

  checkpointTriggered(): void {
    this.inProgress++;
    this.total++;
  }

  checkpointCompleted(): void {
    this.leaveInProgress();
    this.completed++;
  }

  checkpointFailed(): void {
    this.leaveInProgress();
    this.failed++;
  }

  /** Flink's incrementFailedCheckpointsWithoutInProgress: failed before it was in progress, still one of the total. */
  failedWithoutInProgress(): void {
    this.total++;
    this.failed++;
  }

  checkpointRestored(): void {
    this.restored++;
  }

  /** Flink logs and skips a decrement that would go negative instead of failing. */
  private leaveInProgress(): void {
    if (this.inProgress > 0) this.inProgress--;
  }
}

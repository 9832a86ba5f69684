/**
 * Flink's CheckpointStatsCounts. `total` counts every triggered checkpoint and savepoint;
 * a checkpoint that failed before it was triggered only adds to `failed`.
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

  failedWithoutInProgress(): void {
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

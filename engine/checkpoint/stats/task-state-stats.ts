import type { SubtaskCheckpointStats } from './checkpoint-stats-types.ts';
import { TaskStateStatsSummary } from './task-state-stats-summary.ts';

/**
 * Flink's TaskStateStats: the subtask reports of one vertex in one checkpoint. Each subtask index
 * is taken once; later reports for it, and indices outside the parallelism, are ignored.
 */
export class TaskStateStats {
  readonly subtasks: (SubtaskCheckpointStats | undefined)[];
  readonly summary = new TaskStateStatsSummary();
  #numAcknowledged = 0;
  #latestAcknowledged: SubtaskCheckpointStats | undefined;

  constructor(
    readonly vertexId: string,
    parallelism: number,
  ) {
    this.subtasks = new Array<SubtaskCheckpointStats | undefined>(parallelism).fill(undefined);
  }

  /** @returns whether the report was taken */
  report(subtask: SubtaskCheckpointStats): boolean {
    const index = subtask.subtaskIndex;
    if (!Number.isInteger(index) || index < 0 || index >= this.subtasks.length) return false;
    if (this.subtasks[index] !== undefined) return false;
    this.subtasks[index] = subtask;
    if (!subtask.aborted) {
      this.#latestAcknowledged = subtask;
      this.#numAcknowledged++;
    }
    this.summary.add(subtask);
    return true;
  }

  get numSubtasks(): number {
    return this.subtasks.length;
  }

  get numAcknowledged(): number {
    return this.#numAcknowledged;
  }

  /** The acknowledgement reported last (not the one with the highest timestamp), as in Flink; -1 before any. */
  get latestAckTimestamp(): number {
    return this.#latestAcknowledged?.ackTimestamp ?? -1;
  }

  /** Time from the trigger to the latest acknowledgement, never negative; -1 before any. */
  endToEndDuration(triggerTimestamp: number): number {
    const latest = this.#latestAcknowledged;
    return latest === undefined ? -1 : Math.max(0, latest.ackTimestamp - triggerTimestamp);
  }
}

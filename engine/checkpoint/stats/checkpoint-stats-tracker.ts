import { checkpointStatisticsDocument } from './checkpoint-statistics-document.ts';
import { CheckpointStats } from './checkpoint-stats.ts';
import { CheckpointStatsCounts } from './checkpoint-stats-counts.ts';
import { CheckpointStatsHistory } from './checkpoint-stats-history.ts';
import type {
  CheckpointStatsType,
  RestoredCheckpointStats,
  SavepointFormat,
  SubtaskCheckpointStats,
  VertexParallelism,
} from './checkpoint-stats-types.ts';
import { checkpointingStatisticsDocument } from './checkpointing-statistics-document.ts';
import { CompletedCheckpointStatsSummary } from './completed-checkpoint-stats-summary.ts';
import { javaLong, subtaskStatsAsJavaLongs } from './java-long.ts';
import type {
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from './rest-document-types.ts';
import { taskCheckpointStatisticsWithSubtaskDetailsDocument } from './task-checkpoint-statistics-document.ts';

export { checkpointConfigDocument } from './checkpoint-config-document.ts';
export type { CheckpointStatsType, SubtaskCheckpointStats } from './checkpoint-stats-types.ts';

export interface CheckpointStatsTrackerOptions {
  /** `web.checkpoints.history` (Flink's default: 10) */
  historySize: number;
  vertices: VertexParallelism[];
}

/**
 * Flink's DefaultCheckpointStatsTracker, and the REST documents its snapshot serves.
 *
 * Reports about a checkpoint are taken while it is in progress only, as in Flink, where they reach
 * the tracker through the pending checkpoint: reports for unknown ids, for checkpoints that already
 * completed or failed, for unknown vertices and for subtask indices already reported are ignored.
 * A checkpoint keeps taking reports after it leaves the history, and still counts when it ends.
 * Times, durations and sizes are truncated to whole numbers on the way in, as Flink's are longs.
 */
export class CheckpointStatsTracker {
  readonly #counts = new CheckpointStatsCounts();
  readonly #summary = new CompletedCheckpointStatsSummary();
  readonly #history: CheckpointStatsHistory;
  readonly #inProgress = new Map<number, CheckpointStats>();
  #vertices: VertexParallelism[];
  #restored: RestoredCheckpointStats | undefined;

  constructor(options: CheckpointStatsTrackerOptions) {
    this.#history = new CheckpointStatsHistory(options.historySize);
    this.#vertices = checkedVertices(options.vertices);
  }

  reportPendingCheckpoint(
    id: number,
    triggerTimestamp: number,
    type: CheckpointStatsType,
    savepointFormat?: SavepointFormat,
  ): void {
    // Flink's ids only grow; a second trigger report for a running id would be a caller bug.
    if (this.#inProgress.has(id)) return;
    const trigger = javaLong(triggerTimestamp, 'triggerTimestamp');
    const checkpoint = new CheckpointStats(id, trigger, type, this.#vertices, savepointFormat);
    this.#inProgress.set(id, checkpoint);
    this.#counts.checkpointTriggered();
    this.#history.addInProgress(checkpoint);
  }

  reportSubtaskStats(id: number, vertexId: string, stats: SubtaskCheckpointStats): void {
    this.#inProgress.get(id)?.reportSubtaskStats(vertexId, subtaskStatsAsJavaLongs(stats));
  }

  /** The completion time shown is the latest acknowledgement, as in Flink. */
  reportCompletedCheckpoint(id: number, externalPath: string): void {
    const checkpoint = this.#takeInProgress(id);
    if (checkpoint === undefined) return;
    checkpoint.complete(externalPath);
    this.#counts.checkpointCompleted();
    this.#history.checkpointFinished(checkpoint);
    this.#summary.add(checkpoint);
  }

  reportFailedCheckpoint(id: number, failureTimestamp: number, failureMessage: string): void {
    const checkpoint = this.#takeInProgress(id);
    if (checkpoint === undefined) return;
    checkpoint.fail(javaLong(failureTimestamp, 'failureTimestamp'), failureMessage);
    this.#counts.checkpointFailed();
    this.#history.checkpointFinished(checkpoint);
  }

  /** A checkpoint that failed before it was created (no id, no history entry): Flink counts it in total and failed. */
  reportFailedCheckpointsWithoutInProgress(): void {
    this.#counts.failedWithoutInProgress();
  }

  reportRestoredCheckpoint(id: number, restoreTimestamp: number, isSavepoint: boolean, externalPath: string | null): void {
    this.#counts.checkpointRestored();
    this.#restored = { id, restoreTimestamp: javaLong(restoreTimestamp, 'restoreTimestamp'), isSavepoint, externalPath };
  }

  /** A completed checkpoint was subsumed or discarded; only ones still reachable can show it. */
  reportDiscarded(id: number): void {
    const checkpoint = this.#history.byId(id);
    if (checkpoint?.status === 'COMPLETED') checkpoint.markDiscarded();
  }

  /** After a rescale: checkpoints triggered from now on expect these vertices. */
  updateVertices(vertices: VertexParallelism[]): void {
    this.#vertices = checkedVertices(vertices);
  }

  /** GET /jobs/:jobid/checkpoints */
  checkpointingStatistics(): CheckpointingStatisticsDocument {
    return checkpointingStatisticsDocument({
      counts: this.#counts,
      summary: this.#summary,
      history: this.#history,
      restored: this.#restored,
    });
  }

  /**
   * GET /jobs/:jobid/checkpoints/details/:checkpointid; undefined where Flink answers 404. Flink
   * finds a checkpoint in the history and also keeps the latest completed checkpoint, savepoint and
   * failed checkpoint reachable after they leave it.
   */
  checkpointDetails(id: number): CheckpointStatisticsDocument | undefined {
    const checkpoint = this.#history.byId(id);
    return checkpoint === undefined ? undefined : checkpointStatisticsDocument(checkpoint, true);
  }

  /** GET …/checkpoints/details/:checkpointid/subtasks/:vertexid; undefined where Flink answers 404. */
  taskCheckpointStatistics(id: number, vertexId: string): TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined {
    const checkpoint = this.#history.byId(id);
    const task = checkpoint?.tasks.get(vertexId);
    if (checkpoint === undefined || task === undefined) return undefined;
    return taskCheckpointStatisticsWithSubtaskDetailsDocument(checkpoint, task);
  }

  /** Checkpoint id → details, for every id `checkpointDetails` answers for (JS lists integer keys in ascending order). */
  allCheckpointDetails(): Record<string, CheckpointStatisticsDocument> {
    const details: Record<string, CheckpointStatisticsDocument> = {};
    for (const checkpoint of this.#history.reachable()) {
      details[String(checkpoint.id)] = checkpointStatisticsDocument(checkpoint, true);
    }
    return details;
  }

  #takeInProgress(id: number): CheckpointStats | undefined {
    const checkpoint = this.#inProgress.get(id);
    this.#inProgress.delete(id);
    return checkpoint;
  }
}

/** Flink requires every vertex of a checkpoint to run at least one subtask. */
function checkedVertices(vertices: readonly VertexParallelism[]): VertexParallelism[] {
  const seen = new Set<string>();
  for (const { vertexId, parallelism } of vertices) {
    if (!Number.isInteger(parallelism) || parallelism < 1) {
      throw new RangeError(`vertex ${vertexId}: parallelism must be a positive integer, got ${parallelism}`);
    }
    if (seen.has(vertexId)) throw new RangeError(`vertex ${vertexId} is listed twice`);
    seen.add(vertexId);
  }
  return vertices.map((v) => ({ ...v }));
}

/**
 * The Gantt tab's UI state: whether it follows the newest checkpoint or stays on one the user
 * picked (FLINK-39566's "Pin / Follow newest"), and the subtask pointed at. Whose statistics it
 * shows is the dashboard's (DashboardState.source).
 */
import type { GanttRow } from './checkpoint-gantt-layout.ts';

export class GanttState {
  followNewest = $state(true);
  /** the checkpoint picked in the strip; used while not following */
  pinned = $state<number | null>(null);
  hovered = $state.raw<{ row: GanttRow; operator: string } | null>(null);

  /** Picking a checkpoint pins it: the view stays on it while newer ones complete. */
  pin(checkpointId: number): void {
    this.pinned = checkpointId;
    this.followNewest = false;
  }

  /** The checkpoint to show: the newest when following (or the pinned one has left the history). */
  selected(historyIds: readonly number[]): number | undefined {
    if (!this.followNewest && this.pinned !== null && historyIds.includes(this.pinned)) return this.pinned;
    return historyIds[0];
  }

  /** Another source's checkpoints: follow its newest. */
  reset(): void {
    this.pinned = null;
    this.followNewest = true;
    this.hovered = null;
  }
}

/**
 * The Gantt tab's UI state: whose statistics it shows, whether it follows the newest checkpoint
 * or stays on one the user picked (FLINK-39566's "Pin / Follow newest"), and the subtask pointed
 * at. The documents come from PlaygroundState or the imported job.
 */
import type { GanttRow } from './checkpoint-gantt-layout.ts';

export type GanttSource = 'run' | 'imported';

export class GanttState {
  source = $state<GanttSource>('run');
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

  showSource(source: GanttSource): void {
    this.source = source;
    this.pinned = null;
    this.followNewest = true;
    this.hovered = null;
  }
}

/**
 * What the inspector panel shows: the thing the user clicked last in the channel view, the job
 * graph or the storage view. A selection holds what identifies the thing; the panel re-reads
 * its live figures from the driver while it is open.
 */
import type { NetworkBuffer } from '../../engine/protocol.ts';

export type InspectorSelection =
  /** a network buffer (records, a barrier, a marker) queued on a channel */
  | { kind: 'buffer'; buffer: NetworkBuffer; channelId: number }
  | { kind: 'channel'; channelId: number }
  | { kind: 'subtask'; vertexId: string; subtaskIndex: number }
  /** a task-local copy on a host's local disk */
  | { kind: 'local-copy'; host: string; path: string }
  /** a retained checkpoint's (or a savepoint's) directory in remote storage */
  | { kind: 'checkpoint-dir'; checkpointId: number; isSavepoint: boolean }
  /** a shared file of incremental checkpoints in remote storage */
  | { kind: 'shared-file'; name: string };

export class InspectorState {
  selection = $state.raw<InspectorSelection | null>(null);
  /** the watermark overlay of the channel view */
  showWatermarks = $state(false);
  /** the channel lanes on the job graph */
  showChannels = $state(true);

  /**
   * Which unaligned checkpoint persists a buffer as in-flight data: set by the channel view,
   * which watches the queues (engine/network/in-flight-tracker.ts). Not reactive; read it with
   * the revision.
   */
  persistedIn: (buffer: NetworkBuffer) => number | undefined = () => undefined;

  select(selection: InspectorSelection): void {
    this.selection = selection;
  }

  close(): void {
    this.selection = null;
  }
}

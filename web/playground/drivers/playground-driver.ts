/**
 * What the page reads from, and does to, a running job, whichever driver runs it: SimDriver (the
 * deterministic simulator on a virtual clock), LivePageDriver (Web Worker TaskManagers on the
 * wall clock) or ScalePageDriver (a `runtime: scale` scenario, modelled by flows in a worker). PlaygroundState and the views only use this surface, so they cannot tell the two
 * apart; how time moves is the one thing that differs, and that lives on each class (`name`
 * tells them apart: the sim is advanced by the page, the live job runs by itself).
 *
 * No DOM and no reactivity: PlaygroundState copies what the page shows.
 */
import type { SessionDocument } from '../../../engine/replay/session-document.ts';
import type { CompletedCheckpoint } from '../../../engine/checkpoint/completed-checkpoint.ts';
import type { PendingCheckpoint } from '../../../engine/checkpoint/pending-checkpoint.ts';
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../../../engine/checkpoint/stats/rest-document-types.ts';
import type { FlinkConfig } from '../../../engine/config/flink-config.ts';
import type { ChannelInfo } from '../../../engine/job/execution-graph.ts';
import type { JobOperation } from '../../../engine/job/job-operation.ts';
import type { Topology } from '../../../engine/job/topology.ts';
import type { TaskManagerHealth } from '../../../engine/job/task-manager-liveness.ts';
import type { JobMetrics } from '../../../engine/metrics/metrics-sampler.ts';
import type { LocalDiskListing } from '../../../engine/recovery/host-local-disk.ts';
import type { ExpectationInputs } from '../../../engine/run/expectations.ts';
import type { CatchUp } from '../../../engine/run/catch-up-time.ts';
import type { JobEvent, RestoreRecord } from '../../../engine/run/job-events.ts';
import type { Scenario } from '../../../engine/scenario/scenario-types.ts';
import type { StreamTask } from '../../../engine/task/stream-task.ts';
import type { MetricsHistory } from '../../charts/metrics-history.ts';
import type { ChannelSnapshot } from '../../job-graph/channel-snapshot.ts';
import type { StorageView } from '../../storage/storage-view.ts';
import type { DriverName, PlaygroundStats } from '../api/playground-api-types.ts';
import type { SendLog } from './send-log.ts';
import type { OutputComparisonView } from './sim-driver.ts';
import type { EngineMessage } from '../../../engine/messages/message-codes.ts';

// One definition of the comparison, where the sim driver declared it first.
export type { OutputComparisonView };

/** The runtime a driver runs: the user's choice of driver, or `scale`, which a scale scenario chooses itself. */
export type RuntimeDriverName = DriverName | 'scale';

export interface PlaygroundDriver {
  readonly name: RuntimeDriverName;
  readonly scenario: Scenario;
  readonly seed: number;
  /** job time, ms: virtual in sim, wall clock × speed in live */
  readonly now: number;
  /** Flink's JobStatus */
  readonly jobStatus: string;
  readonly restarts: number;
  readonly failureCause: string | undefined;
  /** FINISHED, FAILED or CANCELED: nothing more will happen. */
  readonly isTerminal: boolean;
  /** Events so far, oldest first (the driver's list: read, do not change). */
  readonly events: readonly JobEvent[];
  readonly restores: readonly RestoreRecord[];
  onEvent(listener: (event: JobEvent) => void): () => void;

  topology(): Topology;
  /** Each TaskManager's heartbeats as the JobMaster sees them now: registered, or unresponsive for how long (the cluster view's chips). */
  taskManagerHealth(): TaskManagerHealth[];
  metrics(): JobMetrics;
  /** Flink's GET …/checkpoints */
  checkpointing(): CheckpointingStatisticsDocument;
  checkpointDetails(id: number): CheckpointStatisticsDocument | undefined;
  taskCheckpointStatistics(id: number, vertexId: string): TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined;
  /** Flink's GET …/checkpoints/config */
  checkpointConfig(): CheckpointConfigDocument;
  /** The comparison with the failure-free run; `rowLimit` bounds the per-key rows. */
  output(rowLimit?: number): OutputComparisonView;
  /** The CLI's `--json` document for the run so far. */
  stats(): PlaygroundStats;
  /** What expectations (a lesson step's "seen it") are checked against, for the run so far. */
  expectationInputs(): ExpectationInputs;
  /** Each restore's catch-up so far (engine/run/catch-up-time.ts), one per restore: what stats() reports as `catchUpMs`. */
  catchUps(): readonly CatchUp[];
  /** The session so far, recorded for a replay in sim (live only: a sim run is its scenario and seed). */
  exportSession?(): SessionDocument;
  /** What each host's local disk holds (task-local copies). */
  localDisks(): LocalDiskListing[];
  /** Local disks and remote checkpoint storage as plain data (a copy: safe to keep). */
  storage(): StorageView;

  /** the charts' figures over the run */
  readonly history: MetricsHistory;

  // ---- the engine's own objects, for the views that draw them (read only) ----
  /** Subtasks whose state this thread can see: all of them in sim, none in live (they run in workers). */
  readonly tasks: readonly StreamTask[];
  /** Buffers put on the wire, for the channel view's crossing animation; stays empty in live (the data plane is between workers; the queues come from channelSnapshot). */
  readonly sends: SendLog;
  /** The channel queues as the channel view reads them: the sim's tasks, or the live TaskManagers' network snapshots. */
  readonly channelSnapshot: ChannelSnapshot;
  readonly channels: readonly ChannelInfo[];
  readonly config: FlinkConfig;
  readonly pendingCheckpoints: readonly PendingCheckpoint[];
  /** Ends the run for good: a sim's checkpoint storage applies Flink's retention and closes; a live run's workers are terminated. */
  dispose(): void | Promise<void>;
  readonly retainedCheckpoints: readonly CompletedCheckpoint[];
  readonly savepoints: readonly CompletedCheckpoint[];

  /**
   * Carries out one operation now (the runtime's JobMaster validates it): why it was refused, as a
   * message code, or undefined when it was done; a Promise of that where the JobMaster runs in a
   * worker (scale).
   */
  perform(operation: JobOperation): EngineMessage | undefined | Promise<EngineMessage | undefined>;
}

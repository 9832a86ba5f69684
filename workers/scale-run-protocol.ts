/**
 * The wire protocol between the playground page and the worker that runs a `runtime: scale`
 * scenario (the scale runtime, engine/scale/): the page starts the run, sets the speed of its job
 * clock and sends operations; the worker streams the run's progress as Flink's REST documents
 * and the report's small parts, and answers each operation. Types only.
 *
 * A job of parallelism 1,000 has 3,000 subtasks and a million channels: progress carries the
 * vertex-level documents every time, and the large lists (where each subtask runs, each restore's
 * subtasks) only when they changed, so the page's main thread reads little per message.
 */
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../engine/checkpoint/stats/rest-document-types.ts';
import type { JobOperation } from '../engine/job/job-operation.ts';
import type { ScheduledOperation } from '../engine/job/scheduled-operation.ts';
import type { TaskManagerHealth } from '../engine/job/task-manager-liveness.ts';
import type { Topology } from '../engine/job/topology.ts';
import type { EngineMessage } from '../engine/messages/message-codes.ts';
import type { ExpectationInputs } from '../engine/run/expectations.ts';
import type { JobEvent } from '../engine/run/job-events.ts';
import type { ReportedRestore, RunReport } from '../engine/run/run-report.ts';
import type { Scenario } from '../engine/scenario/scenario-types.ts';

export type ScaleRunRequest =
  /** runs `scenario` from job time 0; `speed` 0 holds the clock */
  | { type: 'start'; scenario: Scenario; speed: number; operations: readonly ScheduledOperation[] }
  /** job ms per wall ms from now; 0 holds the job where it is */
  | { type: 'speed'; speed: number }
  /** one operation now; answered by `performed` with the same id */
  | { type: 'perform'; id: number; operation: JobOperation };

/** The report without what travels apart (the documents above it, and the restores only when they changed). */
export type ReportCore = Omit<RunReport, 'checkpoints' | 'checkpointConfig' | 'checkpointDetails' | 'restores'>;

/** The expectations' inputs without the restores' subtasks (the page has those from `restores`). */
export type ExpectationCore = Omit<ExpectationInputs, 'restoredSubtasks' | 'restoreRecords'>;

export interface ScaleProgress {
  type: 'progress';
  /** job time, ms */
  now: number;
  jobStatus: string;
  restarts: number;
  failureCause: string | undefined;
  isTerminal: boolean;
  /**
   * job events since the previous progress, oldest first; a `restore` event's record comes with
   * its subtasks emptied (they are in `restoresAdded`: 3,000 of them are sent once, not twice)
   */
  events: JobEvent[];
  /** every restore's catch-up so far, in order; only when one changed */
  catchUps?: Array<number | null>;
  taskManagerHealth: TaskManagerHealth[];
  /** the remote store's faults now (slow-remote-storage, fail-remote-storage) */
  remoteStorageFaults: { slowFactor: number; failing: boolean };
  /** Flink's GET …/checkpoints */
  checkpointing: CheckpointingStatisticsDocument;
  /** Flink's GET …/checkpoints/details/:id of every checkpoint in the history, by id */
  checkpointDetails: Record<string, CheckpointStatisticsDocument>;
  /**
   * Flink's GET …/checkpoints/details/:id/subtasks/:vertexid of each checkpoint that ended since
   * the previous progress, per operator: its Min/Avg/Max summary, with `subtasks` left empty (a
   * thousand rows per operator and checkpoint is more than the page shows).
   */
  taskSummaries: TaskSummary[];
  report: ReportCore;
  expectations: ExpectationCore;
}

export interface TaskSummary {
  checkpointId: number;
  vertexId: string;
  statistics: TaskCheckpointStatisticsWithSubtaskDetailsDocument;
}

export type ScaleRunReply =
  /** the run is set up: its configuration document (fixed for the run) and seed */
  | { type: 'started'; seed: number; checkpointConfig: CheckpointConfigDocument }
  /**
   * where each subtask runs (without channels): at the start and after a restart moved them. Sent
   * before the progress that follows it, in a message of its own, as is `restored`: each is
   * thousands of subtasks, and the page reads each message in a task of its own.
   */
  | { type: 'placement'; topology: Topology }
  /** the restores since the previous progress, with their subtasks and catch-up */
  | { type: 'restored'; restores: ReportedRestore[] }
  | ScaleProgress
  /** `problem`: why the JobMaster refused the operation; absent when it was done */
  | { type: 'performed'; id: number; problem?: EngineMessage }
  /** the scale runtime threw: the run stops, and the page shows its message */
  | { type: 'failed'; message: string };

import type { CoordinatorEffect } from '../protocol.ts';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import type { SlotLocation } from '../recovery/local-recovery.ts';
import type { FaultSpec } from '../scenario/scenario-types.ts';
import type { TaskManagerInfo } from './cluster-topology.ts';
import type { ExecutionGraph } from './execution-graph.ts';

/** The checkpoint coordinator's effects a runtime carries out; those addressed to tasks carry the attempt they belong to. */
export type PassedCoordinatorEffect =
  | (Extract<CoordinatorEffect, { type: 'trigger-task' | 'notify-complete' | 'notify-aborted' }> & { attempt: number })
  | Extract<CoordinatorEffect, { type: 'schedule' | 'finalize-checkpoint' | 'discard-checkpoint' | 'discard-shared-files' }>;

/**
 * What the JobMaster asks its runtime to do (the sim on its event queue, live over Web Workers and
 * IndexedDB). The JobMaster decides; a runtime only carries these out and reports back through
 * the JobMaster's inputs. Effects are applied in order.
 */
export type JobMasterEffect =
  | PassedCoordinatorEffect
  /** run a fault of the schedule at `at` (job time): the runtime calls `operate(fault, …, 'schedule')` then */
  | { type: 'schedule-fault'; at: number; fault: FaultSpec }
  /** deploy every subtask of `graph` as execution attempt `attempt`, restoring `restore` when given */
  | { type: 'deploy'; attempt: number; graph: ExecutionGraph; restore?: { checkpoint: CompletedCheckpoint; previousPlacement: ReadonlyMap<string, SlotLocation> } }
  /** every subtask of `attempt` stops; those in `failed` fail */
  | { type: 'cancel-tasks'; attempt: number; failed: readonly number[] }
  /** an injected failure of one subtask: its TaskManager makes it fail, and reports it (`onTaskFailed`) */
  | { type: 'fail-task'; attempt: number; task: number; cause: string }
  /** after the backoff: call `onRestartDue(attempt)` at `at` */
  | { type: 'schedule-restart'; at: number; attempt: number }
  /**
   * the restart's state: a runtime that reads it back from storage (live) does so now and then
   * calls `onRestartPrepared` or `onRestartFailed`; the sim has it in memory and calls back at once
   */
  | { type: 'prepare-restart'; attempt: number; graph: ExecutionGraph; checkpoint: CompletedCheckpoint | undefined }
  /** kill these TaskManager processes (their host's disk stays, unless `hostLost`); the runtime reports each loss (`onTaskManagersLost`) */
  | { type: 'terminate-task-managers'; ids: readonly string[]; cause: string; hostLost?: string }
  /** start a TaskManager process (a killed one again in place, or a replacement on another host) */
  | { type: 'start-task-manager'; info: TaskManagerInfo }
  /** the TaskManager stops answering without dying (its heartbeats, reports and tasks freeze) */
  | { type: 'stall-task-manager'; id: string }
  | { type: 'slow-operator'; vertex: string; factor: number }
  | { type: 'remote-storage-faults'; slowFactor: number; failing: boolean; healed: boolean }
  /**
   * the job reached FINISHED, FAILED or CANCELED: stop monitoring; unless `retain`, retention lets
   * go of the checkpoints in `discard` and of the shared files no savepoint refers to
   */
  | { type: 'job-terminated'; retain: boolean; discard: readonly number[] }
  /**
   * a checkpoint or savepoint completed (the store holds it now, before what it subsumed is
   * discarded): storage that follows the store write-behind (the page's sim) writes it now; live
   * wrote its `_metadata` at `finalize-checkpoint`
   */
  | { type: 'checkpoint-completed'; checkpoint: CompletedCheckpoint };

import type { SubtaskId, TaskStateSnapshot } from '../protocol.ts';
import type { CheckpointPlan } from './checkpoint-coordinator.ts';

/** What the planner needs to know of one subtask, in either driver (Flink reads the execution graph). */
export interface PlannedSubtask {
  id: SubtaskId;
  /** ExecutionState RUNNING (a subtask whose input ended still runs while it waits for its final checkpoint) */
  running: boolean;
  /** ExecutionState FINISHED */
  finished: boolean;
  /** what a checkpoint records for it once it FINISHED (Flink's finished operator state) */
  finalSnapshot: TaskStateSnapshot | undefined;
}

export interface CheckpointPlanInputs {
  subtasks: readonly PlannedSubtask[];
  /** the subtasks whose channels feed `id` (none for a source) */
  precedents: (id: SubtaskId) => readonly SubtaskId[];
  parallelism: Record<string, number>;
  /** execution.checkpointing.checkpoints-after-tasks-finish */
  checkpointsAfterTasksFinish: boolean;
}

const key = (id: SubtaskId) => `${id.vertexId}#${id.subtaskIndex}`;

/**
 * Which subtasks a checkpoint involves now, as Flink's DefaultCheckpointPlanCalculator:
 * - a FINISHED subtask, with checkpoints after tasks finish off, fails the trigger
 *   (NOT_ALL_REQUIRED_TASKS_RUNNING: "Some tasks of the job have already finished and
 *   checkpointing with finished tasks is not enabled.");
 * - so does a subtask neither RUNNING nor FINISHED (checkAllTasksInitiated, checkTasksStarted);
 * - while all run, the sources are triggered and every subtask acknowledges
 *   (calculateWithAllTasksRunning);
 * - once some finished, every running subtask acknowledges, those with no running precedent are
 *   triggered (the "new sources"), and the finished ones take part with what they finished with
 *   (calculateAfterTasksFinished).
 */
export function planCheckpoint(inputs: CheckpointPlanInputs): CheckpointPlan {
  const { subtasks, precedents, parallelism, checkpointsAfterTasksFinish } = inputs;
  const finished = subtasks.filter((s) => s.finished);
  if (finished.length > 0 && !checkpointsAfterTasksFinish) return { ok: false };
  if (subtasks.some((s) => !s.finished && !s.running)) return { ok: false };
  const running = new Set(subtasks.filter((s) => s.running).map((s) => key(s.id)));
  const tasksToAck = subtasks.filter((s) => s.running).map((s) => s.id);
  const tasksToTrigger = tasksToAck.filter((id) => !precedents(id).some((p) => running.has(key(p))));
  const finishedTasks = finished.map((s) => s.finalSnapshot ?? { subtask: s.id, finished: true, stateSize: 0, checkpointedSize: 0 });
  return { ok: true, tasksToTrigger, tasksToAck, finishedTasks, parallelism };
}

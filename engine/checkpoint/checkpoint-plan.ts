import type { SubtaskId, TaskStateSnapshot } from '../protocol.ts';
import type { CheckpointPlan } from './checkpoint-coordinator.ts';

/** What the planner needs to know of one subtask, in either driver. */
export interface PlannedSubtask {
  id: SubtaskId;
  isSource: boolean;
  /** the subtask put end-of-partition out (or finished): it takes part with its final state */
  ended: boolean;
  finalSnapshot: TaskStateSnapshot | undefined;
  running: boolean;
}

/**
 * Which subtasks a checkpoint involves now (Flink's DefaultCheckpointPlanCalculator): running
 * sources inject the barrier, every running subtask acknowledges, finished ones take part with
 * their final state. Not possible while a subtask is still starting, or while every source has
 * ended but others still drain (no running task could inject a barrier).
 */
export function planCheckpoint(subtasks: readonly PlannedSubtask[], parallelism: Record<string, number>): CheckpointPlan {
  const tasksToTrigger: SubtaskId[] = [];
  const tasksToAck: SubtaskId[] = [];
  const finishedTasks: TaskStateSnapshot[] = [];
  for (const s of subtasks) {
    if (s.ended && s.finalSnapshot) finishedTasks.push(s.finalSnapshot);
    else if (!s.running) return { ok: false };
    else {
      tasksToAck.push(s.id);
      if (s.isSource) tasksToTrigger.push(s.id);
    }
  }
  if (tasksToTrigger.length === 0 && tasksToAck.length > 0) return { ok: false };
  return { ok: true, tasksToTrigger, tasksToAck, finishedTasks, parallelism };
}

import type { TaskStateSnapshot } from '../protocol.ts';

/** A checkpoint or savepoint every task acknowledged, with the state of every subtask. */
export interface CompletedCheckpoint {
  id: number;
  isSavepoint: boolean;
  triggerTimestamp: number;
  completionTimestamp: number;
  /** `<checkpoint dir>/chk-<id>` or the savepoint's directory, as Flink names them */
  externalPath: string;
  /** subtask key `vertex#index` → its snapshot (finished subtasks included) */
  taskStates: Map<string, TaskStateSnapshot>;
  /** parallelism of every vertex when it was taken (restoring with another one rescales) */
  parallelism: Record<string, number>;
  stateSize: number;
  checkpointedSize: number;
}

export function subtaskKey(s: { vertexId: string; subtaskIndex: number }): string {
  return `${s.vertexId}#${s.subtaskIndex}`;
}

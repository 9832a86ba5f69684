/**
 * What a task told the job, as the runtime let it through (Flink fences these by execution
 * attempt: a cancelled attempt's acknowledgement, decline or commit must never reach the job),
 * and the JobMaster's cancellation of an attempt's tasks. The fencing checker watches these;
 * job events carry no attempt, and a stream of its own keeps the event log free of them.
 */
export type TaskMessage =
  /** the JobMaster cancelled every task of `attempt` (a failover, a rescale or restart, a cancel) */
  | { kind: 'attempt-cancelled'; time: number; attempt: number }
  /** the coordinator received a subtask's acknowledgement or decline of a checkpoint */
  | { kind: 'acknowledge' | 'decline'; time: number; attempt: number; checkpointId: number; subtask: string }
  /** a two-phase-commit sink's commit reached the external system */
  | { kind: 'commit'; time: number; attempt: number; subtask: string; transactionId: string }
  /** a network buffer a task sent reached its receiver (the sim; the live runtime's channels are worker to worker) */
  | { kind: 'deliver'; time: number; attempt: number; subtask: string };

/** `vertex#index`, as the messages name a subtask. */
export function subtaskName(id: { vertexId: string; subtaskIndex: number }): string {
  return `${id.vertexId}#${id.subtaskIndex}`;
}

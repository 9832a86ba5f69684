/**
 * An operation the user applies to a running simulation, as data: what sim-history.ts records
 * with the exact point of the run it was applied at, and what operation-script.ts applies again
 * when a branch is replayed. The type names are the scenario's fault types (`faults[].type`).
 */
import type { TriggerKind } from '../checkpoint/checkpoint-coordinator.ts';

export type SimOperation =
  | { type: 'kill-task-manager'; taskManager: string }
  | { type: 'lose-host'; host: string }
  | { type: 'fail-task'; vertexId: string; subtask: number }
  | { type: 'slow-operator'; vertexId: string; factor: number }
  | { type: 'stall-task-manager'; taskManager: string }
  | { type: 'corrupt-local-copy'; host: string; vertexId: string; subtask: number }
  | { type: 'delete-local-copy'; host: string; vertexId: string; subtask: number }
  | { type: 'slow-remote-storage'; factor: number }
  | { type: 'fail-remote-storage'; failing: boolean }
  | { type: 'trigger-checkpoint' }
  | { type: 'trigger-savepoint' }
  | { type: 'rescale'; vertexId: string; parallelism: number }
  | { type: 'restart-from-savepoint'; savepointId?: number }
  | { type: 'cancel' };

export type SimOperationType = SimOperation['type'];

/** What an operation is applied to: the engine's Simulation (each call returns an error message, or undefined when done). */
export interface SimOperationTarget {
  killTaskManager(taskManager: string): string | undefined;
  loseHost(host: string): string | undefined;
  failTask(vertexId: string, subtask: number): string | undefined;
  slowOperator(vertexId: string, factor: number): string | undefined;
  stallTaskManager(taskManager: string): string | undefined;
  corruptLocalCopy(host: string, vertexId: string, subtask: number): string | undefined;
  deleteLocalCopy(host: string, vertexId: string, subtask: number): string | undefined;
  slowRemoteStorage(factor: number): string | undefined;
  failRemoteStorage(failing: boolean): string | undefined;
  triggerCheckpoint(kind: TriggerKind): string | undefined;
  rescale(vertexId: string, parallelism: number): string | undefined;
  restartFromSavepoint(savepointId?: number): string | undefined;
  cancel(): string | undefined;
}

/** Applies `operation`; the engine's error message, or undefined when it was done. */
export function applySimOperation(target: SimOperationTarget, operation: SimOperation): string | undefined {
  switch (operation.type) {
    case 'kill-task-manager':
      return target.killTaskManager(operation.taskManager);
    case 'lose-host':
      return target.loseHost(operation.host);
    case 'fail-task':
      return target.failTask(operation.vertexId, operation.subtask);
    case 'slow-operator':
      return target.slowOperator(operation.vertexId, operation.factor);
    case 'stall-task-manager':
      return target.stallTaskManager(operation.taskManager);
    case 'corrupt-local-copy':
      return target.corruptLocalCopy(operation.host, operation.vertexId, operation.subtask);
    case 'delete-local-copy':
      return target.deleteLocalCopy(operation.host, operation.vertexId, operation.subtask);
    case 'slow-remote-storage':
      return target.slowRemoteStorage(operation.factor);
    case 'fail-remote-storage':
      return target.failRemoteStorage(operation.failing);
    case 'trigger-checkpoint':
      return target.triggerCheckpoint('checkpoint');
    case 'trigger-savepoint':
      return target.triggerCheckpoint('savepoint');
    case 'rescale':
      return target.rescale(operation.vertexId, operation.parallelism);
    case 'restart-from-savepoint':
      return target.restartFromSavepoint(operation.savepointId);
    case 'cancel':
      return target.cancel();
  }
}

/** A short English description for messages (the UI translates the type itself). */
export function describeSimOperation(operation: SimOperation): string {
  switch (operation.type) {
    case 'kill-task-manager':
    case 'stall-task-manager':
      return `${operation.type} ${operation.taskManager}`;
    case 'lose-host':
      return `lose-host ${operation.host}`;
    case 'fail-task':
      return `fail-task ${operation.vertexId}#${operation.subtask}`;
    case 'slow-operator':
      return `slow-operator ${operation.vertexId} ×${operation.factor}`;
    case 'corrupt-local-copy':
    case 'delete-local-copy':
      return `${operation.type} ${operation.host} ${operation.vertexId}#${operation.subtask}`;
    case 'slow-remote-storage':
      return `slow-remote-storage ×${operation.factor}`;
    case 'fail-remote-storage':
      return `fail-remote-storage ${operation.failing}`;
    case 'rescale':
      return `rescale ${operation.vertexId} to ${operation.parallelism}`;
    case 'restart-from-savepoint':
      return operation.savepointId === undefined ? 'restart-from-savepoint' : `restart-from-savepoint ${operation.savepointId}`;
    default:
      return operation.type;
  }
}

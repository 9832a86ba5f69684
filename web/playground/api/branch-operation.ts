/**
 * What `branches()` reports of a recorded operation. Time travel records the engine's own
 * JobOperation (the scenario's field names: vertex, task_manager, heal-remote-storage); version 1
 * of the API published the operations with the field names of the page's earlier SimOperation
 * (vertexId, taskManager, failing), and it grows compatibly, so they are converted on the way out.
 */
import type { JobOperation } from '../../../engine/job/job-operation.ts';
import type { SimOperation } from './playground-api-types.ts';

/** A recorded operation in the field names `branches()` has reported since version 1 of the API (SimOperation); a new object. */
export function apiOperation(operation: JobOperation): SimOperation {
  switch (operation.type) {
    case 'kill-task-manager':
    case 'stall-task-manager':
      return { type: operation.type, taskManager: operation.task_manager };
    case 'fail-task':
      return { type: operation.type, vertexId: operation.vertex, subtask: operation.subtask };
    case 'slow-operator':
      return { type: operation.type, vertexId: operation.vertex, factor: operation.factor };
    case 'corrupt-local-copy':
    case 'delete-local-copy': {
      const { host, vertex, subtask, run } = operation;
      return { type: operation.type, host, vertexId: vertex, subtask, ...(run === undefined ? {} : { run }) };
    }
    case 'fail-remote-storage':
    case 'heal-remote-storage':
      return { type: 'fail-remote-storage', failing: operation.type === 'fail-remote-storage' };
    case 'rescale':
      return { type: operation.type, vertexId: operation.vertex, parallelism: operation.parallelism };
    case 'trigger-checkpoint':
      return operation.checkpoint_type === 'FULL' ? { type: operation.type, checkpointType: 'FULL' } : { type: operation.type };
    case 'restart-from-savepoint':
      return operation.savepoint === undefined ? { type: operation.type } : { type: operation.type, savepointId: operation.savepoint };
    default:
      // lose-host, slow-remote-storage, trigger-savepoint, cancel: the same fields
      return { ...operation };
  }
}

/**
 * `branches()` reports the recorded operations with the field names version 1 of the Playground
 * API published, though time travel records the engine's JobOperation.
 */
import { describe, expect, it } from 'vitest';
import type { JobOperation } from '../../engine/job/job-operation.ts';
import { apiOperation } from '../../web/playground/api/branch-operation.ts';
import type { SimOperation } from '../../web/playground/api/playground-api-types.ts';

const cases: [JobOperation, SimOperation][] = [
  [{ type: 'kill-task-manager', task_manager: 'tm-1' }, { type: 'kill-task-manager', taskManager: 'tm-1' }],
  [{ type: 'stall-task-manager', task_manager: 'tm-0' }, { type: 'stall-task-manager', taskManager: 'tm-0' }],
  [{ type: 'lose-host', host: 'host-1' }, { type: 'lose-host', host: 'host-1' }],
  [{ type: 'fail-task', vertex: 'counts', subtask: 0 }, { type: 'fail-task', vertexId: 'counts', subtask: 0 }],
  [{ type: 'slow-operator', vertex: 'counts', factor: 4 }, { type: 'slow-operator', vertexId: 'counts', factor: 4 }],
  [{ type: 'corrupt-local-copy', host: 'host-0', vertex: 'count', subtask: 1 }, { type: 'corrupt-local-copy', host: 'host-0', vertexId: 'count', subtask: 1 }],
  [{ type: 'delete-local-copy', host: 'host-0', vertex: 'count', subtask: 1 }, { type: 'delete-local-copy', host: 'host-0', vertexId: 'count', subtask: 1 }],
  [{ type: 'slow-remote-storage', factor: 50 }, { type: 'slow-remote-storage', factor: 50 }],
  [{ type: 'fail-remote-storage' }, { type: 'fail-remote-storage', failing: true }],
  [{ type: 'heal-remote-storage' }, { type: 'fail-remote-storage', failing: false }],
  [{ type: 'trigger-checkpoint' }, { type: 'trigger-checkpoint' }],
  [{ type: 'trigger-savepoint' }, { type: 'trigger-savepoint' }],
  [{ type: 'rescale', vertex: 'count', parallelism: 2 }, { type: 'rescale', vertexId: 'count', parallelism: 2 }],
  [{ type: 'restart-from-savepoint' }, { type: 'restart-from-savepoint' }],
  [{ type: 'restart-from-savepoint', savepoint: 3 }, { type: 'restart-from-savepoint', savepointId: 3 }],
  [{ type: 'cancel' }, { type: 'cancel' }],
];

describe('a recorded operation as branches() reports it', () => {
  it.each(cases)('%o is reported as %o', (operation, reported) => {
    const copy = apiOperation(operation);
    expect(copy).toStrictEqual(reported);
    expect(copy).not.toBe(operation);
  });
});

import type { FaultSpec } from '../scenario/scenario-types.ts';

/** A fault of the scenario format without its time: what an operation does, whenever it is done. */
export type FaultOperation = FaultSpec extends infer F ? (F extends FaultSpec ? Omit<F, 'at_ms'> : never) : never;

/**
 * Everything a user (or a fault schedule) can do to a running job, as one value (Flink's REST
 * handlers turn requests into JobMasterGateway calls in one place; here every layer passes this
 * value down to `JobMaster.operate`). Type names are the scenario's fault types, plus the
 * operator's own requests: a rescale, a restart from a savepoint, cancel.
 */
export type JobOperation =
  | FaultOperation
  | { type: 'rescale'; vertex: string; parallelism: number }
  | { type: 'restart-from-savepoint'; savepoint?: number }
  | { type: 'cancel' };

export type JobOperationType = JobOperation['type'];

/** Where an operation came from: the API answers its caller; the schedule's refusals become events. */
export type OperationOrigin = 'api' | 'schedule';

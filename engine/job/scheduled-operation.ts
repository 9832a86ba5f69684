import type { JobOperation } from './job-operation.ts';

/**
 * What an operator asks of a running job besides the scenario's fault schedule (whose file format
 * has no type for these): cancel it (`flink cancel`), rescale it, or restart it from a savepoint.
 */
export type OperatorRequest = Extract<JobOperation, { type: 'cancel' | 'rescale' | 'restart-from-savepoint' }>;

/**
 * An operator request at a set job time, so a run that makes it (a lesson's step) is the same run
 * for every learner and in CI. It goes down the JobMaster's one operation path as a scheduled
 * fault does: a refusal ("the job is already FINISHED") becomes a `fault-not-applied` event.
 */
export interface ScheduledOperation {
  at_ms: number;
  operation: OperatorRequest;
}

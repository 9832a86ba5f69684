import type { TriggerKind } from '../checkpoint/checkpoint-coordinator.ts';
import type { JobMetrics } from '../metrics/metrics-sampler.ts';
import { SourceBacklog } from '../metrics/source-backlog.ts';
import type { JobEvent } from '../run/job-events.ts';
import type { JobMaster } from './job-master.ts';
import type { JobOperation } from './job-operation.ts';
import type { JobStatus } from './job-status.ts';
import { renderEnglish } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

/**
 * What every runtime (sim, live) shows of its JobMaster, and the Playground API's named
 * operations, each one value passed to `operate`. A runtime adds how time passes and how effects
 * are carried out; the job's state is the JobMaster's, read through here.
 */
export abstract class JobRuntime {
  abstract readonly jobMaster: JobMaster;
  /** job time, ms */
  abstract readonly now: number;
  /**
   * Carries out one operation now: the JobMaster validates it; its effects run at once. Returns
   * why it was refused, as a message code, or undefined.
   */
  abstract perform(operation: JobOperation): EngineMessage | undefined;

  /** `perform`, with the refusal in English (the CLI's and the Playground API's words). */
  operate(operation: JobOperation): string | undefined {
    const problem = this.perform(operation);
    return problem === undefined ? undefined : renderEnglish(problem);
  }
  /** The job's metrics now (Flink's task metrics, per subtask and per vertex). */
  abstract metrics(): JobMetrics;
  /** The sources' pendingRecords over the run, for each restore's catch-up time. */
  readonly sourceBacklog = new SourceBacklog();

  get scenario() {
    return this.jobMaster.scenario;
  }
  get config() {
    return this.jobMaster.config;
  }
  get cluster() {
    return this.jobMaster.cluster;
  }
  get graph() {
    return this.jobMaster.graph;
  }
  get job() {
    return this.jobMaster.job;
  }
  get coordinator() {
    return this.jobMaster.coordinator;
  }
  get seed(): number {
    return this.jobMaster.seed;
  }
  get events(): readonly JobEvent[] {
    return this.jobMaster.events;
  }
  get restores() {
    return this.jobMaster.restores;
  }
  /** execution attempt of the job: 0, then +1 per restart */
  get attempt(): number {
    return this.jobMaster.attempt;
  }
  get restarts(): number {
    return this.jobMaster.restarts;
  }
  /** why the job failed, when it did */
  get failureCause(): string | undefined {
    return this.jobMaster.failureCause;
  }
  get jobStatus(): JobStatus {
    return this.jobMaster.status;
  }
  /** Paths of the checkpoints kept after the job ended, by the externalized retention policy. */
  get retainedCheckpoints(): string[] {
    return this.jobMaster.retainedCheckpoints;
  }
  /** Remote storage's fault state: a slow-remote-storage factor (1: none) and whether it fails. */
  get remoteStorageFaults(): { slowFactor: number; failing: boolean } {
    return this.jobMaster.remoteStorageFaults;
  }

  /** Adds the sources' backlog now to `sourceBacklog`; a runtime calls it wherever it samples its metrics. */
  protected recordSourceBacklog(): void {
    const graph = this.graph;
    const sources = graph.subtasks.filter((s) => graph.vertex(s.id.vertexId).operator.type === 'source').length;
    this.sourceBacklog.record(this.metrics(), sources);
  }

  /** Subscribes to job events; returns the unsubscribe function. */
  onEvent(listener: (event: JobEvent) => void): () => void {
    return this.jobMaster.onEvent(listener);
  }

  // ---- the Playground API's operations; each returns an error message or undefined ----

  failTask(vertexId: string, subtaskIndex: number): string | undefined {
    return this.operate({ type: 'fail-task', vertex: vertexId, subtask: subtaskIndex });
  }
  killTaskManager(taskManager: string): string | undefined {
    return this.operate({ type: 'kill-task-manager', task_manager: taskManager });
  }
  loseHost(host: string): string | undefined {
    return this.operate({ type: 'lose-host', host });
  }
  slowOperator(vertexId: string, factor: number): string | undefined {
    return this.operate({ type: 'slow-operator', vertex: vertexId, factor });
  }
  /** The TaskManager stops answering (a long GC pause, a hung process): its tasks freeze until heartbeat.timeout. */
  stallTaskManager(taskManager: string): string | undefined {
    return this.operate({ type: 'stall-task-manager', task_manager: taskManager });
  }
  corruptLocalCopy(host: string, vertexId: string, subtaskIndex: number, keyGroup?: number): string | undefined {
    return this.operate({ type: 'corrupt-local-copy', host, vertex: vertexId, subtask: subtaskIndex, ...(keyGroup === undefined ? {} : { key_group: keyGroup }) });
  }
  deleteLocalCopy(host: string, vertexId: string, subtaskIndex: number, keyGroup?: number): string | undefined {
    return this.operate({ type: 'delete-local-copy', host, vertex: vertexId, subtask: subtaskIndex, ...(keyGroup === undefined ? {} : { key_group: keyGroup }) });
  }
  /** Slows remote storage down by `factor` (1 = normal). */
  slowRemoteStorage(factor: number): string | undefined {
    return this.operate({ type: 'slow-remote-storage', factor });
  }
  /** Makes remote storage fail every write and read (true) or work again (false). */
  failRemoteStorage(failing: boolean): string | undefined {
    return this.operate({ type: failing ? 'fail-remote-storage' : 'heal-remote-storage' });
  }
  triggerCheckpoint(kind: TriggerKind = 'checkpoint'): string | undefined {
    if (kind === 'full-checkpoint') return this.operate({ type: 'trigger-checkpoint', checkpoint_type: 'FULL' });
    return this.operate(kind === 'savepoint' ? { type: 'trigger-savepoint' } : { type: 'trigger-checkpoint' });
  }
  /** Restarts from the latest completed checkpoint (or a newer savepoint) with another parallelism for one vertex; keyed state is redistributed by key groups. */
  rescale(vertexId: string, parallelism: number): string | undefined {
    return this.operate({ type: 'rescale', vertex: vertexId, parallelism });
  }
  /** Restarts the job from a savepoint (Flink: stop, then run with `execution.state-recovery.path`); the newest when no id is given. */
  restartFromSavepoint(savepointId?: number): string | undefined {
    return this.operate({ type: 'restart-from-savepoint', ...(savepointId === undefined ? {} : { savepoint: savepointId }) });
  }
  /** Flink's stop-with-savepoint: a synchronous savepoint, then the job FINISHES; `drain` fires every event-time window first. */
  stopWithSavepoint(drain = false): string | undefined {
    return this.operate({ type: 'stop-with-savepoint', ...(drain ? { drain } : {}) });
  }
  /** Cancels the job (RUNNING → CANCELLING → CANCELED); retention decides which checkpoints stay. */
  cancel(): string | undefined {
    return this.operate({ type: 'cancel' });
  }
}

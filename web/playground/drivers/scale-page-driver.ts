/**
 * The `scale` runtime as the page runs it: a `runtime: scale` scenario (a parallelism of 1,000, a
 * terabyte of modelled state) runs in a Web Worker (workers/scale-run.worker.ts), and this driver
 * holds what the worker last reported, so the page reads it as it reads any other driver
 * (PlaygroundDriver). Like the live driver it runs by itself: `run(speed)` and `hold()` set the
 * worker's job clock, and the page re-reads the held documents every frame.
 *
 * What the model does not have, the driver does not invent: no records (an empty sink), no
 * channels, no per-subtask metrics or checkpoint details (the job graph shows vertices), no files
 * in checkpoint storage. The page says so where a record-level view would stand.
 */
import type { CompletedCheckpoint } from '../../../engine/checkpoint/completed-checkpoint.ts';
import type { PendingCheckpoint } from '../../../engine/checkpoint/pending-checkpoint.ts';
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../../../engine/checkpoint/stats/rest-document-types.ts';
import { readConfig } from '../../../engine/config/flink-options.ts';
import type { FlinkConfig } from '../../../engine/config/flink-config.ts';
import type { ChannelInfo } from '../../../engine/job/execution-graph.ts';
import type { JobOperation } from '../../../engine/job/job-operation.ts';
import type { ScheduledOperation } from '../../../engine/job/scheduled-operation.ts';
import type { TaskManagerHealth } from '../../../engine/job/task-manager-liveness.ts';
import type { Topology } from '../../../engine/job/topology.ts';
import type { EngineMessage } from '../../../engine/messages/message-codes.ts';
import type { JobMetrics } from '../../../engine/metrics/metrics-sampler.ts';
import type { LocalDiskListing } from '../../../engine/recovery/host-local-disk.ts';
import type { ExpectationInputs } from '../../../engine/run/expectations.ts';
import type { CatchUp } from '../../../engine/run/catch-up-time.ts';
import type { JobEvent } from '../../../engine/run/job-events.ts';
import type { ReportedRestore } from '../../../engine/run/run-report.ts';
import type { Scenario } from '../../../engine/scenario/scenario-types.ts';
import type { StreamTask } from '../../../engine/task/stream-task.ts';
import type { ScaleProgress, ScaleRunReply, ScaleRunRequest } from '../../../workers/scale-run-protocol.ts';
import { MetricsHistory } from '../../charts/metrics-history.ts';
import { recordsIn, type ChannelSnapshot } from '../../job-graph/channel-snapshot.ts';
import { remoteCostView, type StorageView } from '../../storage/storage-view.ts';
import type { PlaygroundStats } from '../api/playground-api-types.ts';
import { subtaskState } from '../../../workers/scale-topology.ts';
import { SendLog } from './send-log.ts';
import type { OutputComparisonView, PlaygroundDriver } from './playground-driver.ts';

/** The worker as the driver uses it (a Worker in the page; a session wired by hand in Node tests). */
export interface ScaleRunEndpoint {
  postMessage(request: ScaleRunRequest): void;
  onmessage: ((event: { data: ScaleRunReply }) => void) | null;
  /** the worker's script could not be loaded or threw outside the session */
  onerror?: ((event: { message?: string }) => void) | null;
  terminate(): void;
}

export interface ScalePageDriverOptions {
  /** job ms per wall ms once running */
  speed: number;
  /** starts with the job clock held */
  paused: boolean;
  operations?: readonly ScheduledOperation[];
}

function scaleWorker(): ScaleRunEndpoint {
  return new Worker(new URL('../../../workers/scale-run.worker.ts', import.meta.url), { type: 'module', name: 'scale runtime' }) as unknown as ScaleRunEndpoint;
}

/** The scale model has no channels: the channel view reads nothing from it. */
function noChannels(sends: SendLog): ChannelSnapshot {
  return {
    refresh: () => {},
    senderQueue: () => undefined,
    receiverQueue: () => undefined,
    isBlocked: () => false,
    isFinished: () => false,
    markWatermarkHolders: () => {},
    persistedIn: () => undefined,
    recordsOf: recordsIn,
    sends,
  };
}

export class ScalePageDriver implements PlaygroundDriver {
  readonly name = 'scale';
  readonly scenario: Scenario;
  readonly config: FlinkConfig;
  readonly sends = new SendLog(1);
  readonly channelSnapshot: ChannelSnapshot = noChannels(this.sends);
  readonly tasks: readonly StreamTask[] = [];
  readonly channels: readonly ChannelInfo[] = [];
  readonly pendingCheckpoints: readonly PendingCheckpoint[] = [];
  readonly retainedCheckpoints: readonly CompletedCheckpoint[] = [];
  readonly savepoints: readonly CompletedCheckpoint[] = [];
  history: MetricsHistory;

  readonly #endpoint: ScaleRunEndpoint;
  readonly #listeners = new Set<(event: JobEvent) => void>();
  readonly #events: JobEvent[] = [];
  readonly #answers = new Map<number, (problem: EngineMessage | undefined) => void>();
  #nextId = 1;
  #seed: number;
  #checkpointConfig: CheckpointConfigDocument;
  #progress: ScaleProgress;
  #restores: ReportedRestore[] = [];
  /** `checkpointId/vertexId` → the operator's summary, for the checkpoints still in the history */
  readonly #taskSummaries = new Map<string, TaskCheckpointStatisticsWithSubtaskDetailsDocument>();
  #topology: Topology;
  #failure: string | null = null;
  #failureShown = false;
  #disposed = false;

  private constructor(scenario: Scenario, endpoint: ScaleRunEndpoint, started: { seed: number; checkpointConfig: CheckpointConfigDocument }, topology: Topology, first: ScaleProgress) {
    this.scenario = scenario;
    this.config = readConfig(scenario.config);
    this.#endpoint = endpoint;
    this.#seed = started.seed;
    this.#checkpointConfig = started.checkpointConfig;
    this.#progress = first;
    this.#topology = topology;
    this.history = new MetricsHistory(this.#topology);
    this.#merge(first);
    endpoint.onmessage = (event) => this.#receive(event.data);
    endpoint.onerror = (event) => void (this.#failure = event.message || 'the scale runtime\'s worker stopped');
  }

  /** Starts the worker and the run; resolves once the worker reported the run's first state. */
  static start(scenario: Scenario, options: ScalePageDriverOptions, endpoint: ScaleRunEndpoint = scaleWorker()): Promise<ScalePageDriver> {
    return new Promise((resolve, reject) => {
      let started: Extract<ScaleRunReply, { type: 'started' }> | undefined;
      let topology: Topology | undefined;
      endpoint.onmessage = ({ data }) => {
        if (data.type === 'started') started = data;
        else if (data.type === 'placement') topology = data.topology;
        else if (data.type === 'failed') {
          endpoint.terminate();
          reject(new Error(data.message));
        } else if (data.type === 'progress' && started && topology) resolve(new ScalePageDriver(scenario, endpoint, started, topology, data));
      };
      endpoint.onerror = (event) => {
        endpoint.terminate();
        reject(new Error(event.message || 'the scale runtime\'s worker could not start'));
      };
      endpoint.postMessage({ type: 'start', scenario, speed: options.paused ? 0 : options.speed, operations: options.operations ?? [] });
    });
  }

  /** Why the run stopped with an error in the worker, if it did. */
  get failure(): string | null {
    return this.#failure;
  }

  #receive(reply: ScaleRunReply): void {
    if (reply.type === 'progress') return this.#merge(reply);
    if (reply.type === 'placement') return void (this.#topology = reply.topology);
    if (reply.type === 'restored') return void (this.#restores = [...this.#restores, ...reply.restores]);
    if (reply.type === 'performed') {
      this.#answers.get(reply.id)?.(reply.problem);
      this.#answers.delete(reply.id);
      return;
    }
    if (reply.type === 'failed') this.#failure = reply.message;
  }

  #merge(progress: ScaleProgress): void {
    this.#progress = progress;
    this.#mergeCatchUps(progress);
    for (const { checkpointId, vertexId, statistics } of progress.taskSummaries) this.#taskSummaries.set(`${checkpointId}/${vertexId}`, statistics);
    if (progress.taskSummaries.length > 0) this.#forgetSummariesOutOfHistory(progress);
    for (const sent of progress.events) {
      const event = this.#withRestoredSubtasks(sent);
      this.#events.push(event);
      for (const listener of this.#listeners) listener(event);
    }
  }

  /** A changed catch-up replaces that restore (and so the list, which the page copies when it changed). */
  #mergeCatchUps(progress: ScaleProgress): void {
    const catchUps = progress.catchUps;
    if (!catchUps) return;
    this.#restores = this.#restores.map((r, i) => (r.catchUpMs === (catchUps[i] ?? null) ? r : { ...r, catchUpMs: catchUps[i] ?? null }));
  }

  /** A restore event with its record's subtasks again, from the restore the same progress carried. */
  #withRestoredSubtasks(event: JobEvent): JobEvent {
    if (event.type !== 'restore') return event;
    const record = this.#restores.find((r) => r.time === event.restore.time && r.checkpointId === event.restore.checkpointId);
    return record ? { ...event, restore: { ...event.restore, subtasks: record.subtasks } } : event;
  }

  /** Flink's history holds the latest checkpoints only: summaries of those it dropped go too. */
  #forgetSummariesOutOfHistory(progress: ScaleProgress): void {
    for (const key of this.#taskSummaries.keys()) if (!(key.slice(0, key.indexOf('/')) in progress.checkpointDetails)) this.#taskSummaries.delete(key);
  }

  // ---- the clock: the worker's ----

  /** Runs the job clock at `speed`; the page's answer when it cannot. */
  run(speed: number): string | undefined {
    if (this.#failure !== null) return this.#failure;
    this.#endpoint.postMessage({ type: 'speed', speed });
    return undefined;
  }

  hold(): void {
    this.#endpoint.postMessage({ type: 'speed', speed: 0 });
  }

  /** Every frame: the worker's failure, once, as an error (the page stops the run and shows it). */
  update(): void {
    if (this.#failure === null || this.#failureShown) return;
    this.#failureShown = true;
    throw new Error(this.#failure);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#endpoint.terminate();
    // the run those operations acted on is gone: their callers are not left waiting for a worker that will not answer
    for (const answer of this.#answers.values()) answer(undefined);
    this.#answers.clear();
  }

  // ---- what the page reads ----

  get seed(): number {
    return this.#seed;
  }

  get now(): number {
    return this.#progress.now;
  }

  get jobStatus(): string {
    return this.#progress.jobStatus;
  }

  get restarts(): number {
    return this.#progress.restarts;
  }

  get failureCause(): string | undefined {
    return this.#progress.failureCause;
  }

  get isTerminal(): boolean {
    return this.#progress.isTerminal;
  }

  get events(): readonly JobEvent[] {
    return this.#events;
  }

  get restores(): readonly ReportedRestore[] {
    return this.#restores;
  }

  onEvent(listener: (event: JobEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Where each subtask runs, with the state the job's status gives them (the worker sends placement only when it changed). */
  topology(): Topology {
    const status = subtaskState(this.jobStatus);
    if (this.#topology.subtasks[0]?.status === status) return this.#topology;
    this.#topology = { ...this.#topology, subtasks: this.#topology.subtasks.map((s) => ({ ...s, status })) };
    return this.#topology;
  }

  taskManagerHealth(): TaskManagerHealth[] {
    return this.#progress.taskManagerHealth;
  }

  metrics(): JobMetrics {
    return this.#progress.report.metrics;
  }

  checkpointing(): CheckpointingStatisticsDocument {
    return this.#progress.checkpointing;
  }

  checkpointDetails(id: number): CheckpointStatisticsDocument | undefined {
    return this.#progress.checkpointDetails[String(id)];
  }

  /** An operator's Min/Avg/Max over its subtasks once the checkpoint ended; its rows are not sent (a thousand per operator): the dashboard says so. */
  taskCheckpointStatistics(id: number, vertexId: string): TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined {
    return this.#taskSummaries.get(`${id}/${vertexId}`);
  }

  checkpointConfig(): CheckpointConfigDocument {
    return this.#checkpointConfig;
  }

  /** The model moves no records: nothing was written, so nothing is compared. */
  output(): OutputComparisonView {
    return { totalRecords: 0, duplicates: 0, missing: 0, referenceRecords: 0, keyCount: 0, rows: [] };
  }

  stats(): PlaygroundStats {
    return structuredClone({
      ...this.#progress.report,
      checkpoints: this.#progress.checkpointing,
      checkpointConfig: this.#checkpointConfig,
      checkpointDetails: this.#progress.checkpointDetails,
      restores: this.#restores,
    });
  }

  expectationInputs(): ExpectationInputs {
    return { ...this.#progress.expectations, restoredSubtasks: this.#restores.flatMap((r) => r.subtasks), restoreRecords: this.#restores };
  }

  catchUps(): readonly CatchUp[] {
    return this.#progress.expectations.catchUps;
  }

  /** Checkpoints and local copies are sizes in the model: no files to list. */
  localDisks(): LocalDiskListing[] {
    return [];
  }

  storage(): StorageView {
    return {
      localDisks: [],
      checkpoints: [],
      savepoints: [],
      sharedFiles: [],
      localRecovery: this.config.localRecovery,
      database: null,
      remoteCost: remoteCostView(this.scenario.costs, this.#progress.remoteStorageFaults),
    };
  }

  /** Sends the operation to the worker, whose JobMaster validates and carries it out; resolves with its refusal, or undefined when done. */
  perform(operation: JobOperation): Promise<EngineMessage | undefined> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      if (this.#disposed) return resolve(undefined);
      this.#answers.set(id, resolve);
      this.#endpoint.postMessage({ type: 'perform', id, operation });
    });
  }
}

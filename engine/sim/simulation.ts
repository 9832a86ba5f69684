import type { NetworkBuffer, PollOutcome, SubtaskId, TaskEffect, TaskStateSnapshot } from '../protocol.ts';
import { subtaskName } from '../job/task-message.ts';
import type { Scenario } from '../scenario/scenario-types.ts';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import { assignedHandles, assignRestoredState, assignSubtaskState, type SharedFileReader } from '../checkpoint/state-assignment.ts';
import { JobMaster, type JobStartState } from '../job/job-master.ts';
import type { JobMasterEffect } from '../job/job-master-effect.ts';
import type { JobOperation } from '../job/job-operation.ts';
import { JobRuntime } from '../job/job-runtime.ts';
import { EffectDriver } from '../job/effect-driver.ts';
import type { ScheduledOperation } from '../job/scheduled-operation.ts';
import type { ExecutionGraph } from '../job/execution-graph.ts';
import { buildTaskDeployments } from '../job/task-deployments.ts';
import { describeTopology, type Topology } from '../job/topology.ts';
import { createKeyedStateBackend, slotMemoryResources, type LsmStorageFactory } from '../state/state-backend-factory.ts';
import type { LsmSharedResources } from '../state/lsm/lsm-shared-resources.ts';
import { isKeyedOperator } from '../operators/operator-factory.ts';
import { StreamTask } from '../task/stream-task.ts';
import { SinkOutputLog } from '../run/sink-output-log.ts';
import type { RestoreRecord } from '../run/job-events.ts';
import { MetricsSampler, type JobMetrics } from '../metrics/metrics-sampler.ts';
import { transferMs } from '../storage/transfer-cost.ts';
import type { CheckpointStorageEffect } from '../storage/checkpoint-storage-mirror.ts';
import { HostLocalDisk, type LocalDiskListing, type TaskLocalStateStoreKey } from '../recovery/host-local-disk.ts';
import { localCopyOf, withModelledReadMs, writesLocalCopy, type SlotLocation } from '../recovery/local-recovery.ts';
import { ClusterTopology } from '../job/cluster-topology.ts';
import { SimKernel } from './sim-kernel.ts';
import { ChannelIndex } from './channel-index.ts';
import { PollSchedule } from './poll-schedule.ts';
import { StalledTaskManagers } from './stalled-task-managers.ts';
import { RocksDbBackgroundThreads, type FlushJob } from '../state/lsm/rocksdb-background-threads.ts';
import { formatSimEvent, type SimEvent } from './sim-event.ts';
import type { DeliveryLog } from '../replay/delivery-log.ts';
import type { SessionRecorder } from '../replay/session-recorder.ts';
import type { ReplayPacer, ReplaySource } from '../replay/replay-pacer.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

export interface SimulationOptions {
  /** overrides the scenario's seed */
  seed?: number;
  /** receives one line per handled event: the run's trace */
  trace?: (line: string) => void;
  /** wa-sqlite storage for `state.backend.type: rocksdb` (the driver loads wa-sqlite; the engine does no I/O) */
  lsmStorage?: LsmStorageFactory;
  /** each host's local disk (default: in memory); the page passes one that persists in IndexedDB */
  localDisk?: (host: string) => HostLocalDisk;
  /** records the run's delivery order, as the live driver does (to compare a replay with its recording) */
  recorder?: SessionRecorder;
  /** replays a recorded session: its delivery order, checkpoint triggers, faults and restores */
  replay?: ReplaySource;
  /** receives the JobMaster's checkpoint-storage effects, in order (the page mirrors them into IndexedDB) */
  storageEffects?: (effect: CheckpointStorageEffect) => void;
  /** submits the job from this savepoint (Flink's `flink run -s`), e.g. one a stop-with-savepoint took in another run */
  fromSavepoint?: CompletedCheckpoint;
  /** starts from the checkpoint a JobManager failover recovered (a run interrupted mid-way), with its shared files */
  recoverFrom?: { checkpoint: CompletedCheckpoint; sharedFile: SharedFileReader };
  /** the sink's external system, when it already holds what an earlier run (stopped with a savepoint) committed */
  sinkOutput?: SinkOutputLog;
  /** operator requests at set times (a lesson's cancel or rescale), applied like scheduled faults */
  operations?: readonly ScheduledOperation[];
}

/** What the first attempt starts from: a recovered checkpoint, a savepoint, or nothing. */
function startState(options: SimulationOptions): JobStartState | undefined {
  if (options.recoverFrom) return { recovered: options.recoverFrom.checkpoint, sharedFile: options.recoverFrom.sharedFile };
  return options.fromSavepoint ? { savepoint: options.fromSavepoint } : undefined;
}

/** How often task metrics are sampled into per-second figures, as Flink's metric views update. */
const METRICS_SAMPLE_INTERVAL_MS = 1000;

/**
 * The `sim` runtime: the JobMaster's job on the deterministic kernel. It hosts the tasks, turns
 * their effects into timed events (a buffer, credit or RPC crosses the network after a latency;
 * an upload takes the storage cost model's time), polls each task when it is due, and carries out
 * the JobMaster's effects on the virtual clock. Every job-level decision is the JobMaster's.
 */
export class Simulation extends JobRuntime {
  readonly jobMaster: JobMaster;
  readonly kernel: SimKernel<SimEvent>;
  readonly sinkOutput: SinkOutputLog;
  tasks: StreamTask[] = [];
  readonly #trace: ((line: string) => void) | undefined;
  readonly #lsmStorage: LsmStorageFactory | undefined;
  /** rocksdb managed memory: one budget per slot (by slot id), shared by the slot's backends */
  readonly #slotMemory = new Map<string, LsmSharedResources | undefined>();
  readonly #metrics = new MetricsSampler();
  #channels: ChannelIndex | undefined;
  readonly #polls = new PollSchedule((task, at, token) => this.kernel.schedule(at, { type: 'task-wake', attempt: this.attempt, task, token }));
  readonly #effects: TaskEffect[] = [];
  /** per task: its rocksdb background threads when flushes take time (undefined: flushed inline) */
  #background: Array<RocksDbBackgroundThreads | undefined> = [];
  /** each host's local disk: task-local copies survive a TaskManager crash, not the loss of the host */
  readonly #disks = new Map<string, HostLocalDisk>();
  /** TaskManagers that stopped answering (their tasks are not polled, their acks not sent) */
  readonly #stalledTaskManagers = new StalledTaskManagers(
    () => this.config,
    (at, event) => this.kernel.schedule(at, event),
  );
  readonly #recorder: SessionRecorder | undefined;
  readonly #storageEffects: ((effect: CheckpointStorageEffect) => void) | undefined;
  /** under replay: holds the recording's triggers, restarts and acknowledgements to the sim's pace */
  readonly #replay: ReplayPacer | undefined;
  /** carries out the JobMaster's effects in order (its calls made while carrying one out join the queue) */
  readonly #jobMasterEffects = new EffectDriver((effect, effects) => this.#apply(effect, this.now, effects));

  constructor(scenario: Scenario, options: SimulationOptions = {}) {
    super();
    const seed = options.seed ?? scenario.seed;
    this.#trace = options.trace;
    this.#lsmStorage = options.lsmStorage;
    this.#recorder = options.recorder;
    this.#storageEffects = options.storageEffects;
    this.sinkOutput = options.sinkOutput ?? new SinkOutputLog();
    this.#replay = options.replay?.pacer({ runtime: this, schedule: (at, e) => this.kernel.schedule(at, e), drive: (call) => this.#drive(call), maybeFinishJob: () => this.#maybeFinishJob() });
    for (const host of new ClusterTopology(scenario.cluster).hosts) this.#disks.set(host, options.localDisk?.(host) ?? new HostLocalDisk(host));
    this.kernel = new SimKernel<SimEvent>((event, now) => this.#handle(event, now));
    this.jobMaster = new JobMaster(scenario, {
      seed,
      jobId: 'job',
      disks: this.#disks,
      subtasks: () => this.tasks.map((t) => ({ id: t.id, running: t.lifecycle.state === 'RUNNING', finished: t.lifecycle.state === 'FINISHED', finalSnapshot: t.finalSnapshot })),
      ...(this.#recorder ? { recorder: this.#recorder } : {}),
    });
    // A replay applies the recorded faults and checkpoint triggers, at their recorded times, instead.
    const faults = this.#replay ? this.#replay.scheduledFaults() : this.scenario.faults;
    this.#drive((e) => this.jobMaster.start(0, e, faults, startState(options)));
    for (const { at_ms, operation } of options.operations ?? []) this.kernel.schedule(at_ms, { type: 'operation', operation });
    this.#replay?.start();
    this.kernel.schedule(METRICS_SAMPLE_INTERVAL_MS, { type: 'metrics-sample' });
  }

  get now(): number {
    return this.kernel.now;
  }

  /** Handles one event; false when nothing is left to do. */
  step(): boolean {
    return this.kernel.step();
  }

  /** Handles every event due by `time`; with `stop`, may end sooner and say false (SimKernel.runUntil). */
  runUntil(time: number, stop?: () => boolean): boolean {
    return this.kernel.runUntil(time, stop);
  }

  /** Runs to the scenario's `run.until`, or until the job ends (FINISHED, FAILED) if that comes first. */
  runToEnd(): void {
    const until = this.scenario.run.until_ms;
    while (!this.job.isTerminal && this.kernel.nextEventTime <= until) this.kernel.step();
    if (!this.job.isTerminal && until !== Infinity) this.kernel.runUntil(until);
  }

  /** Under replay, once the run ended: throws ReplayDivergence when the recording asked for something that never happened. */
  checkReplayFollowed(): void {
    this.#replay?.checkFollowed(this.now);
  }

  topology(): Topology {
    return describeTopology(this.graph, this.tasks, this.jobMaster.lostHosts);
  }

  metrics(): JobMetrics {
    return this.#metrics.snapshot(this.tasks, this.now);
  }

  perform(operation: JobOperation): EngineMessage | undefined {
    let problem: EngineMessage | undefined;
    this.#drive((e) => (problem = this.jobMaster.perform(operation, this.now, e)));
    return problem;
  }

  /** Every host's local disk itself (a driver persists or releases them). */
  hostLocalDisks(): HostLocalDisk[] {
    return [...this.#disks.values()];
  }

  /** What every host's local disk holds (for the UI and tests). */
  localDisks(): LocalDiskListing[] {
    return [...this.#disks.values()].map((d) => d.list());
  }

  // ---- carrying out the JobMaster's effects ----

  /** Calls the JobMaster and carries out what it asks, in order, those its further calls add too. */
  #drive(call: (effects: JobMasterEffect[]) => void): void {
    this.#jobMasterEffects.drive(call);
  }

  #apply(effect: JobMasterEffect, now: number, effects: JobMasterEffect[]): void {
    const jm = this.jobMaster;
    switch (effect.type) {
      case 'trigger-task':
        this.kernel.schedule(now + this.#rpcLatency, { type: 'trigger-task', attempt: effect.attempt, task: this.#taskIndex(effect.subtask), barrier: effect.barrier });
        return;
      case 'notify-complete':
      case 'notify-aborted':
        this.kernel.schedule(now + this.#rpcLatency, { type: 'notify-tasks', attempt: effect.attempt, checkpointId: effect.checkpointId, complete: effect.type === 'notify-complete' });
        return;
      case 'schedule':
        this.kernel.schedule(effect.at, { type: 'coordinator-timer', timer: effect.timer });
        return;
      case 'schedule-fault':
        this.kernel.schedule(effect.at, { type: 'fault', fault: effect.fault });
        return;
      case 'schedule-restart':
        this.kernel.schedule(effect.at, { type: 'restart', attempt: effect.attempt });
        return;
      case 'prepare-restart': {
        // The checkpoint is in memory: nothing to read back. A replay deploys when the recording did.
        const at = this.#replay?.restartDeployedAt(effect.attempt);
        if (at === Infinity) return;
        if (at !== undefined && at > now) return this.kernel.schedule(at, { type: 'restart-prepared', attempt: effect.attempt });
        return jm.onRestartPrepared(effect.attempt, now, effects);
      }
      case 'deploy':
        return this.#deploy(now, effect.graph, effect.restore);
      case 'cancel-tasks':
        this.tasks.forEach((t, i) => t.stop(effect.failed.includes(i)));
        return;
      case 'fail-task':
        return jm.onTaskFailed(effect.attempt, effect.task, effect.cause, now, effects);
      case 'terminate-task-managers':
        // The processes die; their connections break at once, which the JobMaster hears of now.
        this.#stalledTaskManagers.terminated(effect.ids);
        return jm.onTaskManagersLost(effect.ids, effect.cause, now, effects);
      case 'start-task-manager':
        return this.#stalledTaskManagers.started(effect.info.id);
      case 'stall-task-manager':
        return this.#stalledTaskManagers.stall(effect.id, now);
      case 'slow-operator':
        for (const task of this.tasks) if (task.id.vertexId === effect.vertex) task.setSlowdown(effect.factor);
        return;
      // The sim's checkpoints live in the coordinator's memory: their writes and deletions cost
      // nothing here; storage that follows them (the page's IndexedDB mirror) is given them.
      case 'checkpoint-completed':
      case 'discard-checkpoint':
      case 'discard-shared-files':
      case 'job-terminated':
        return this.#storageEffects?.(effect);
      // The sim reads remote faults from the JobMaster; it finalizes checkpoints at once (no `finalize-checkpoint`).
      case 'remote-storage-faults':
      case 'finalize-checkpoint':
        return;
    }
  }

  // ---- the event loop ----

  #handle(event: SimEvent, now: number): void {
    if (this.#trace) this.#trace(formatSimEvent(now, event, this.graph));
    if ('attempt' in event && event.type !== 'restart' && event.attempt !== this.attempt) return;
    switch (event.type) {
      case 'task-wake':
        if (this.#polls.isCurrent(event.task, event.token) && !this.#isStalled(event.task)) this.#pollTask(event.task, now);
        return;
      case 'restore-failed':
        return this.#drive((e) => this.jobMaster.onRestoreFailed(event.attempt, event.tasks, event.cause, now, e));
      case 'heartbeat-missed':
        return this.#stalledTaskManagers.check(event, now, (silentMs) => this.#drive((e) => this.jobMaster.onHeartbeatsMissed(event.taskManager, silentMs, now, e)));
      case 'deliver-buffer':
        if (this.jobMaster.watchesTaskMessages) this.#noteDelivery(event.attempt, event.channel, now);
        return this.#deliverBuffer(event.channel, event.buffer, now);
      case 'deliver-credit':
        return this.#deliverCredit(event.channel, event.credits, now, event.endOfDataProcessed === true);
      case 'metrics-sample':
        this.#metrics.sample(this.tasks, now);
        this.recordSourceBacklog();
        if (!this.job.isTerminal) this.kernel.schedule(now + METRICS_SAMPLE_INTERVAL_MS, event);
        return;
      case 'trigger-task':
        this.tasks[event.task]!.triggerCheckpoint(event.barrier);
        return this.#polls.wakeIfNotBusy(event.task, now);
      case 'notify-tasks':
        return this.#notifyTasks(event.checkpointId, event.complete, now);
      case 'coordinator-timer':
        if (this.#replay && event.timer.kind === 'periodic') return;
        return this.#drive((e) => this.jobMaster.onCoordinatorTimer(event.timer, now, e));
      case 'acknowledge':
        if (this.#isStalled(event.task)) return;
        if (this.#replay?.holdsAcknowledge(event, now)) return;
        this.#drive((e) => this.jobMaster.onAcknowledge(event.attempt, event.checkpointId, this.tasks[event.task]!.id, event.snapshot, event.metrics, now, e));
        return this.#replay?.afterAcknowledge(now);
      case 'decline':
        return this.#drive((e) => this.jobMaster.onDecline(event.attempt ?? this.attempt, event.checkpointId, event.reason, now, e, event.task === undefined ? undefined : this.tasks[event.task]?.id));
      case 'fault':
        if (this.#replay?.onFault(event.fault, now)) return;
        this.#drive((e) => this.jobMaster.operate(event.fault, now, e, 'schedule'));
        return;
      case 'operation':
        return this.#drive((e) => void this.jobMaster.operate(event.operation, now, e, 'schedule'));
      case 'restart':
        return this.#drive((e) => this.jobMaster.onRestartDue(event.attempt, now, e, this.#replay?.recordedRestore()));
      case 'restart-prepared':
        return this.#drive((e) => this.jobMaster.onRestartPrepared(event.attempt, now, e));
      case 'replay-restart':
        return this.#replay?.onRestartRequest(event.request, now);
      case 'task-running':
        this.tasks[event.task]!.run();
        this.#replay?.resume(now);
        return this.#polls.wake(event.task, now);
      case 'local-write-done':
        this.#localDisk(event.task)?.store(this.#localKey(event.task), event.checkpointId, event.snapshot);
        return;
      case 'rocksdb-flush-done':
        return this.#scheduleFlushes(event.task, this.#background[event.task]?.flushDone(event.job, now) ?? []);
    }
  }

  #pollTask(i: number, now: number): void {
    this.#polls.polling(i);
    const effects = this.#effects;
    effects.length = 0;
    const task = this.tasks[i]!;
    const outcome = this.#withWriteStalls(i, now, task.poll(now, effects));
    if (this.#recorder && task.recorder && !task.recorder.isEmpty) this.#recorder.addPart(this.attempt, task.id.vertexId, task.id.subtaskIndex, task.recorder.drain());
    for (const effect of effects) this.#applyTaskEffect(i, effect, now);
    this.#afterPoll(i, outcome);
    this.#replay?.afterPoll(now);
  }

  /** A poll whose writes stalled keeps the task busy until the flushes they waited for ended. */
  #withWriteStalls(i: number, now: number, outcome: PollOutcome): PollOutcome {
    const charged = this.#background[i]?.chargePoll(now, outcome);
    if (!charged) return outcome;
    this.#scheduleFlushes(i, charged.started);
    return charged.outcome;
  }

  #scheduleFlushes(task: number, jobs: readonly FlushJob[]): void {
    for (const job of jobs) this.kernel.schedule(job.end, { type: 'rocksdb-flush-done', attempt: this.attempt, task, job });
  }

  /** Flushes take the local disk's time on state.backend.rocksdb.thread.num threads (when the scenario sets it). */
  #backgroundThreadsOf(task: StreamTask): RocksDbBackgroundThreads | undefined {
    const costs = this.scenario.costs;
    return RocksDbBackgroundThreads.of(task.keyedState, this.config.rocksdbThreadNum, (bytes) => transferMs(bytes, costs.local_latency_ms, costs.local_bandwidth_mb_per_s));
  }

  #afterPoll(i: number, outcome: PollOutcome): void {
    switch (outcome.status) {
      case 'busy':
        this.#polls.busy(i, outcome.until);
        return;
      case 'idle':
        if (outcome.wakeAt !== undefined) this.#polls.wake(i, outcome.wakeAt);
        return;
      case 'finished':
        this.#maybeFinishJob();
        return;
      case 'backpressured':
        return;
    }
  }

  #applyTaskEffect(task: number, effect: TaskEffect, now: number): void {
    const attempt = this.attempt;
    switch (effect.type) {
      case 'send':
        this.kernel.schedule(now + this.#channels!.latencyMs[effect.channelId]!, { type: 'deliver-buffer', attempt, channel: effect.channelId, buffer: effect.buffer });
        return;
      case 'credit':
        this.kernel.schedule(now + this.#channels!.latencyMs[effect.channelId]!, { type: 'deliver-credit', attempt, channel: effect.channelId, credits: effect.credits, ...(effect.endOfDataProcessed ? { endOfDataProcessed: true as const } : {}) });
        return;
      case 'sink-output':
        this.sinkOutput.write(effect.records);
        return;
      case 'sink-commit':
        if (this.jobMaster.watchesTaskMessages) this.#noteCommit(task, effect.transaction.id, now);
        this.sinkOutput.commit(effect.transaction.id, effect.transaction.records);
        return;
      case 'persist-snapshot':
        return this.#upload(task, effect.checkpointId, effect.snapshot, effect.metrics, now);
      case 'decline-checkpoint':
        this.kernel.schedule(now + this.#rpcLatency, { type: 'decline', attempt, task, checkpointId: effect.checkpointId, reason: effect.reason });
        return;
    }
  }

  /** The asynchronous part: upload to checkpoint storage (cost model), then acknowledge to the JobManager. */
  #upload(task: number, checkpointId: number, snapshot: TaskStateSnapshot, metrics: Extract<TaskEffect, { type: 'persist-snapshot' }>['metrics'], now: number): void {
    const costs = this.jobMaster.remoteCosts();
    const start = Math.max(now, metrics.syncEndTime);
    if (this.remoteStorageFaults.failing) {
      // The write fails after one request's latency; the task declines (the checkpoint fails, the job goes on).
      this.kernel.schedule(start + costs.remote_latency_ms + this.#rpcLatency, { type: 'decline', attempt: this.attempt, task, checkpointId, reason: 'CHECKPOINT_ASYNC_EXCEPTION' });
      return;
    }
    const uploadEnd = start + transferMs(snapshot.checkpointedSize, costs.remote_latency_ms, costs.remote_bandwidth_mb_per_s);
    const asyncDurationMs = uploadEnd - metrics.syncEndTime;
    const ackTimestamp = uploadEnd;
    this.#writeLocalCopy(task, checkpointId, snapshot, metrics.unalignedCheckpoint, start);
    this.kernel.schedule(uploadEnd + this.#rpcLatency, {
      type: 'acknowledge',
      attempt: this.attempt,
      task,
      checkpointId,
      snapshot,
      metrics: { ...metrics, asyncDurationMs, ackTimestamp },
    });
  }

  get #rpcLatency(): number {
    return this.scenario.costs.network_latency_ms;
  }

  #notifyTasks(checkpointId: number, complete: boolean, now: number): void {
    this.tasks.forEach((task, i) => {
      const disk = this.#localDisk(i);
      if (complete) disk?.confirmCheckpoint(this.#localKey(i), checkpointId);
      else disk?.abortCheckpoint(this.#localKey(i), checkpointId);
      if (complete) task.notifyCheckpointComplete(checkpointId);
      else task.notifyCheckpointAborted(checkpointId);
      this.#polls.wakeIfNotBusy(i, now);
    });
  }

  /** For the fencing checker: a buffer sent by a task of `attempt` reached its receiver. */
  #noteDelivery(attempt: number, channel: number, now: number): void {
    const sender = this.tasks[this.#channels!.sender[channel]!];
    this.jobMaster.noteTaskMessage({ kind: 'deliver', time: now, attempt, subtask: sender ? subtaskName(sender.id) : `channel ${channel}` });
  }

  /** For the fencing checker: a task's two-phase-commit sink committed (the task's own attempt, not the job's). */
  #noteCommit(task: number, transactionId: string, now: number): void {
    const t = this.tasks[task]!;
    this.jobMaster.noteTaskMessage({ kind: 'commit', time: now, attempt: t.deployment.attempt, subtask: subtaskName(t.id), transactionId });
  }

  #deliverBuffer(channel: number, buffer: NetworkBuffer, now: number): void {
    const i = this.#channels!.receiver[channel]!;
    this.tasks[i]!.receive(channel, buffer);
    this.#polls.wakeIfNotBusy(i, now);
  }

  #deliverCredit(channel: number, credits: number, now: number, endOfDataProcessed: boolean): void {
    const i = this.#channels!.sender[channel]!;
    this.tasks[i]!.addCredits(channel, credits, endOfDataProcessed);
    this.#polls.wakeIfNotBusy(i, now);
  }

  #taskIndex(id: SubtaskId): number {
    return this.tasks.findIndex((t) => t.id.vertexId === id.vertexId && t.id.subtaskIndex === id.subtaskIndex);
  }

  #maybeFinishJob(): void {
    if (this.job.status !== 'RUNNING' || !this.tasks.every((t) => t.lifecycle.state === 'FINISHED')) return;
    if (this.#replay?.holdsJobEnd()) return;
    this.#drive((e) => this.jobMaster.onAllTasksFinished(this.now, e));
    this.#metrics.sample(this.tasks, this.now);
  }

  // ---- deployment and restore ----

  /** Deploys every subtask of `graph`, restoring from `restore` when given. */
  #deploy(now: number, graph: ExecutionGraph, restore: Extract<JobMasterEffect, { type: 'deploy' }>['restore']): void {
    const config = this.config;
    const deployments = buildTaskDeployments(graph, this.scenario, { ...config, incremental: config.incremental, snapshotCompression: config.snapshotCompression }, this.attempt, this.jobMaster.executionGraphId);
    this.tasks = deployments.map(
      (d) =>
        new StreamTask(
          d,
          now,
          isKeyedOperator(d.vertex.operator)
            ? (dep) => createKeyedStateBackend(config, dep.keyGroupRange, `${dep.vertex.id}_${dep.subtaskIndex}_a${dep.attempt}`, this.#lsmStorage, this.#memoryOfSlot(dep))
            : undefined,
        ),
    );
    this.#background = this.tasks.map((t) => this.#backgroundThreadsOf(t));
    this.#channels = new ChannelIndex(this.graph, this.scenario.costs.network_latency_ms);
    this.#polls.reset(this.tasks.length, now);
    for (const task of this.tasks) task.setSlowdown(this.jobMaster.slowdownOf(task.id.vertexId));
    for (const task of this.tasks) this.#replay?.attach(task, this.attempt);
    if (this.#recorder) for (const task of this.tasks) this.#recorder.attach(task);
    if (!restore) {
      for (const task of this.tasks) task.start();
      this.tasks.forEach((_, i) => this.#polls.wake(i, now));
      return;
    }
    this.#restoreTasks(now, restore.checkpoint, restore.previousPlacement);
  }

  /**
   * Every subtask restores its share of the checkpoint where the JobMaster's plan says: its host's
   * local copy, or remote storage (with the reason).
   */
  #restoreTasks(now: number, checkpoint: CompletedCheckpoint, previousPlacement: ReadonlyMap<string, SlotLocation>): void {
    const record: RestoreRecord = { time: now, checkpointId: checkpoint.id, isSavepoint: checkpoint.isSavepoint, subtasks: [] };
    const failed: Array<{ task: number; reason: string }> = [];
    const targets = this.tasks.map((task, i) => ({ ...task.id, parallelism: this.graph.vertex(task.id.vertexId).parallelism, keyGroupRange: this.graph.subtasks[i]!.keyGroupRange }));
    // What each subtask's share of the checkpoint weighs in remote storage (after a rescale, its key groups' share).
    const remoteBytes = targets.map((t) => assignSubtaskState(checkpoint, t, () => undefined).bytes);
    const view = { checkpointId: checkpoint.id, parallelism: checkpoint.parallelism, remoteBytes: (i: number) => remoteBytes[i]!, remoteHandles: (i: number) => assignedHandles(checkpoint, targets[i]!) };
    const plan = this.jobMaster.planRestore(this.graph, view, previousPlacement);
    this.tasks.forEach((task, i) => {
      const decision = plan.decisions[i]!;
      const bytes = remoteBytes[i]!;
      const localCopy = decision.source === 'local' ? decision.snapshot : undefined;
      const localPart = decision.source === 'remote' ? decision.localPart : undefined;
      const { restore, remoteBytes: read } = assignRestoredState(checkpoint, targets[i]!, localCopy, (name) => this.coordinator.sharedState.contents(name), localPart);
      if (decision.source === 'failed') failed.push({ task: i, reason: decision.reason });
      const durationMs = decision.source === 'failed' || bytes === 0 ? 0 : decision.durationMs;
      const source = decision.source === 'local' ? 'local' : 'remote';
      const handles = decision.handles.map((h) => withModelledReadMs(h, this.scenario.costs));
      record.subtasks.push({ ...task.id, source, ...(decision.source === 'remote' ? { reason: decision.reason } : {}), bytes, remoteBytes: read, durationMs, handles });
      this.#localDisk(i)?.pruneAllBut(this.#localKey(i), checkpoint.id);
      task.initialize(restore);
      this.kernel.schedule(now + durationMs, { type: 'task-running', attempt: this.attempt, task: i });
    });
    this.jobMaster.onRestored(this.attempt, record, checkpoint);
    // A subtask whose state can be read from nowhere fails the restore once the read was tried:
    // the restart strategy decides what happens next.
    if (failed.length > 0) {
      const cause = `Restoring checkpoint ${checkpoint.id} failed: ${failed[0]!.reason}`;
      const at = now + Math.max(1, this.jobMaster.remoteCosts().remote_latency_ms);
      this.kernel.schedule(at, { type: 'restore-failed', attempt: this.attempt, tasks: failed.map((f) => f.task), cause });
    }
  }

  /**
   * The secondary copy (task-local recovery): written to the host's disk beside the upload, never
   * gating the checkpoint; it stays partial until written, so a crash meanwhile leaves it partial.
   */
  #writeLocalCopy(task: number, checkpointId: number, snapshot: TaskStateSnapshot, unalignedCheckpoint: boolean, start: number): void {
    const isSavepoint = this.coordinator.pendingCheckpoints.some((p) => p.id === checkpointId && p.isSavepoint);
    if (!writesLocalCopy({ localBackupEnabled: this.config.localBackupEnabled, isSavepoint, unalignedCheckpoint, snapshot })) return;
    const disk = this.#localDisk(task);
    if (!disk) return;
    const key = this.#localKey(task);
    const backend = this.tasks[task]!.keyedState;
    const { copy, writtenBytes } = localCopyOf(snapshot, new Set(disk.runsOf(key).map((r) => r.name)), (name) => backend?.sharedFileContents?.(name));
    disk.store(key, checkpointId, copy, { complete: false, bytes: snapshot.stateSize });
    const costs = this.scenario.costs;
    const done = start + transferMs(writtenBytes, costs.local_latency_ms, costs.local_bandwidth_mb_per_s);
    this.kernel.schedule(done, { type: 'local-write-done', attempt: this.attempt, task, checkpointId, snapshot: copy });
  }

  #memoryOfSlot(d: { vertex: { id: string }; subtaskIndex: number }): LsmSharedResources | undefined {
    const slot = this.graph.subtask({ vertexId: d.vertex.id, subtaskIndex: d.subtaskIndex }).slot.id;
    if (!this.#slotMemory.has(slot)) this.#slotMemory.set(slot, slotMemoryResources(this.config));
    return this.#slotMemory.get(slot);
  }

  #isStalled(task: number): boolean {
    return this.#stalledTaskManagers.has(this.graph.subtasks[task]!.slot.taskManager);
  }

  /** Flink's TaskLocalStateStore key: the slot (allocation), the job, the subtask. */
  #localKey(task: number): TaskLocalStateStoreKey {
    const s = this.graph.subtasks[task]!;
    return { allocationId: s.slot.id, jobId: this.jobMaster.jobId, subtask: { ...s.id } };
  }

  #localDisk(task: number): HostLocalDisk | undefined {
    return this.#disks.get(this.graph.subtasks[task]!.slot.host);
  }
}

import type { CoordinatorEffect, NetworkBuffer, PollOutcome, SubtaskId, TaskEffect, TaskStateSnapshot } from '../protocol.ts';
import type { FaultSpec, Scenario } from '../scenario/scenario-types.ts';
import { readConfig } from '../config/flink-options.ts';
import type { FlinkConfig } from '../config/flink-config.ts';
import { CheckpointCoordinator, type CheckpointPlan, type TriggerKind } from '../checkpoint/checkpoint-coordinator.ts';
import { subtaskKey, type CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import { assignSubtaskState, type AssignmentTarget, type SubtaskAssignment } from '../checkpoint/state-assignment.ts';
import { ClusterTopology } from '../job/cluster-topology.ts';
import { faultTargetProblem } from '../job/fault-target.ts';
import { planRescale, planSavepointRestart, type RestartPlan, type RestartRequestContext } from '../job/restart-request.ts';
import { ExecutionGraph } from '../job/execution-graph.ts';
import { JobLifecycle, type JobStatus } from '../job/job-status.ts';
import { createRestartBackoffTimeStrategy, type RestartBackoffTimeStrategy } from '../job/restart-backoff-time-strategy.ts';
import { buildTaskDeployments } from '../job/task-deployments.ts';
import { describeTopology, type Topology } from '../job/topology.ts';
import { createKeyedStateBackend, slotMemoryResources, type LsmStorageFactory } from '../state/state-backend-factory.ts';
import type { LsmSharedResources } from '../state/lsm/lsm-shared-resources.ts';
import { isKeyedOperator } from '../operators/operator-factory.ts';
import { StreamTask } from '../task/stream-task.ts';
import { SinkOutputLog } from '../run/sink-output-log.ts';
import { checkpointStatusEvent, type JobEvent, type RestoreRecord } from '../run/job-events.ts';
import { planCheckpoint } from '../checkpoint/checkpoint-plan.ts';
import { MetricsSampler, type JobMetrics } from '../metrics/metrics-sampler.ts';
import { transferMs } from '../storage/transfer-cost.ts';
import { HostLocalDisk, type LocalDiskListing, type TaskLocalStateStoreKey } from '../recovery/host-local-disk.ts';
import { placeOnPreviousSlots } from '../recovery/slot-selection.ts';
import { decideSubtaskRestore, writesLocalCopy, type SlotLocation } from '../recovery/local-recovery.ts';
import { RandomSource } from './random-source.ts';
import { SimKernel } from './sim-kernel.ts';
import { formatSimEvent, type SimEvent } from './sim-event.ts';
import { faultEvent } from '../run/fault-event.ts';
import type { DeliveryLog, RestartRequestRecord } from '../replay/delivery-log.ts';
import type { SessionRecorder } from '../replay/session-recorder.ts';
import { SimReplay } from '../replay/sim-replay.ts';

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
  replay?: DeliveryLog;
}

/** How often task metrics are sampled into per-second figures, as Flink's metric views update. */
const METRICS_SAMPLE_INTERVAL_MS = 1000;

/**
 * The `sim` driver: runs a scenario's job on the deterministic kernel. It owns the tasks and the
 * checkpoint coordinator, turns their effects into timed events (a buffer, credit or RPC crosses
 * the network after a latency; an upload takes the storage cost model's time), polls each task
 * when it is due, injects the scenario's faults, and fails over and restores as Flink does.
 */
export class Simulation {
  scenario: Scenario;
  readonly config: FlinkConfig;
  readonly cluster: ClusterTopology;
  graph: ExecutionGraph;
  readonly kernel: SimKernel<SimEvent>;
  readonly sinkOutput = new SinkOutputLog();
  readonly job = new JobLifecycle();
  readonly coordinator: CheckpointCoordinator;
  readonly seed: number;
  readonly restores: RestoreRecord[] = [];
  readonly events: JobEvent[] = [];
  tasks: StreamTask[] = [];
  /** execution attempt of the job: 0, then +1 per restart */
  attempt = 0;
  restarts = 0;
  /** why the job failed, when it did */
  failureCause: string | undefined;
  readonly #restartStrategy: RestartBackoffTimeStrategy;
  readonly #trace: ((line: string) => void) | undefined;
  readonly #lsmStorage: LsmStorageFactory | undefined;
  /** rocksdb managed memory: one budget per slot (by slot id), shared by the slot's backends */
  readonly #slotMemory = new Map<string, LsmSharedResources | undefined>();
  readonly #metrics = new MetricsSampler();
  readonly #listeners = new Set<(event: JobEvent) => void>();
  readonly #slowdown = new Map<string, number>();
  #receiver: number[] = [];
  #sender: number[] = [];
  #latency: number[] = [];
  #wakeAt: number[] = [];
  #wakeToken: number[] = [];
  #busyUntil: number[] = [];
  /** set by rescale(): the next restart uses this checkpoint */
  #restoreFrom: CompletedCheckpoint | undefined;
  readonly #effects: TaskEffect[] = [];
  /** each host's local disk: task-local copies survive a TaskManager crash, not the loss of the host */
  readonly #disks = new Map<string, HostLocalDisk>();
  /** where each subtask (by vertex#index) runs in the current attempt, as plain strings */
  #placement = new Map<string, SlotLocation>();
  static readonly #JOB_ID = 'job';
  /** remote storage faults: uploads and downloads take this many times longer; or every one fails */
  #remoteSlowdown = 1;
  #remoteFailing = false;
  /** TaskManagers that stopped answering (their tasks are not polled, their acks not sent) */
  readonly #stalled = new Set<string>();
  readonly #recorder: SessionRecorder | undefined;
  readonly #replay: SimReplay | undefined;
  /** a recorded trigger waiting for the completion that preceded it live */
  #deferredTrigger: FaultSpec | undefined;
  /** a recorded restart request waiting for the replay to complete what it restores */
  #deferredRestart: RestartRequestRecord | undefined;

  constructor(scenario: Scenario, options: SimulationOptions = {}) {
    this.seed = options.seed ?? scenario.seed;
    this.scenario = { ...scenario, seed: this.seed };
    this.#trace = options.trace;
    this.#lsmStorage = options.lsmStorage;
    this.#recorder = options.recorder;
    this.#replay = options.replay && new SimReplay(options.replay);
    if (this.#recorder) this.#listeners.add((e) => this.#recorder!.onEvent(e, this.attempt));
    this.config = readConfig(scenario.config);
    this.cluster = new ClusterTopology(scenario.cluster);
    this.graph = new ExecutionGraph(this.scenario, this.config.maxParallelism, this.cluster);
    for (const host of this.cluster.hosts) this.#disks.set(host, options.localDisk?.(host) ?? new HostLocalDisk(host));
    this.kernel = new SimKernel<SimEvent>((event, now) => this.#handle(event, now));
    const random = new RandomSource(this.seed);
    this.#restartStrategy = createRestartBackoffTimeStrategy(this.config.restartStrategy, this.config.checkpointInterval !== undefined, random.fork('restart'));
    this.coordinator = new CheckpointCoordinator(this.config, () => this.#plan(), random.fork('coordinator'), this.#vertexParallelism());
    this.#deploy(0, undefined);
    this.#setStatus('START', 0);
    this.#coordinate(0, (e) => this.coordinator.startScheduler(0, e));
    // A replay applies the recorded faults and checkpoint triggers, at their recorded times, instead.
    const faults = this.#replay ? this.#replay.scheduledFaults() : this.scenario.faults;
    for (const fault of faults) this.kernel.schedule(fault.at_ms, { type: 'fault', fault });
    for (const request of this.#replay?.restartRequests() ?? []) this.kernel.schedule(request.time, { type: 'replay-restart', request });
    for (const f of this.#replay?.recordedFailures() ?? []) this.kernel.schedule(f.at, { type: 'decline', checkpointId: f.checkpointId, reason: f.reason });
    this.kernel.schedule(METRICS_SAMPLE_INTERVAL_MS, { type: 'metrics-sample' });
  }

  get now(): number {
    return this.kernel.now;
  }

  get jobStatus(): JobStatus {
    return this.job.status;
  }

  /** Subscribes to job events; returns the unsubscribe function. */
  onEvent(listener: (event: JobEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Handles one event; false when nothing is left to do. */
  step(): boolean {
    return this.kernel.step();
  }

  runUntil(time: number): void {
    this.kernel.runUntil(time);
  }

  /** Runs to the scenario's `run.until`, or until the job ends (FINISHED, FAILED) if that comes first. */
  runToEnd(): void {
    const until = this.scenario.run.until_ms;
    while (!this.job.isTerminal && this.kernel.nextEventTime <= until) this.kernel.step();
    if (!this.job.isTerminal && until !== Infinity) this.kernel.runUntil(until);
  }

  topology(): Topology {
    return describeTopology(this.graph, this.tasks);
  }

  metrics(): JobMetrics {
    return this.#metrics.snapshot(this.tasks, this.now);
  }

  // ---- operations of the Playground API; each returns an error message or undefined ----

  failTask(vertexId: string, subtaskIndex: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'fail-task', vertex: vertexId, subtask: subtaskIndex });
  }

  killTaskManager(taskManager: string): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'kill-task-manager', task_manager: taskManager });
  }

  loseHost(host: string): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'lose-host', host });
  }

  slowOperator(vertexId: string, factor: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'slow-operator', vertex: vertexId, factor });
  }

  triggerCheckpoint(kind: TriggerKind = 'checkpoint'): string | undefined {
    if (this.job.status !== 'RUNNING') return `cannot trigger a ${kind} while the job is ${this.job.status}`;
    this.#coordinate(this.now, (e) => this.coordinator.trigger(kind, this.now, e));
    return undefined;
  }

  /**
   * Restarts the job from its latest completed checkpoint (or savepoint, if newer) with another
   * parallelism for one vertex; keyed state is redistributed by key groups.
   */
  rescale(vertexId: string, parallelism: number): string | undefined {
    return this.#restartWith(planRescale(this.#restartContext(), vertexId, parallelism));
  }

  #keepMaxParallelism: Record<string, number> = {};

  /**
   * Restarts the job from a savepoint (Flink: stop, then run with `execution.state-recovery.path`);
   * the newest savepoint when no id is given.
   */
  restartFromSavepoint(savepointId?: number): string | undefined {
    return this.#restartWith(planSavepointRestart(this.#restartContext(), savepointId));
  }

  #restartContext(): RestartRequestContext {
    return { scenario: this.scenario, graph: this.graph, cluster: this.cluster, coordinator: this.coordinator, jobStatus: this.job.status };
  }

  /** Carries out an accepted restart request: the job fails over (not counted as a failure) and restores the plan's state. */
  #restartWith(plan: RestartPlan | { problem: string }): string | undefined {
    if ('problem' in plan) return plan.problem;
    if (plan.rescaled) {
      this.#keepMaxParallelism = plan.rescaled.keepMaxParallelism;
      this.scenario = plan.rescaled.scenario;
    }
    this.#restoreFrom = plan.restoreFrom;
    this.#emit(faultEvent(this.now, plan.fault));
    this.#failover(plan.cause, [], this.now, false);
    return undefined;
  }

  /**
   * Cancels the job (RUNNING → CANCELLING → CANCELED). Completed checkpoints are kept only if
   * `execution.checkpointing.externalized-checkpoint-retention` is RETAIN_ON_CANCELLATION.
   */
  cancel(): string | undefined {
    if (this.job.isTerminal) return `the job is already ${this.job.status}`;
    const now = this.now;
    this.#emit(faultEvent(now, { kind: 'cancel-job' }));
    this.#coordinate(now, (e) => this.coordinator.shutdown(now, e));
    for (const task of this.tasks) task.stop(false);
    this.attempt++;
    this.#setStatus('CANCEL', now);
    this.#setStatus('CANCELED', now);
    this.retainedCheckpoints =
      this.config.externalizedRetention === 'RETAIN_ON_CANCELLATION' ? this.coordinator.store.getAllCheckpoints().map((c) => c.externalPath) : [];
    return undefined;
  }

  /** Paths of the checkpoints kept after the job ended, by the externalized retention policy. */
  retainedCheckpoints: string[] = [];

  // ---- the event loop ----

  #handle(event: SimEvent, now: number): void {
    if (this.#trace) this.#trace(formatSimEvent(now, event, this.graph));
    if ('attempt' in event && event.type !== 'restart' && event.attempt !== this.attempt) return;
    switch (event.type) {
      case 'task-wake':
        if (event.token === this.#wakeToken[event.task] && !this.#isStalled(event.task)) this.#pollTask(event.task, now);
        return;
      case 'restore-failed':
        this.#failover(event.cause, event.tasks, now, true);
        return;
      case 'heartbeat-timeout':
        this.#stalled.delete(event.taskManager);
        this.#failover(`Heartbeat of TaskManager with id ${event.taskManager} timed out.`, this.#tasksOn((tm) => tm === event.taskManager), now, true);
        return;
      case 'deliver-buffer':
        return this.#deliverBuffer(event.channel, event.buffer, now);
      case 'deliver-credit':
        return this.#deliverCredit(event.channel, event.credits, now);
      case 'metrics-sample':
        this.#metrics.sample(this.tasks, now);
        if (!this.job.isTerminal) this.kernel.schedule(now + METRICS_SAMPLE_INTERVAL_MS, event);
        return;
      case 'trigger-task':
        this.tasks[event.task]!.triggerCheckpoint(event.barrier);
        return this.#wakeIfNotBusy(event.task, now);
      case 'notify-tasks':
        return this.#notifyTasks(event.checkpointId, event.complete, now);
      case 'coordinator-timer':
        if (this.#replay && event.timer.kind === 'periodic') return;
        return this.#coordinate(now, (e) => this.coordinator.onTimer(event.timer, now, e));
      case 'acknowledge':
        if (this.#isStalled(event.task)) return;
        if (this.#replay && this.#holdAcknowledge(event, now)) return;
        this.#coordinate(now, (e) => void this.coordinator.receiveAcknowledge(event.checkpointId, this.tasks[event.task]!.id, event.snapshot, event.metrics, now, e));
        if (this.#deferredTrigger) this.#replayTrigger(this.#deferredTrigger, now);
        if (this.#deferredRestart) this.#replayRestart(this.#deferredRestart, now);
        if (this.#replay) this.#maybeFinishJob();
        return;
      case 'decline':
        return this.#coordinate(now, (e) => this.coordinator.receiveDecline(event.checkpointId, event.reason, now, e));
      case 'fault':
        if (this.#replay?.isTrigger(event.fault)) return this.#replayTrigger(event.fault, now);
        this.#applyFault(event.fault);
        return;
      case 'restart':
        if (event.attempt === this.attempt) this.#restart(now);
        return;
      case 'replay-restart':
        return this.#replayRestart(event.request, now);
      case 'task-running':
        this.tasks[event.task]!.run();
        if (this.#deferredTrigger) this.#replayTrigger(this.#deferredTrigger, now);
        if (this.#deferredRestart) this.#replayRestart(this.#deferredRestart, now);
        return this.#wake(event.task, now);
      case 'local-write-done':
        this.#localDisk(event.task)?.store(this.#localKey(event.task), event.checkpointId, event.snapshot);
        return;
    }
  }

  #pollTask(i: number, now: number): void {
    this.#wakeAt[i] = Infinity;
    const effects = this.#effects;
    effects.length = 0;
    const task = this.tasks[i]!;
    const outcome = task.poll(now, effects);
    if (this.#recorder && task.recorder && !task.recorder.isEmpty) this.#recorder.addPart(this.attempt, task.id.vertexId, task.id.subtaskIndex, task.recorder.drain());
    for (const effect of effects) this.#apply(i, effect, now);
    this.#afterPoll(i, outcome);
    if (this.#deferredRestart) this.#replayRestart(this.#deferredRestart, now);
  }

  #afterPoll(i: number, outcome: PollOutcome): void {
    switch (outcome.status) {
      case 'busy':
        this.#busyUntil[i] = outcome.until;
        this.#wake(i, outcome.until);
        return;
      case 'idle':
        if (outcome.wakeAt !== undefined) this.#wake(i, outcome.wakeAt);
        return;
      case 'finished':
        this.#maybeFinishJob();
        return;
      case 'backpressured':
        return;
    }
  }

  #apply(task: number, effect: TaskEffect, now: number): void {
    const attempt = this.attempt;
    switch (effect.type) {
      case 'send':
        this.kernel.schedule(now + this.#latency[effect.channelId]!, { type: 'deliver-buffer', attempt, channel: effect.channelId, buffer: effect.buffer });
        return;
      case 'credit':
        this.kernel.schedule(now + this.#latency[effect.channelId]!, { type: 'deliver-credit', attempt, channel: effect.channelId, credits: effect.credits });
        return;
      case 'sink-output':
        this.sinkOutput.write(effect.records);
        return;
      case 'sink-commit':
        this.sinkOutput.commit(effect.transaction.id, effect.transaction.records);
        return;
      case 'persist-snapshot':
        return this.#upload(task, effect.checkpointId, effect.snapshot, effect.metrics, now);
      case 'decline-checkpoint':
        this.kernel.schedule(now + this.#rpcLatency, { type: 'decline', checkpointId: effect.checkpointId, reason: effect.reason });
        return;
    }
  }

  /** The asynchronous part: upload to checkpoint storage (cost model), then acknowledge to the JobManager. */
  #upload(task: number, checkpointId: number, snapshot: TaskStateSnapshot, metrics: Extract<TaskEffect, { type: 'persist-snapshot' }>['metrics'], now: number): void {
    const costs = this.#remoteCosts();
    const start = Math.max(now, metrics.syncEndTime);
    if (this.#remoteFailing) {
      // The write fails after one request's latency; the task declines (the checkpoint fails, the job goes on).
      this.kernel.schedule(start + costs.remote_latency_ms + this.#rpcLatency, { type: 'decline', checkpointId, reason: 'IO_EXCEPTION' });
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

  /** Runs a coordinator call and carries out its effects. */
  #coordinate(now: number, call: (effects: CoordinatorEffect[]) => void): void {
    const effects: CoordinatorEffect[] = [];
    call(effects);
    for (const effect of effects) this.#applyCoordinatorEffect(effect, now);
  }

  #applyCoordinatorEffect(effect: CoordinatorEffect, now: number): void {
    switch (effect.type) {
      case 'trigger-task':
        this.kernel.schedule(now + this.#rpcLatency, { type: 'trigger-task', attempt: this.attempt, task: this.#taskIndex(effect.subtask), barrier: effect.barrier });
        return;
      case 'notify-complete':
      case 'notify-aborted':
        this.kernel.schedule(now + this.#rpcLatency, { type: 'notify-tasks', attempt: this.attempt, checkpointId: effect.checkpointId, complete: effect.type === 'notify-complete' });
        return;
      case 'schedule':
        this.kernel.schedule(effect.at, { type: 'coordinator-timer', timer: effect.timer });
        return;
      case 'fail-job':
        // Flink fails the job globally; the restart strategy decides what happens next.
        this.#failover(effect.message, [], now, true);
        return;
      case 'discard-checkpoint':
      // The sim's coordinator finalizes at once (its `_metadata` write costs nothing): never asked.
      case 'finalize-checkpoint':
        return;
      case 'checkpoint-status':
        return this.#emit(checkpointStatusEvent(effect, now));
    }
  }



  #notifyTasks(checkpointId: number, complete: boolean, now: number): void {
    this.tasks.forEach((task, i) => {
      const disk = this.#localDisk(i);
      if (complete) disk?.confirmCheckpoint(this.#localKey(i), checkpointId);
      else disk?.abortCheckpoint(this.#localKey(i), checkpointId);
      if (complete) task.notifyCheckpointComplete(checkpointId);
      else task.notifyCheckpointAborted(checkpointId);
      this.#wakeIfNotBusy(i, now);
    });
  }

  /** Which subtasks a checkpoint involves now. */
  #plan(): CheckpointPlan {
    const subtasks = this.tasks.map((t) => ({
      id: t.id,
      isSource: t.isSource,
      ended: t.hasEndedInput,
      finalSnapshot: t.finalSnapshot,
      running: t.lifecycle.state === 'RUNNING',
    }));
    return planCheckpoint(subtasks, this.#parallelismMap());
  }

  #parallelismMap(): Record<string, number> {
    return Object.fromEntries(this.graph.vertices.map((v) => [v.id, v.parallelism]));
  }

  #vertexParallelism(): { vertexId: string; parallelism: number }[] {
    return this.graph.vertices.map((v) => ({ vertexId: v.id, parallelism: v.parallelism }));
  }

  #deliverBuffer(channel: number, buffer: NetworkBuffer, now: number): void {
    const i = this.#receiver[channel]!;
    this.tasks[i]!.receive(channel, buffer);
    this.#wakeIfNotBusy(i, now);
  }

  #deliverCredit(channel: number, credits: number, now: number): void {
    const i = this.#sender[channel]!;
    this.tasks[i]!.addCredits(channel, credits);
    this.#wakeIfNotBusy(i, now);
  }

  #wakeIfNotBusy(i: number, now: number): void {
    if (now >= this.#busyUntil[i]!) this.#wake(i, now);
  }

  /** Schedules a poll of task i at `at`, unless one is already due no later. */
  #wake(i: number, at: number): void {
    if (at >= this.#wakeAt[i]!) return;
    this.#wakeAt[i] = at;
    const token = ++this.#wakeToken[i]!;
    this.kernel.schedule(at, { type: 'task-wake', attempt: this.attempt, task: i, token });
  }

  #taskIndex(id: SubtaskId): number {
    return this.tasks.findIndex((t) => t.id.vertexId === id.vertexId && t.id.subtaskIndex === id.subtaskIndex);
  }

  // ---- deployment, failures and restore ----

  /** Deploys every subtask of the current graph, restoring from `checkpoint` when given. */
  #deploy(now: number, checkpoint: CompletedCheckpoint | undefined): void {
    const deployments = buildTaskDeployments(this.graph, this.scenario, { ...this.config, incremental: this.config.incremental, snapshotCompression: this.config.snapshotCompression }, this.attempt);
    this.tasks = deployments.map(
      (d) =>
        new StreamTask(
          d,
          now,
          isKeyedOperator(d.vertex.operator)
            ? (dep) => createKeyedStateBackend(this.config, dep.keyGroupRange, `${dep.vertex.id}_${dep.subtaskIndex}_a${dep.attempt}`, this.#lsmStorage, this.#memoryOfSlot(dep))
            : undefined,
        ),
    );
    const previousPlacement = this.#placement;
    this.#placement = new Map(this.graph.subtasks.map((s) => [`${s.id.vertexId}#${s.id.subtaskIndex}`, { slotId: s.slot.id, host: s.slot.host }]));
    this.#indexChannels();
    this.#wakeAt = this.tasks.map(() => Infinity);
    this.#wakeToken = this.tasks.map(() => 0);
    this.#busyUntil = this.tasks.map(() => now);
    for (const task of this.tasks) task.setSlowdown(this.#slowdown.get(task.id.vertexId) ?? 1);
    for (const task of this.tasks) this.#replay?.attach(task, this.attempt);
    if (this.#recorder) for (const task of this.tasks) this.#recorder.attach(task);
    if (!checkpoint) {
      for (const task of this.tasks) task.start();
      this.tasks.forEach((_, i) => this.#wake(i, now));
      return;
    }
    this.#restoreTasks(now, checkpoint, previousPlacement);
  }

  /**
   * Every subtask restores its share of the checkpoint: from its host's local copy when it came
   * back to its previous slot and the copy is whole (task-local recovery), else from remote.
   */
  #restoreTasks(now: number, checkpoint: CompletedCheckpoint, previousPlacement: ReadonlyMap<string, SlotLocation>): void {
    const record: RestoreRecord = { time: now, checkpointId: checkpoint.id, isSavepoint: checkpoint.isSavepoint, subtasks: [] };
    const failed: Array<{ task: number; reason: string }> = [];
    this.tasks.forEach((task, i) => {
      const info = this.graph.subtasks[i]!;
      const parallelism = this.graph.vertex(task.id.vertexId).parallelism;
      const target = { ...task.id, parallelism, keyGroupRange: info.keyGroupRange };
      const key = `${task.id.vertexId}#${task.id.subtaskIndex}`;
      // What the subtask's share of the checkpoint weighs in remote storage (after a rescale, its key groups' share).
      const { bytes } = assignSubtaskState(checkpoint, target, () => undefined);
      const decision = decideSubtaskRestore({
        jobId: Simulation.#JOB_ID,
        subtask: task.id,
        checkpointId: checkpoint.id,
        localRecovery: this.config.localRecovery,
        rescaled: (checkpoint.parallelism[task.id.vertexId] ?? parallelism) !== parallelism,
        previousSlot: previousPlacement.get(key),
        slot: this.#placement.get(key)!,
        disk: this.#localDisk(i),
        remote: this.#remoteFailing ? 'missing' : { bytes },
        costs: this.#remoteCosts(),
      });
      const { restore, remoteBytes } = this.#assignState(checkpoint, target, decision.source === 'local' ? decision.snapshot : undefined);
      if (decision.source === 'failed') failed.push({ task: i, reason: decision.reason });
      const durationMs = decision.source === 'failed' || bytes === 0 ? 0 : decision.durationMs;
      const source = decision.source === 'local' ? 'local' : 'remote';
      record.subtasks.push({ ...task.id, source, ...(decision.source === 'remote' ? { reason: decision.reason } : {}), bytes, remoteBytes, durationMs });
      this.#localDisk(i)?.pruneAllBut(this.#localKey(i), checkpoint.id);
      task.initialize(restore);
      this.kernel.schedule(now + durationMs, { type: 'task-running', attempt: this.attempt, task: i });
    });
    this.restores.push(record);
    this.coordinator.stats.reportRestoredCheckpoint(checkpoint.id, now, checkpoint.isSavepoint, checkpoint.externalPath);
    this.#emit({ type: 'restore', time: now, restore: record });
    // A subtask whose state can be read from nowhere fails the restore once the read was tried:
    // the restart strategy decides what happens next.
    if (failed.length > 0) {
      const cause = `Restoring checkpoint ${checkpoint.id} failed: ${failed[0]!.reason}`;
      const at = now + Math.max(1, this.#remoteCosts().remote_latency_ms);
      this.kernel.schedule(at, { type: 'restore-failed', attempt: this.attempt, tasks: failed.map((f) => f.task), cause });
    }
  }

  /**
   * A subtask's share of the checkpoint, with the bytes of it read from remote storage: from its
   * local copy (every run it references on the host's disk) nothing, else its state and the shared
   * runs it references.
   */
  #assignState(checkpoint: CompletedCheckpoint, target: AssignmentTarget, localCopy: TaskStateSnapshot | undefined): SubtaskAssignment & { remoteBytes: number } {
    const sizes = new Map<string, number>();
    for (const s of checkpoint.taskStates.values()) for (const f of s.sharedFiles ?? []) sizes.set(f.name, f.sizeBytes);
    if (!localCopy) {
      const assignment = assignSubtaskState(checkpoint, target, (name) => this.coordinator.sharedState.contents(name));
      return { ...assignment, remoteBytes: assignment.bytes };
    }
    const carried = new Map((localCopy.sharedFiles ?? []).map((f) => [f.name, f.contents]));
    let remoteBytes = 0;
    const local = { ...checkpoint, taskStates: new Map(checkpoint.taskStates).set(subtaskKey(target), localCopy) };
    const assignment = assignSubtaskState(local, target, (name) => {
      if (carried.get(name) !== undefined) return carried.get(name);
      remoteBytes += sizes.get(name) ?? 0;
      return this.coordinator.sharedState.contents(name);
    });
    return { ...assignment, remoteBytes };
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
    const copy = this.#withRunsTheDiskLacks(task, disk, snapshot);
    disk.store(this.#localKey(task), checkpointId, copy, { complete: false, bytes: snapshot.stateSize });
    const costs = this.scenario.costs;
    // Runs the disk holds already are linked, not written: the write costs what is new to the disk.
    const written = snapshot.stateSize - (snapshot.sharedFiles ?? []).reduce((n, f) => n + (f.contents === undefined && copy.sharedFiles?.find((c) => c.name === f.name)?.contents === undefined ? f.sizeBytes : 0), 0);
    const done = start + transferMs(written, costs.local_latency_ms, costs.local_bandwidth_mb_per_s);
    this.kernel.schedule(done, { type: 'local-write-done', attempt: this.attempt, task, checkpointId, snapshot: copy });
  }

  /**
   * An incremental snapshot carries the contents of the runs it uploaded only; its local copy
   * references every run (Flink's native RocksDB checkpoint hard-links all the DB's SST files).
   * The runs the subtask's store on the disk lacks (say, after a remote restore) come from the
   * task's own backend, never from remote storage.
   */
  #withRunsTheDiskLacks(task: number, disk: HostLocalDisk, snapshot: TaskStateSnapshot): TaskStateSnapshot {
    if (!snapshot.sharedFiles) return snapshot;
    const held = new Set(disk.runsOf(this.#localKey(task)).map((r) => r.name));
    const backend = this.tasks[task]!.keyedState;
    const sharedFiles = snapshot.sharedFiles.map((f) => {
      if (f.contents !== undefined || held.has(f.name)) return f;
      const contents = backend?.sharedFileContents?.(f.name);
      return contents === undefined ? f : { ...f, contents };
    });
    return { ...snapshot, sharedFiles };
  }

  #memoryOfSlot(d: { vertex: { id: string }; subtaskIndex: number }): LsmSharedResources | undefined {
    const slot = this.graph.subtask({ vertexId: d.vertex.id, subtaskIndex: d.subtaskIndex }).slot.id;
    if (!this.#slotMemory.has(slot)) this.#slotMemory.set(slot, slotMemoryResources(this.config));
    return this.#slotMemory.get(slot);
  }

  /** The scenario's remote storage costs, slowed down by a fault. */
  #remoteCosts(): Scenario['costs'] {
    const c = this.scenario.costs;
    return { ...c, remote_latency_ms: c.remote_latency_ms * this.#remoteSlowdown, remote_bandwidth_mb_per_s: c.remote_bandwidth_mb_per_s / this.#remoteSlowdown };
  }

  #isStalled(task: number): boolean {
    if (this.#stalled.size === 0) return false;
    const place = this.#placement.get(`${this.tasks[task]!.id.vertexId}#${this.tasks[task]!.id.subtaskIndex}`);
    const slot = place && this.cluster.slots.find((s) => s.id === place.slotId);
    return slot !== undefined && this.#stalled.has(slot.taskManager);
  }

  /** Remote storage's fault state: a slow-remote-storage factor (1: none) and whether it fails. */
  get remoteStorageFaults(): { slowFactor: number; failing: boolean } {
    return { slowFactor: this.#remoteSlowdown, failing: this.#remoteFailing };
  }

  /** Slows remote storage down by `factor` (1 = normal). */
  slowRemoteStorage(factor: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'slow-remote-storage', factor });
  }

  #slowRemoteStorage(factor: number): undefined {
    this.#remoteSlowdown = factor;
    this.#emit(faultEvent(this.now, { kind: 'slow-remote-storage', factor }));
    return undefined;
  }

  /** Makes remote storage fail every write and read (true) or work again (false). */
  failRemoteStorage(failing: boolean): string | undefined {
    this.#remoteFailing = failing;
    this.#emit(faultEvent(this.now, { kind: failing ? 'fail-remote-storage' : 'heal-remote-storage' }));
    return undefined;
  }

  /** The TaskManager stops answering (a long GC pause, a hung process): its tasks freeze until heartbeat.timeout. */
  stallTaskManager(taskManager: string): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'stall-task-manager', task_manager: taskManager });
  }

  #stallTaskManager(taskManager: string): string | undefined {
    const tm = this.cluster.taskManager(taskManager)!;
    if (this.job.status !== 'RUNNING') return `the job is ${this.job.status}; nothing to stall`;
    this.#stalled.add(tm.id);
    this.#emit(faultEvent(this.now, { kind: 'stall-task-manager', taskManager: tm.id, heartbeatTimeoutMs: this.config.heartbeatTimeout }));
    this.kernel.schedule(this.now + this.config.heartbeatTimeout, { type: 'heartbeat-timeout', attempt: this.attempt, taskManager: tm.id });
    return undefined;
  }

  /** Flink's TaskLocalStateStore key: the slot (allocation), the job, the subtask. */
  #localKey(task: number): TaskLocalStateStoreKey {
    const id = this.tasks[task]!.id;
    const place = this.#placement.get(`${id.vertexId}#${id.subtaskIndex}`)!;
    return { allocationId: place.slotId, jobId: Simulation.#JOB_ID, subtask: { ...id } };
  }

  #localDisk(task: number): HostLocalDisk | undefined {
    const id = this.tasks[task]!.id;
    const place = this.#placement.get(`${id.vertexId}#${id.subtaskIndex}`);
    return place && this.#disks.get(place.host);
  }

  /** Every host's local disk itself (a driver persists or releases them). */
  hostLocalDisks(): HostLocalDisk[] {
    return [...this.#disks.values()];
  }

  /** What every host's local disk holds (for the UI and tests). */
  localDisks(): LocalDiskListing[] {
    return [...this.#disks.values()].map((d) => d.list());
  }

  /** A playground fault: damage or remove a subtask's task-local copies on a host. */
  /** `run`: only that shared run of the subtask's incremental copies (every copy linking it is damaged with it). */
  #damageLocalCopy(host: string, vertexId: string, subtaskIndex: number, mode: 'corrupt' | 'delete', run?: string): string | undefined {
    const disk = this.#disks.get(host)!;
    const selector = { vertexId, subtaskIndex, ...(run === undefined ? {} : { run }) };
    const paths = mode === 'corrupt' ? disk.corrupt(selector) : disk.delete(selector);
    if (paths.length === 0) return run === undefined ? `${host} holds no local copy of ${vertexId}#${subtaskIndex}` : `${host} holds no shared run ${run} of ${vertexId}#${subtaskIndex}`;
    this.#emit(faultEvent(this.now, { kind: `${mode}-local-copy`, host, vertex: vertexId, subtask: subtaskIndex, ...(run === undefined ? {} : { run }), paths }));
    return undefined;
  }

  corruptLocalCopy(host: string, vertexId: string, subtaskIndex: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'corrupt-local-copy', host, vertex: vertexId, subtask: subtaskIndex });
  }

  deleteLocalCopy(host: string, vertexId: string, subtaskIndex: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'delete-local-copy', host, vertex: vertexId, subtask: subtaskIndex });
  }

  #indexChannels(): void {
    const index = new Map(this.graph.subtasks.map((s, i) => [`${s.id.vertexId}#${s.id.subtaskIndex}`, i]));
    const taskIndex = (id: SubtaskId) => index.get(`${id.vertexId}#${id.subtaskIndex}`)!;
    this.#receiver = this.graph.channels.map((c) => taskIndex(c.to));
    this.#sender = this.graph.channels.map((c) => taskIndex(c.from));
    this.#latency = this.graph.channels.map((c) => (c.local ? 0 : this.scenario.costs.network_latency_ms));
  }

  /** Under replay an acknowledgement waits for its checkpoint's recorded completion time; true when it waits. */
  #holdAcknowledge(event: Extract<SimEvent, { type: 'acknowledge' }>, now: number): boolean {
    const at = this.#replay!.acknowledgeAt(event.checkpointId, now);
    if (at <= now) return false;
    if (at < Infinity) this.kernel.schedule(at, event);
    return true;
  }

  /** A recorded checkpoint trigger: it must get the recorded checkpoint id. */
  #replayTrigger(fault: FaultSpec, now: number): void {
    // The replay's job ended sooner (the sim's costs are not the live machine's): a trigger that
    // completed nothing live changes nothing here either.
    if (this.job.isTerminal && this.#replay!.skipAfterEnd()) return;
    // Live, the checkpoint before completed first (the coordinator triggers the next one at once):
    // the trigger waits for that completion here too.
    const pending = this.coordinator.pendingCheckpoints.map((p) => p.id);
    // So does one that came live once a restart had deployed its tasks, where the sim's restore takes longer.
    if (this.#replay!.completesFirst(pending, now) || !this.#allTasksRunning()) {
      this.#deferredTrigger = fault;
      return;
    }
    this.#deferredTrigger = undefined;
    const seen = this.events.length;
    this.#coordinate(now, (e) => this.coordinator.trigger(fault.type === 'trigger-savepoint' ? 'savepoint' : 'checkpoint', now, e));
    this.#replay!.checkTriggered(this.events.slice(seen), now);
    this.#maybeFinishJob();
  }

  /** Carries out a recorded rescale or savepoint restart once the replay has what it restores (else it waits). */
  #replayRestart(request: RestartRequestRecord, now: number): void {
    const completed = [...this.coordinator.store.getAllCheckpoints(), ...this.coordinator.savepoints].map((c) => c.id);
    if (!this.#replay!.restartReady(request, completed, this.#allTasksRunning())) {
      this.#deferredRestart = request;
      return;
    }
    this.#deferredRestart = undefined;
    const problem = request.operation === 'rescale' ? this.rescale(request.vertex!, request.parallelism!) : this.restartFromSavepoint(request.checkpointId);
    this.#replay!.checkRestart(request, problem, this.#restoreFrom?.id, now);
  }

  #allTasksRunning(): boolean {
    return this.job.status === 'RUNNING' && this.tasks.every((t) => t.lifecycle.state === 'RUNNING' || t.lifecycle.state === 'FINISHED');
  }

  /** Carries out a fault (from the schedule or the API) and records it; returns an error message when it cannot. */
  #applyFault(fault: FaultSpec): string | undefined {
    const problem = this.#carryOutFault(fault);
    if (problem === undefined) this.#recorder?.faultApplied(this.now, fault);
    return problem;
  }

  #carryOutFault(fault: FaultSpec): string | undefined {
    const now = this.now;
    if (fault.type === 'trigger-checkpoint' || fault.type === 'trigger-savepoint') {
      return this.triggerCheckpoint(fault.type === 'trigger-savepoint' ? 'savepoint' : 'checkpoint');
    }
    const problem = faultTargetProblem(fault, this.graph, this.cluster);
    if (problem) return problem;
    if (fault.type === 'slow-operator') return this.#slowOperator(fault.vertex, fault.factor);
    if (fault.type === 'slow-remote-storage') return this.#slowRemoteStorage(fault.factor);
    if (fault.type === 'fail-remote-storage' || fault.type === 'heal-remote-storage') return this.failRemoteStorage(fault.type === 'fail-remote-storage');
    if (fault.type === 'stall-task-manager') return this.#stallTaskManager(fault.task_manager);
    if (fault.type === 'corrupt-local-copy' || fault.type === 'delete-local-copy') {
      return this.#damageLocalCopy(fault.host, fault.vertex, fault.subtask, fault.type === 'corrupt-local-copy' ? 'corrupt' : 'delete', fault.run);
    }
    if (this.job.status !== 'RUNNING') return `the job is ${this.job.status}; nothing to fail`;
    switch (fault.type) {
      case 'fail-task': {
        const i = this.#taskIndex({ vertexId: fault.vertex, subtaskIndex: fault.subtask });
        this.#emit(faultEvent(now, { kind: 'fail-task', vertex: fault.vertex, subtask: fault.subtask }));
        return this.#failover(`Task ${fault.vertex}#${fault.subtask} failed: an exception in the operator (injected)`, [i], now, true);
      }
      case 'kill-task-manager': {
        const tm = this.cluster.taskManager(fault.task_manager)!;
        // The process dies and restarts on its host with the same resource ID and working
        // directory (Flink's FLIP-198/201), so the host's local disk and its slots survive.
        const failed = this.#tasksOn((slotTm) => slotTm === tm.id);
        this.#emit(faultEvent(now, { kind: 'kill-task-manager', taskManager: tm.id, host: tm.host }));
        return this.#failover(`TaskManager ${tm.id} on ${tm.host} was killed`, failed, now, true);
      }
      case 'lose-host': {
        const lost = this.cluster.taskManagers.filter((t) => t.host === fault.host);
        const failed = this.#tasksOn((slotTm) => lost.some((t) => t.id === slotTm));
        const others = this.cluster.hosts.filter((h) => h !== fault.host);
        this.#disks.get(fault.host)!.wipe();
        lost.forEach((tm, k) => this.cluster.replaceTaskManager(tm.id, others.length > 0 ? others[k % others.length]! : fault.host));
        this.#emit(faultEvent(now, { kind: 'lose-host', host: fault.host, taskManagers: lost.map((t) => t.id) }));
        return this.#failover(`Host ${fault.host} was lost with TaskManagers ${lost.map((t) => t.id).join(', ')}`, failed, now, true);
      }
    }
  }

  #tasksOn(onTaskManager: (tm: string) => boolean): number[] {
    return this.graph.subtasks.flatMap((s, i) => (onTaskManager(s.slot.taskManager) ? [i] : []));
  }

  #slowOperator(vertexId: string, factor: number): undefined {
    this.#slowdown.set(vertexId, factor);
    for (const task of this.tasks) if (task.id.vertexId === vertexId) task.setSlowdown(factor);
    this.#emit(faultEvent(this.now, { kind: 'slow-operator', vertex: vertexId, factor }));
    return undefined;
  }

  /**
   * A failure (or a rescale): every task is cancelled (the failed ones fail), pending checkpoints
   * are aborted, and the restart strategy decides between RESTARTING and FAILED. Flink's default
   * failover restarts the pipelined region; the playground's jobs are connected by all-to-all
   * edges, so the region is the whole job.
   */
  #failover(cause: string, failedTasks: number[], now: number, isFailure: boolean): undefined {
    if (this.job.status !== 'RUNNING') return undefined;
    for (const i of failedTasks) {
      const t = this.tasks[i]!;
      this.#emit({ type: 'task-failed', time: now, vertexId: t.id.vertexId, subtaskIndex: t.id.subtaskIndex, cause });
    }
    this.tasks.forEach((t, i) => t.stop(failedTasks.includes(i)));
    this.#coordinate(now, (e) => this.coordinator.stopScheduler(now, e));
    if (isFailure) this.#restartStrategy.notifyFailure(now);
    if (!isFailure || this.#restartStrategy.canRestart()) {
      this.#setStatus('RESTART', now, cause);
      this.attempt++;
      this.restarts += isFailure ? 1 : 0;
      const backoff = isFailure ? this.#restartStrategy.getBackoffTime() : 0;
      this.kernel.schedule(now + backoff, { type: 'restart', attempt: this.attempt });
    } else {
      this.failureCause = cause;
      this.#setStatus('FAIL', now, cause);
      this.#setStatus('GIVE_UP', now, cause);
      this.retainedCheckpoints =
        this.config.externalizedRetention === 'NO_EXTERNALIZED_CHECKPOINTS' ? [] : this.coordinator.store.getAllCheckpoints().map((c) => c.externalPath);
    }
    return undefined;
  }

  /** After the backoff: a new attempt, restored from the latest completed checkpoint. */
  #restart(now: number): void {
    const retained = [...this.coordinator.store.getAllCheckpoints(), ...this.coordinator.savepoints];
    const checkpoint = this.#replay?.restoredCheckpoint(this.attempt, retained) ?? this.#restoreFrom ?? this.coordinator.latestCheckpoint();
    this.#restoreFrom = undefined;
    this.graph = new ExecutionGraph(this.scenario, this.config.maxParallelism, this.cluster, this.#keepMaxParallelism);
    // Each subtask asks for the slot it had (and so its host's local copy); lost ones take fresh slots.
    placeOnPreviousSlots(this.graph, this.#placement);
    this.coordinator.stats.updateVertices(this.#vertexParallelism());
    this.#setStatus('RESTARTED', now);
    this.#deploy(now, checkpoint);
    this.#coordinate(now, (e) => this.coordinator.startScheduler(now, e));
  }

  #maybeFinishJob(): void {
    if (this.job.status !== 'RUNNING' || !this.tasks.every((t) => t.lifecycle.state === 'FINISHED')) return;
    if (this.#replay?.holdsJobEnd(this.coordinator.pendingCheckpoints.map((p) => p.id))) return;
    this.#coordinate(this.now, (e) => this.coordinator.shutdown(this.now, e));
    this.#setStatus('FINISH', this.now);
    // A finished job keeps no checkpoints; a failed one keeps them unless retention is NO_EXTERNALIZED.
    this.retainedCheckpoints = [];
    this.#metrics.sample(this.tasks, this.now);
  }

  #setStatus(event: Parameters<JobLifecycle['send']>[0], now: number, message?: string): void {
    if (!this.job.send(event)) return;
    this.#emit({ type: 'job-status', time: now, status: this.job.status, ...(message === undefined ? {} : { message }) });
  }

  #emit(event: JobEvent): void {
    this.events.push(event);
    for (const listener of this.#listeners) listener(event);
  }
}

/**
 * The `live` driver: the JobManager on the main thread, with one Web Worker per TaskManager.
 *
 * It runs the same engine as the sim driver (ExecutionGraph, buildTaskDeployments, the
 * CheckpointCoordinator, the restart strategy, state assignment) and reports the same events
 * (engine/run/job-events.ts) and statistics (`coordinator.stats`). What differs is the runtime:
 * - time is the wall clock, scaled by a speed factor (JobClock, shared with the TaskManagers);
 * - tasks run in the workers (workers/task-manager.ts), which talk to each other directly over a
 *   MessageChannel per remote channel; the JobManager only deploys, triggers, notifies, cancels
 *   and listens to reports (workers/protocol.ts);
 * - the upload of a snapshot is its report to the JobManager, which keeps completed checkpoints in
 *   memory (Flink's `jobmanager` checkpoint storage);
 * - killing a TaskManager terminates its worker; the JobManager notices when its heartbeats stop
 *   (heartbeat.timeout), starts a new worker on the same host, and fails over: every subtask is
 *   cancelled and, after the restart strategy's backoff, redeployed from the latest completed
 *   checkpoint.
 */
import * as Comlink from 'comlink';
import type { CoordinatorEffect, SubtaskId, TaskStateSnapshot } from '../../engine/protocol.ts';
import type { FaultSpec, Scenario } from '../../engine/scenario/scenario-types.ts';
import { readConfig } from '../../engine/config/flink-options.ts';
import type { FlinkConfig } from '../../engine/config/flink-config.ts';
import { CheckpointCoordinator, type CheckpointPlan, type TriggerKind } from '../../engine/checkpoint/checkpoint-coordinator.ts';
import type { CheckpointFailureReason } from '../../engine/checkpoint/checkpoint-failure-reason.ts';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { assignSubtaskState } from '../../engine/checkpoint/state-assignment.ts';
import { ClusterTopology, type TaskManagerInfo } from '../../engine/job/cluster-topology.ts';
import { ExecutionGraph } from '../../engine/job/execution-graph.ts';
import { JobLifecycle, type JobStatus } from '../../engine/job/job-status.ts';
import { createRestartBackoffTimeStrategy, type RestartBackoffTimeStrategy } from '../../engine/job/restart-backoff-time-strategy.ts';
import { buildTaskDeployments } from '../../engine/job/task-deployments.ts';
import { describeTopology, type Topology } from '../../engine/job/topology.ts';
import type { JobMetrics, SubtaskMetrics } from '../../engine/metrics/metrics-sampler.ts';
import { isKeyedOperator } from '../../engine/operators/operator-factory.ts';
import { checkpointStatusEvent, type JobEvent, type RestoreRecord } from '../../engine/run/job-events.ts';
import { planCheckpoint } from '../../engine/checkpoint/checkpoint-plan.ts';
import { SinkOutputLog } from '../../engine/run/sink-output-log.ts';
import { RandomSource } from '../../engine/sim/random-source.ts';
import type { ExecutionState } from '../../engine/task/task-lifecycle.ts';
import { clockFrom, jobTimeAt, wallNow } from '../../workers/job-clock.ts';
import type { ChannelPort, DeployRequest, HeartbeatPayload, JobClock, ReportBatch, TaskManagerReport, TaskToDeploy } from '../../workers/protocol.ts';
import { jobMetricsOf } from './job-metrics.ts';
import { JobTimers } from './job-timers.ts';
import { launchWorkerTaskManager, type TaskManagerLauncher, type TaskManagerProcess } from './task-manager-process.ts';

/**
 * Heartbeats run on the wall clock at this fraction of the configured heartbeat.interval and
 * heartbeat.timeout: Flink's defaults (10 s, 50 s) become 500 ms and 2.5 s, so a killed
 * TaskManager is noticed while a learner is still watching.
 */
export const DEFAULT_HEARTBEAT_SCALE = 1 / 20;

export interface LiveDriverOptions {
  /** overrides the scenario's seed (the live run is not deterministic; the seed drives sources and jitter) */
  seed?: number;
  /** job ms per wall-clock ms; default 1 */
  speed?: number;
  /** wall ms of heartbeat per configured ms; default DEFAULT_HEARTBEAT_SCALE */
  heartbeatScale?: number;
  /** how TaskManager processes start; default one Web Worker each */
  launchTaskManager?: TaskManagerLauncher;
}

/** The JobManager's view of one registered TaskManager process. */
interface TaskManagerConnection {
  readonly info: TaskManagerInfo;
  readonly process: TaskManagerProcess;
  readonly reportPort: MessagePort;
  /** resolves once the process registered; rejects when it crashed or failed to register first */
  readonly ready: Promise<void>;
  /** wall-clock ms of the last heartbeat answer (or of the start of monitoring); undefined before registration */
  lastHeartbeat: number | undefined;
  /** heartbeat requests sent since the last answer */
  unanswered: number;
  latest: HeartbeatPayload | undefined;
}

/** What the JobManager knows of one subtask of the current attempt, from the reports. */
interface SubtaskStatus {
  state: ExecutionState;
  finalSnapshot?: TaskStateSnapshot;
}

export class LiveDriver {
  readonly scenario: Scenario;
  readonly config: FlinkConfig;
  readonly cluster: ClusterTopology;
  graph: ExecutionGraph;
  readonly sinkOutput = new SinkOutputLog();
  readonly job = new JobLifecycle();
  readonly coordinator: CheckpointCoordinator;
  readonly seed: number;
  readonly restores: RestoreRecord[] = [];
  readonly events: JobEvent[] = [];
  /** execution attempt of the job: 0, then +1 per restart */
  attempt = 0;
  restarts = 0;
  failureCause: string | undefined;
  /** Web Workers (TaskManager processes) started so far, replacements included */
  workersLaunched = 0;
  readonly #heartbeatIntervalMs: number;
  readonly #heartbeatTimeoutMs: number;
  readonly #launch: TaskManagerLauncher;
  readonly #restartStrategy: RestartBackoffTimeStrategy;
  readonly #timers: JobTimers;
  readonly #listeners = new Set<(event: JobEvent) => void>();
  readonly #slowdown = new Map<string, number>();
  readonly #taskManagers = new Map<string, TaskManagerConnection>();
  /** hosts lost with `loseHost`: their TaskManagers come back elsewhere */
  readonly #lostHosts = new Set<string>();
  #clock: JobClock;
  #status: SubtaskStatus[] = [];
  #heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  #heartbeatSeq = 0;
  #disposed = false;

  private constructor(scenario: Scenario, options: LiveDriverOptions) {
    this.seed = options.seed ?? scenario.seed;
    this.scenario = { ...scenario, seed: this.seed };
    this.config = readConfig(scenario.config);
    if (this.config.stateBackend !== 'hashmap') {
      throw new Error(`state.backend.type: ${this.config.stateBackend} is not available in the live runtime yet; use hashmap`);
    }
    this.cluster = new ClusterTopology(scenario.cluster);
    this.graph = new ExecutionGraph(this.scenario, this.config.maxParallelism, this.cluster);
    const scale = options.heartbeatScale ?? DEFAULT_HEARTBEAT_SCALE;
    this.#heartbeatIntervalMs = this.config.heartbeatInterval * scale;
    this.#heartbeatTimeoutMs = this.config.heartbeatTimeout * scale;
    this.#launch = options.launchTaskManager ?? launchWorkerTaskManager;
    this.#clock = clockFrom(0, options.speed ?? 1);
    this.#timers = new JobTimers(() => this.#clock);
    const random = new RandomSource(this.seed);
    this.#restartStrategy = createRestartBackoffTimeStrategy(this.config.restartStrategy, this.config.checkpointInterval !== undefined, random.fork('restart'));
    this.coordinator = new CheckpointCoordinator(this.config, () => this.#plan(), random.fork('coordinator'), this.#vertexParallelism());
  }

  /**
   * Starts a TaskManager process per TaskManager of the scenario's cluster, deploys the job on
   * them and starts checkpointing; resolves once every subtask is deployed.
   */
  static async start(scenario: Scenario, options: LiveDriverOptions = {}): Promise<LiveDriver> {
    const driver = new LiveDriver(scenario, options);
    try {
      await driver.#boot(options.speed ?? 1);
    } catch (error) {
      driver.dispose();
      throw error;
    }
    return driver;
  }

  async #boot(speed: number): Promise<void> {
    for (const info of this.cluster.taskManagers) this.#connect(info);
    await Promise.all([...this.#taskManagers.values()].map((tm) => tm.ready));
    this.#clock = clockFrom(0, speed);
    const deployed = this.#deploy(0, undefined);
    this.#setStatus('START', 0);
    this.#coordinate(0, (e) => this.coordinator.startScheduler(0, e));
    for (const fault of this.scenario.faults) this.#timers.schedule(fault.at_ms, () => void this.#applyFault(fault));
    // Monitoring starts now for all: the first to register must not time out waiting for the last.
    for (const tm of this.#taskManagers.values()) tm.lastHeartbeat = wallNow();
    this.#heartbeatTimer = setInterval(() => this.#heartbeat(), this.#heartbeatIntervalMs);
    await deployed;
  }

  /** Job time, ms since the job started (wall clock × speed). */
  get now(): number {
    return jobTimeAt(this.#clock, wallNow());
  }

  get jobStatus(): JobStatus {
    return this.job.status;
  }

  get speed(): number {
    return this.#clock.speed;
  }

  /** Subscribes to job events; returns the unsubscribe function. */
  onEvent(listener: (event: JobEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves with the job's status once it is FINISHED, FAILED or CANCELED. */
  whenTerminal(): Promise<JobStatus> {
    if (this.job.isTerminal) return Promise.resolve(this.job.status);
    return new Promise((resolve) => {
      const off = this.onEvent(() => {
        if (!this.job.isTerminal) return;
        off();
        resolve(this.job.status);
      });
    });
  }

  /** The TaskManager processes now registered with the JobManager (a killed one until it is noticed). */
  get taskManagers(): Array<{ id: string; host: string }> {
    return this.cluster.taskManagers.flatMap((info) => (this.#taskManagers.has(info.id) ? [{ id: info.id, host: info.host }] : []));
  }

  topology(): Topology {
    const topology = describeTopology(this.graph, []);
    topology.subtasks.forEach((s, i) => {
      const info = this.graph.subtasks[i]!;
      s.status = this.#status[i]?.state ?? 'CREATED';
      s.keyGroupRange = isKeyedOperator(this.graph.vertex(s.vertexId).operator) ? { ...info.keyGroupRange } : null;
    });
    return topology;
  }

  /** The subtask figures of the last heartbeat of each TaskManager (current attempt only). */
  metrics(): JobMetrics {
    const subtasks: Array<SubtaskMetrics & { taskIndex: number }> = [];
    for (const tm of this.#taskManagers.values()) {
      if (tm.latest?.attempt === this.attempt) subtasks.push(...tm.latest.subtasks);
    }
    subtasks.sort((a, b) => a.taskIndex - b.taskIndex);
    return jobMetricsOf(subtasks.map(({ taskIndex: _, ...s }) => s), this.now);
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
    const now = this.now;
    this.#coordinate(now, (e) => this.coordinator.trigger(kind, now, e));
    return undefined;
  }

  /** Job ms per wall-clock ms from now on; the TaskManagers get the new clock. */
  setSpeed(factor: number): string | undefined {
    if (!(factor > 0) || !Number.isFinite(factor)) return `speed must be a positive number, got ${factor}`;
    this.#clock = clockFrom(this.now, factor);
    this.#timers.rearm();
    for (const tm of this.#taskManagers.values()) void tm.process.gateway.setClock(this.#clock);
    return undefined;
  }

  /** Cancels the job (RUNNING → CANCELLING → CANCELED); the TaskManagers stay up until dispose(). */
  cancel(): string | undefined {
    if (this.job.isTerminal) return `the job is already ${this.job.status}`;
    const now = this.now;
    this.#coordinate(now, (e) => this.coordinator.shutdown(now, e));
    this.#cancelTasks();
    this.attempt++;
    this.#setStatus('CANCEL', now);
    this.#setStatus('CANCELED', now);
    this.#stopHeartbeats();
    return undefined;
  }

  /** Stops everything: timers, heartbeats, and every TaskManager process. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#stopHeartbeats();
    this.#timers.clear();
    for (const tm of this.#taskManagers.values()) this.#closeConnection(tm);
    this.#taskManagers.clear();
  }

  // ---- TaskManager processes and heartbeats ----

  /**
   * Starts the process of a TaskManager and registers it (Flink: the ResourceManager gives the
   * JobManager a new TaskExecutor). `ready` rejects when the process crashes or fails to register
   * before it registered; a crash at any time makes the TaskManager lost.
   */
  #connect(info: TaskManagerInfo): TaskManagerConnection {
    const process = this.#launch(`TaskManager ${info.id} (${info.host})`);
    this.workersLaunched++;
    const reports = new MessageChannel();
    let crash: (message: string) => void = () => {};
    const crashed = new Promise<never>((_, reject) => (crash = (message) => reject(new Error(message))));
    const registered = process.gateway.register(Comlink.transfer({ taskManagerId: info.id, host: info.host, reportPort: reports.port2 }, [reports.port2]));
    const ready = Promise.race([registered, crashed]).then(() => undefined);
    const tm: TaskManagerConnection = { info, process, reportPort: reports.port1, ready, lastHeartbeat: undefined, unanswered: 0, latest: undefined };
    ready.then(
      () => {
        tm.lastHeartbeat ??= wallNow();
      },
      (error: unknown) => this.#onTaskManagerLost(tm, `TaskManager ${info.id} on ${info.host} did not start: ${error instanceof Error ? error.message : String(error)}`),
    );
    reports.port1.onmessage = (event: MessageEvent<ReportBatch>) => {
      if (this.#taskManagers.get(info.id) === tm) this.#onReports(event.data.reports);
    };
    process.onCrash((message) => {
      crash(message);
      this.#onTaskManagerLost(tm, `TaskManager ${info.id} on ${info.host} crashed: ${message}`);
    });
    this.#taskManagers.set(info.id, tm);
    return tm;
  }

  #closeConnection(tm: TaskManagerConnection): void {
    tm.reportPort.onmessage = null;
    tm.reportPort.close();
    tm.process.terminate();
  }

  /**
   * Flink's HeartbeatManager: ask every TaskManager; one silent for heartbeat.timeout is lost.
   * "Silent" also needs the requests it left unanswered to cover the timeout: after the main
   * thread itself stalled, a timer can run before the answers queued meanwhile are read, and a
   * live TaskManager must not be declared lost for that.
   */
  #heartbeat(): void {
    const seq = ++this.#heartbeatSeq;
    const wall = wallNow();
    const requestsPerTimeout = Math.max(2, Math.ceil(this.#heartbeatTimeoutMs / this.#heartbeatIntervalMs));
    for (const tm of [...this.#taskManagers.values()]) {
      if (tm.lastHeartbeat === undefined) continue;
      if (wall - tm.lastHeartbeat > this.#heartbeatTimeoutMs && tm.unanswered >= requestsPerTimeout) {
        this.#onTaskManagerLost(tm, `Heartbeat of TaskManager with id ${tm.info.id} timed out.`);
        continue;
      }
      tm.unanswered++;
      tm.process.gateway.heartbeat(seq).then(
        (payload) => {
          tm.lastHeartbeat = wallNow();
          tm.unanswered = 0;
          tm.latest = payload;
        },
        () => {},
      );
    }
  }

  #stopHeartbeats(): void {
    if (this.#heartbeatTimer !== undefined) clearInterval(this.#heartbeatTimer);
    this.#heartbeatTimer = undefined;
  }

  /**
   * A TaskManager is gone: a new process takes its place (on the same host, unless the host was
   * lost), and the subtasks it ran fail, which fails the job over (even when it ran none: the
   * job is one failover region, as in the sim driver).
   */
  #onTaskManagerLost(tm: TaskManagerConnection, cause: string): void {
    // While the job starts, a TaskManager that cannot start fails the start instead (no relaunch loop).
    if (this.#taskManagers.get(tm.info.id) !== tm || this.#disposed || this.job.status === 'CREATED') return;
    this.#taskManagers.delete(tm.info.id);
    this.#closeConnection(tm);
    const failed = this.#tasksOn(tm.info.id);
    // A crashed TaskManager comes back on its host with the same resource ID (Flink's FLIP-198/201,
    // as in the sim driver); one whose host was lost gets a new ID on another host.
    const info = this.#lostHosts.has(tm.info.host) ? this.cluster.replaceTaskManager(tm.info.id, this.#hostFor(tm.info.host)) : tm.info;
    this.#connect(info);
    this.#failover(`TaskManager ${tm.info.id} on ${tm.info.host} was lost: ${cause}`, failed, this.now, true);
  }

  #hostFor(host: string): string {
    if (!this.#lostHosts.has(host)) return host;
    const others = this.cluster.hosts.filter((h) => !this.#lostHosts.has(h));
    if (others.length === 0) return host;
    const load = (h: string) => this.cluster.taskManagers.filter((t) => t.host === h).length;
    return others.reduce((best, h) => (load(h) < load(best) ? h : best));
  }

  #tasksOn(taskManager: string): number[] {
    return this.graph.subtasks.flatMap((s, i) => (s.slot.taskManager === taskManager ? [i] : []));
  }

  // ---- reports from the TaskManagers ----

  #onReports(reports: readonly TaskManagerReport[]): void {
    for (const report of reports) {
      // The sink's writes happened in the external system when they were sent, whatever the attempt.
      if (report.type === 'sink-output') this.sinkOutput.write(report.records);
      else if (report.type === 'sink-commit') this.sinkOutput.commit(report.transaction.id, report.transaction.records);
      else if (report.attempt === this.attempt && this.job.status === 'RUNNING') this.#onTaskReport(report);
    }
  }

  #onTaskReport(report: Exclude<TaskManagerReport, { type: 'sink-output' | 'sink-commit' }>): void {
    const status = this.#status[report.taskIndex];
    const subtask = this.graph.subtasks[report.taskIndex];
    if (!status || !subtask) return;
    const now = this.now;
    switch (report.type) {
      case 'task-state':
        status.state = report.state;
        if (report.state === 'FAILED') {
          this.#failover(`Task ${subtask.id.vertexId}#${subtask.id.subtaskIndex} failed: ${report.cause ?? 'unknown cause'}`, [report.taskIndex], now, true);
        } else if (report.state === 'FINISHED') this.#maybeFinishJob(now);
        return;
      case 'task-ended-input':
        status.finalSnapshot = report.finalSnapshot;
        return;
      case 'upload-snapshot': {
        // The snapshot is stored (here: in the JobManager's memory); the subtask acknowledges.
        const metrics = { ...report.metrics, asyncDurationMs: Math.max(0, now - report.metrics.syncEndTime), ackTimestamp: now };
        this.#coordinate(now, (e) => void this.coordinator.receiveAcknowledge(report.checkpointId, subtask.id, report.snapshot, metrics, now, e));
        return;
      }
      case 'decline-checkpoint':
        this.#coordinate(now, (e) => this.coordinator.receiveDecline(report.checkpointId, report.reason as CheckpointFailureReason, now, e));
        return;
    }
  }

  // ---- the checkpoint coordinator ----

  #coordinate(now: number, call: (effects: CoordinatorEffect[]) => void): void {
    const effects: CoordinatorEffect[] = [];
    call(effects);
    for (const effect of effects) this.#applyCoordinatorEffect(effect, now);
  }

  #applyCoordinatorEffect(effect: CoordinatorEffect, now: number): void {
    switch (effect.type) {
      case 'trigger-task': {
        const index = this.#taskIndex(effect.subtask);
        const tm = this.#taskManagers.get(this.graph.subtasks[index]!.slot.taskManager);
        void tm?.process.gateway.triggerCheckpoint(this.attempt, index, effect.barrier);
        return;
      }
      case 'notify-complete':
      case 'notify-aborted': {
        const outcome = effect.type === 'notify-complete' ? 'complete' : 'aborted';
        for (const tm of this.#taskManagers.values()) void tm.process.gateway.notifyCheckpoint(this.attempt, effect.checkpointId, outcome);
        return;
      }
      case 'schedule':
        this.#timers.schedule(effect.at, (at) => this.#coordinate(at, (e) => this.coordinator.onTimer(effect.timer, at, e)));
        return;
      case 'fail-job':
        this.#failover(effect.message, [], now, true);
        return;
      case 'discard-checkpoint':
        return;
      case 'checkpoint-status':
        return this.#emit(checkpointStatusEvent(effect, now));
    }
  }



  /** Which subtasks a checkpoint involves now, from what the TaskManagers reported; not possible while any is starting. */
  /** Which subtasks a checkpoint involves now, from the TaskManagers' last reports. */
  #plan(): CheckpointPlan {
    const subtasks = this.graph.subtasks.map((s, i) => {
      const status = this.#status[i];
      return {
        id: s.id,
        isSource: this.graph.vertex(s.id.vertexId).operator.type === 'source',
        ended: status?.finalSnapshot !== undefined,
        finalSnapshot: status?.finalSnapshot,
        running: status?.state === 'RUNNING',
      };
    });
    return planCheckpoint(subtasks, Object.fromEntries(this.graph.vertices.map((v) => [v.id, v.parallelism])));
  }


  #vertexParallelism(): { vertexId: string; parallelism: number }[] {
    return this.graph.vertices.map((v) => ({ vertexId: v.id, parallelism: v.parallelism }));
  }

  #taskIndex(id: SubtaskId): number {
    return this.graph.subtasks.findIndex((s) => s.id.vertexId === id.vertexId && s.id.subtaskIndex === id.subtaskIndex);
  }

  // ---- deployment, failures and restore ----

  /**
   * Deploys every subtask of the current graph on the TaskManagers of its slots, with a new
   * MessageChannel per channel between two TaskManagers; restores from `checkpoint` when given.
   */
  async #deploy(now: number, checkpoint: CompletedCheckpoint | undefined): Promise<void> {
    const attempt = this.attempt;
    const deployments = buildTaskDeployments(this.graph, this.scenario, { ...this.config, incremental: this.config.incremental }, attempt);
    this.#status = this.graph.subtasks.map(() => ({ state: 'DEPLOYING' }));
    const requests = new Map<string, { tasks: TaskToDeploy[]; ports: ChannelPort[] }>();
    const requestFor = (tm: string) => requests.get(tm) ?? requests.set(tm, { tasks: [], ports: [] }).get(tm)!;
    const bytes: number[] = [];
    this.graph.subtasks.forEach((s, i) => {
      const task: TaskToDeploy = { taskIndex: i, deployment: deployments[i]!, slowdown: this.#slowdown.get(s.id.vertexId) ?? 1 };
      if (checkpoint) {
        const target = { ...s.id, parallelism: this.graph.vertex(s.id.vertexId).parallelism, keyGroupRange: s.keyGroupRange };
        const assignment = assignSubtaskState(checkpoint, target, (name) => this.coordinator.sharedState.contents(name));
        task.restore = assignment.restore;
        bytes[i] = assignment.bytes;
      }
      requestFor(s.slot.taskManager).tasks.push(task);
    });
    for (const c of this.graph.channels) {
      if (c.local) continue;
      const { port1, port2 } = new MessageChannel();
      requestFor(this.graph.subtask(c.from).slot.taskManager).ports.push({ channelId: c.id, end: 'sender', port: port1 });
      requestFor(this.graph.subtask(c.to).slot.taskManager).ports.push({ channelId: c.id, end: 'receiver', port: port2 });
    }
    const durations: number[] = [];
    const calls = [...requests].map(async ([tmId, { tasks, ports }]) => {
      const tm = this.#taskManagers.get(tmId);
      if (!tm) return;
      const request: DeployRequest = { attempt, clock: this.#clock, stateBackend: this.config.stateBackend, tasks, ports };
      const result = await tm.process.gateway.deploy(Comlink.transfer(request, ports.map((p) => p.port)));
      // From the JobManager's call to the subtask running: the state's trip to the TaskManager and its loading.
      for (const i of result.taskIndexes) durations[i] = this.now - now;
    });
    try {
      await Promise.all(calls);
    } catch (error) {
      if (attempt !== this.attempt) return;
      this.#failover(`Deployment failed: ${error instanceof Error ? error.message : String(error)}`, [], this.now, true);
      return;
    }
    if (checkpoint && attempt === this.attempt) this.#reportRestore(now, checkpoint, bytes, durations);
  }

  #reportRestore(now: number, checkpoint: CompletedCheckpoint, bytes: number[], durations: number[]): void {
    const record: RestoreRecord = { time: now, checkpointId: checkpoint.id, isSavepoint: checkpoint.isSavepoint, subtasks: [] };
    this.graph.subtasks.forEach((s, i) => {
      record.subtasks.push({ ...s.id, source: 'remote', bytes: bytes[i] ?? 0, durationMs: durations[i] ?? 0 });
    });
    this.restores.push(record);
    this.coordinator.stats.reportRestoredCheckpoint(checkpoint.id, now, checkpoint.isSavepoint, checkpoint.externalPath);
    this.#emit({ type: 'restore', time: now, restore: record });
  }

  /** Carries out a fault (from the schedule or the API); returns an error message when it cannot. */
  #applyFault(fault: FaultSpec): string | undefined {
    const now = this.now;
    if (fault.type === 'trigger-checkpoint' || fault.type === 'trigger-savepoint') {
      return this.triggerCheckpoint(fault.type === 'trigger-savepoint' ? 'savepoint' : 'checkpoint');
    }
    if (fault.type === 'slow-operator') return this.#slowOperator(fault.vertex, fault.factor);
    if (this.job.status !== 'RUNNING') return `the job is ${this.job.status}; nothing to fail`;
    switch (fault.type) {
      case 'fail-task': {
        const i = this.#taskIndex({ vertexId: fault.vertex, subtaskIndex: fault.subtask });
        if (i < 0) return `no subtask ${fault.vertex}#${fault.subtask}`;
        this.#emit({ type: 'fault', time: now, description: `fail task ${fault.vertex}#${fault.subtask}` });
        const tm = this.#taskManagers.get(this.graph.subtasks[i]!.slot.taskManager);
        void tm?.process.gateway.failTask(this.attempt, i, 'an exception in the operator (injected)');
        return undefined;
      }
      case 'kill-task-manager': {
        const tm = this.#taskManagers.get(fault.task_manager);
        if (!tm) return `no TaskManager "${fault.task_manager}" (running: ${this.cluster.taskManagers.map((t) => t.id).join(', ')})`;
        this.#emit({ type: 'fault', time: now, description: `kill TaskManager ${tm.info.id} on ${tm.info.host}; it restarts on ${tm.info.host}` });
        // The process dies; the JobManager is not told: it notices the missing heartbeats.
        tm.process.terminate();
        return undefined;
      }
      case 'lose-host': {
        if (!this.cluster.hosts.includes(fault.host)) return `no host "${fault.host}" (hosts: ${this.cluster.hosts.join(', ')})`;
        const lost = [...this.#taskManagers.values()].filter((tm) => tm.info.host === fault.host);
        this.#lostHosts.add(fault.host);
        this.#emit({ type: 'fault', time: now, description: `lose host ${fault.host} (${lost.map((tm) => tm.info.id).join(', ')})` });
        for (const tm of lost) tm.process.terminate();
        return undefined;
      }
      default:
        return `${fault.type} is not available in the live runtime yet`;
    }
  }

  #slowOperator(vertexId: string, factor: number): string | undefined {
    if (!this.graph.vertices.some((v) => v.id === vertexId)) return `unknown vertex "${vertexId}"`;
    if (!(factor > 0)) return `factor must be more than 0, got ${factor}`;
    this.#slowdown.set(vertexId, factor);
    for (const tm of this.#taskManagers.values()) void tm.process.gateway.slowOperator(vertexId, factor);
    this.#emit({ type: 'fault', time: this.now, description: `slow ${vertexId} by ×${factor}` });
    return undefined;
  }

  /** Every TaskManager cancels the current attempt's subtasks (fire and forget: a dead one cannot answer). */
  #cancelTasks(): void {
    for (const tm of this.#taskManagers.values()) void tm.process.gateway.cancel(this.attempt);
    for (const status of this.#status) if (status.state !== 'FINISHED' && status.state !== 'FAILED') status.state = 'CANCELED';
  }

  /**
   * A failure: every subtask is cancelled (the failed ones fail), pending checkpoints are aborted,
   * and the restart strategy decides between RESTARTING and FAILED (the whole job is one region,
   * as in the sim driver).
   */
  #failover(cause: string, failedTasks: number[], now: number, isFailure: boolean): void {
    if (this.job.status !== 'RUNNING') return;
    for (const i of failedTasks) {
      const s = this.graph.subtasks[i]!;
      this.#emit({ type: 'task-failed', time: now, vertexId: s.id.vertexId, subtaskIndex: s.id.subtaskIndex, cause });
    }
    this.#cancelTasks();
    for (const i of failedTasks) this.#status[i]!.state = 'FAILED';
    this.#coordinate(now, (e) => this.coordinator.stopScheduler(now, e));
    if (isFailure) this.#restartStrategy.notifyFailure(now);
    if (!isFailure || this.#restartStrategy.canRestart()) {
      this.#setStatus('RESTART', now, cause);
      const attempt = ++this.attempt;
      this.restarts += isFailure ? 1 : 0;
      const backoff = isFailure ? this.#restartStrategy.getBackoffTime() : 0;
      this.#timers.schedule(now + backoff, () => void this.#restart(attempt));
    } else {
      this.failureCause = cause;
      this.#setStatus('FAIL', now, cause);
      this.#setStatus('GIVE_UP', now, cause);
      this.#stopHeartbeats();
    }
  }

  /** After the backoff, once every TaskManager (replacements too) is up: a new attempt from the latest completed checkpoint. */
  async #restart(attempt: number): Promise<void> {
    // One that does not start is lost (and started again) on its own; the restart waits for none of those.
    await Promise.all(this.cluster.taskManagers.map((info) => this.#taskManagers.get(info.id)?.ready.catch(() => {})));
    if (attempt !== this.attempt || this.job.status !== 'RESTARTING' || this.#disposed) return;
    const now = this.now;
    const checkpoint = this.coordinator.latestCheckpoint();
    this.graph = new ExecutionGraph(this.scenario, this.config.maxParallelism, this.cluster);
    this.coordinator.stats.updateVertices(this.#vertexParallelism());
    this.#setStatus('RESTARTED', now);
    void this.#deploy(now, checkpoint);
    this.#coordinate(now, (e) => this.coordinator.startScheduler(now, e));
  }

  #maybeFinishJob(now: number): void {
    if (this.job.status !== 'RUNNING' || !this.#status.every((s) => s.state === 'FINISHED')) return;
    this.#coordinate(now, (e) => this.coordinator.shutdown(now, e));
    this.#setStatus('FINISH', now);
    this.#stopHeartbeats();
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

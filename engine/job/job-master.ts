import type { CoordinatorEffect, CoordinatorTimer, SubtaskCheckpointMetrics, SubtaskId, TaskStateSnapshot } from '../protocol.ts';
import type { FaultSpec, Scenario } from '../scenario/scenario-types.ts';
import { readConfig } from '../config/flink-options.ts';
import type { FlinkConfig } from '../config/flink-config.ts';
import { CheckpointCoordinator, type TriggerKind } from '../checkpoint/checkpoint-coordinator.ts';
import type { CheckpointFailureReason } from '../checkpoint/checkpoint-failure-reason.ts';
import { subtaskKey, type CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import type { SharedFileReader } from '../checkpoint/state-assignment.ts';
import { planCheckpoint, type PlannedSubtask } from '../checkpoint/checkpoint-plan.ts';
import { retainOnTermination } from '../storage/checkpoint-storage.ts';
import type { HostLocalDisk } from '../recovery/host-local-disk.ts';
import type { SlotLocation } from '../recovery/local-recovery.ts';
import { placeOnPreviousSlots } from '../recovery/slot-selection.ts';
import { RandomSource } from '../sim/random-source.ts';
import { checkpointStatusEvent, type JobEvent, type RestoreRecord, type RuntimeNotice } from '../run/job-events.ts';
import { faultEvent, type FaultDetail } from '../run/fault-event.ts';
import type { SessionRecorder } from '../replay/session-recorder.ts';
import { ClusterTopology } from './cluster-topology.ts';
import { ExecutionGraph } from './execution-graph.ts';
import { faultTargetProblem } from './fault-target.ts';
import { JobLifecycle, type JobStatus, type JobStatusEvent } from './job-status.ts';
import type { JobMasterEffect } from './job-master-effect.ts';
import type { JobOperation, OperationOrigin } from './job-operation.ts';
import { createRestartBackoffTimeStrategy, type RestartBackoffTimeStrategy } from './restart-backoff-time-strategy.ts';
import { planRescale, planSavepointRestart, type RestartPlan } from './restart-request.ts';
import { planRestore, type RestorePlan, type RestoredCheckpointView } from './restore-planner.ts';
import { TaskManagerLiveness, type TaskManagerHealth } from './task-manager-liveness.ts';
import { subtaskName, type TaskMessage } from './task-message.ts';
import { message, renderEnglish } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

/**
 * What a job's first attempt starts from: a savepoint (or retained checkpoint) the user submits
 * it from, or the checkpoint a JobManager failover recovers from its HA store, with the shared
 * files it refers to as checkpoint storage holds them.
 */
export type JobStartState = { savepoint: CompletedCheckpoint } | { recovered: CompletedCheckpoint; sharedFile: SharedFileReader; nextCheckpointId?: number };

export interface JobMasterOptions {
  seed: number;
  /** the job id in checkpoint paths and local-state keys */
  jobId: string;
  /** each host's local disk (task-local recovery): the runtime's own kind, in memory or persistent */
  disks: ReadonlyMap<string, HostLocalDisk>;
  /** the runtime's view of the current attempt's subtasks, for checkpoint plans (Flink's CheckpointPlanCalculator reads the execution graph) */
  subtasks: () => PlannedSubtask[];
  /** the runtime writes `_metadata` asynchronously (live): see CheckpointCoordinatorOptions */
  finalizeAsync?: boolean;
  /** records faults and events for a replay (live always; the sim when asked) */
  recorder?: SessionRecorder;
}

/**
 * The JobMaster (Flink's JobMaster with its scheduler), sans I/O: it owns the job's lifecycle
 * (JobStatus), failover and the restart strategy, the TaskManagers' registration and loss, slot
 * placement, fault validation and dispatch, restore planning and retention, and it holds the
 * checkpoint coordinator. Runtimes feed it inputs (a fault, a TaskManager lost, a task failed or
 * finished, an acknowledgement, a timer) and carry out the effects it returns; both runtimes
 * share this one class, so the sim and live cannot decide differently.
 */
export class JobMaster {
  scenario: Scenario;
  readonly config: FlinkConfig;
  readonly cluster: ClusterTopology;
  graph: ExecutionGraph;
  readonly job = new JobLifecycle();
  readonly coordinator: CheckpointCoordinator;
  readonly seed: number;
  readonly jobId: string;
  readonly events: JobEvent[] = [];
  readonly restores: RestoreRecord[] = [];
  readonly liveness: TaskManagerLiveness;
  /** execution attempt of the job: 0, then +1 per restart (older attempts are fenced off) */
  attempt = 0;
  restarts = 0;
  failureCause: string | undefined;
  /** paths of the checkpoints kept after the job ended, by the externalized retention policy */
  retainedCheckpoints: string[] = [];
  readonly #options: JobMasterOptions;
  readonly #restartStrategy: RestartBackoffTimeStrategy;
  readonly #listeners = new Set<(event: JobEvent) => void>();
  readonly #taskMessageListeners = new Set<(message: TaskMessage) => void>();
  readonly #slowdown = new Map<string, number>();
  readonly #lostHosts = new Set<string>();
  #remoteFaults = { slowFactor: 1, failing: false };
  /** where each subtask (`vertex#index`) runs in the current attempt */
  #placement = new Map<string, SlotLocation>();
  /** set by a rescale or a restart from a savepoint: the next restart restores this */
  #restoreFrom: CompletedCheckpoint | undefined;
  #keepMaxParallelism: Record<string, number> = {};
  /** when the pending restart is due (a TaskManager lost meanwhile re-plans it for then) */
  #restartDueAt = 0;
  /** the graph a restart being prepared will deploy */
  #nextGraph: ExecutionGraph | undefined;
  #nextCheckpoint: CompletedCheckpoint | undefined;
  /** the newest attempt whose tasks were cancelled (-1: none yet) */
  #cancelledUpTo = -1;
  /** a stop-with-savepoint is under way: its savepoint has not completed or failed yet */
  #stopping = false;

  constructor(scenario: Scenario, options: JobMasterOptions) {
    this.#options = options;
    this.seed = options.seed;
    this.jobId = options.jobId;
    this.scenario = { ...scenario, seed: this.seed };
    // taskmanager.numberOfTaskSlots is the cluster's slots per TaskManager (the validator checks
    // that the two agree when both are given): each slot's share of managed memory comes from it.
    this.config = { ...readConfig(scenario.config), numberOfTaskSlots: scenario.cluster.slots_per_task_manager };
    this.cluster = new ClusterTopology(scenario.cluster);
    this.graph = new ExecutionGraph(this.scenario, this.config.maxParallelism, this.cluster);
    this.liveness = new TaskManagerLiveness(this.cluster.taskManagers.map((t) => t.id));
    const random = new RandomSource(this.seed);
    this.#restartStrategy = createRestartBackoffTimeStrategy(this.config.restartStrategy, this.config.checkpointInterval !== undefined, random.fork('restart'));
    this.coordinator = new CheckpointCoordinator(this.config, () => this.#checkpointPlan(), random.fork('coordinator'), this.#vertexParallelism(), {
      finalizeAsync: options.finalizeAsync ?? false,
    });
    if (options.recorder) this.#listeners.add((e) => options.recorder!.onEvent(e, this.attempt));
  }

  get status(): JobStatus {
    return this.job.status;
  }

  get isTerminal(): boolean {
    return this.job.isTerminal;
  }

  /** The remote store's fault state: a slow-remote-storage factor (1: none) and whether it fails. */
  get remoteStorageFaults(): { slowFactor: number; failing: boolean } {
    return { ...this.#remoteFaults };
  }

  /** The scenario's remote storage costs, slowed down by a fault. */
  remoteCosts(): Scenario['costs'] {
    const c = this.scenario.costs;
    const f = this.#remoteFaults.slowFactor;
    return { ...c, remote_latency_ms: c.remote_latency_ms * f, remote_bandwidth_mb_per_s: c.remote_bandwidth_mb_per_s / f };
  }

  slowdownOf(vertexId: string): number {
    return this.#slowdown.get(vertexId) ?? 1;
  }

  /** Hosts still there (a lost host is gone for the rest of the run). */
  get liveHosts(): string[] {
    return this.cluster.hosts.filter((h) => !this.#lostHosts.has(h));
  }

  /** Where each subtask (`vertex#index`) of the current attempt runs: what a restart asks for again. */
  get placement(): ReadonlyMap<string, SlotLocation> {
    return this.#placement;
  }

  /** Hosts lost with `lose-host`, in the order they were lost. */
  get lostHosts(): string[] {
    return [...this.#lostHosts];
  }

  /** Tells this JobManager run's deployments apart from an earlier run's (undefined when the job started from nothing). */
  get executionGraphId(): string | undefined {
    return this.#executionGraphId;
  }

  #executionGraphId: string | undefined;

  /** The checkpoint a requested rescale or savepoint restart will restore, until its restart takes it. */
  get requestedRestoreId(): number | undefined {
    return this.#restoreFrom?.id;
  }

  /** Every TaskManager with what the JobMaster knows of its heartbeats (the cluster view's chips). */
  taskManagerHealth(now: number): TaskManagerHealth[] {
    return this.cluster.taskManagers.map((tm) => this.liveness.health(tm, now));
  }

  onEvent(listener: (event: JobEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every task message the job lets through from now on, and every cancellation of an attempt (task-message.ts). */
  onTaskMessage(listener: (message: TaskMessage) => void): () => void {
    this.#taskMessageListeners.add(listener);
    return () => this.#taskMessageListeners.delete(listener);
  }

  /**
   * Whether what a task of `attempt` says must be dropped: its attempt was cancelled (a failover
   * that gave up keeps the attempt number, but its tasks are cancelled all the same).
   */
  isFencedOff(attempt: number): boolean {
    return attempt < this.attempt || attempt <= this.#cancelledUpTo;
  }

  /** Whether anything watches the task messages: a runtime's hot path asks before it builds one. */
  get watchesTaskMessages(): boolean {
    return this.#taskMessageListeners.size > 0;
  }

  /** A task message the runtime let through (a commit, a delivered buffer), for whoever watches. */
  noteTaskMessage(message: TaskMessage): void {
    for (const listener of this.#taskMessageListeners) listener(message);
  }

  // ---- the job's start ----

  /**
   * Deploys the first attempt, starts checkpointing, and schedules `faults` (the scenario's, or a
   * replay's). From a savepoint the job is submitted from it (Flink's `flink run -s`,
   * execution.state-recovery.path): every subtask restores its share, redistributed by key group
   * when the parallelism differs, and a failover before the next checkpoint restores it again.
   * From a recovered checkpoint the JobManager failed over (the page reloaded mid-run): the
   * checkpoint is the store's latest again and is restored as any failover restores it.
   */
  start(now: number, effects: JobMasterEffect[], faults: readonly FaultSpec[] = this.scenario.faults, from?: JobStartState): void {
    this.#placement = placementOf(this.graph);
    const checkpoint = from && ('savepoint' in from ? from.savepoint : from.recovered);
    // Deterministic yet new: a later run can only start from a newer checkpoint than this one.
    if (checkpoint) this.#executionGraphId = `from-${checkpoint.id}`;
    if (from && 'savepoint' in from) this.coordinator.restoreSavepoint(from.savepoint);
    if (from && 'recovered' in from) this.coordinator.recoverCheckpoint(from.recovered, from.sharedFile, from.nextCheckpointId);
    const restore = checkpoint ? { restore: { checkpoint, previousPlacement: new Map<string, SlotLocation>() } } : {};
    effects.push({ type: 'deploy', attempt: this.attempt, graph: this.graph, ...restore });
    this.#setStatus('START', now);
    this.coordinate(now, effects, (e) => this.coordinator.startScheduler(now, e));
    for (const fault of faults) effects.push({ type: 'schedule-fault', at: fault.at_ms, fault });
  }

  // ---- operations: one path for the API, the schedule and a replay ----

  /**
   * Validates and carries out one operation; returns why it cannot be done, or undefined. A
   * refusal of a scheduled fault is reported as an event, never dropped without a word.
   */
  operate(operation: JobOperation, now: number, effects: JobMasterEffect[], origin: OperationOrigin = 'api'): string | undefined {
    const problem = this.perform(operation, now, effects, origin);
    return problem === undefined ? undefined : renderEnglish(problem);
  }

  /** `operate`, with the refusal as a message code (for a reader of another language) instead of English text. */
  perform(operation: JobOperation, now: number, effects: JobMasterEffect[], origin: OperationOrigin = 'api'): EngineMessage | undefined {
    const job = { attempt: this.attempt, status: this.job.status };
    const problem = this.#carryOut(operation, now, effects);
    // A scheduled fault is an input whatever became of it: a replay feeds it again, to be refused alike.
    if ((problem === undefined || origin === 'schedule') && isFaultSpecType(operation)) this.#options.recorder?.faultApplied(now, { ...operation, at_ms: now } as FaultSpec, problem === undefined, job);
    if (problem !== undefined && origin === 'schedule') this.#emit({ type: 'fault-not-applied', time: now, faultType: operation.type, reason: renderEnglish(problem), problem });
    return problem;
  }

  #carryOut(op: JobOperation, now: number, effects: JobMasterEffect[]): EngineMessage | undefined {
    switch (op.type) {
      case 'trigger-checkpoint':
        return this.#trigger(op.checkpoint_type === 'FULL' ? 'full-checkpoint' : 'checkpoint', now, effects);
      case 'trigger-savepoint':
        return this.#trigger('savepoint', now, effects);
      case 'stop-with-savepoint':
        return this.#stopWithSavepoint(op.drain ?? false, now, effects);
      case 'rescale':
        return this.#restartWith(planRescale(this.#restartContext(), op.vertex, op.parallelism), now, effects);
      case 'restart-from-savepoint':
        return this.#restartWith(planSavepointRestart(this.#restartContext(), op.savepoint), now, effects);
      case 'cancel':
        return this.#cancel(now, effects);
    }
    const problem = faultTargetProblem({ ...op, at_ms: now } as FaultSpec, this.graph, this.cluster);
    if (problem) return problem;
    switch (op.type) {
      case 'slow-operator':
        this.#slowdown.set(op.vertex, op.factor);
        effects.push({ type: 'slow-operator', vertex: op.vertex, factor: op.factor });
        return this.#fault(now, { kind: 'slow-operator', vertex: op.vertex, factor: op.factor });
      case 'slow-remote-storage':
        return this.#setRemoteFaults({ slowFactor: op.factor }, { kind: 'slow-remote-storage', factor: op.factor }, now, effects);
      case 'fail-remote-storage':
        return this.#setRemoteFaults({ failing: true }, { kind: 'fail-remote-storage' }, now, effects);
      case 'heal-remote-storage':
        return this.#setRemoteFaults({ failing: false }, { kind: 'heal-remote-storage' }, now, effects);
      case 'corrupt-local-copy':
      case 'delete-local-copy':
        return this.#damageLocalCopy(op, now);
      case 'fail-task':
        return this.#failTask(op.vertex, op.subtask, now, effects);
      case 'kill-task-manager':
        return this.#killTaskManager(op.task_manager, now, effects);
      case 'stall-task-manager':
        return this.#stallTaskManager(op.task_manager, now, effects);
      case 'lose-host':
        return this.#loseHost(op.host, now, effects);
    }
  }

  triggerCheckpoint(kind: TriggerKind, now: number, effects: JobMasterEffect[]): string | undefined {
    const problem = this.#trigger(kind, now, effects);
    return problem === undefined ? undefined : renderEnglish(problem);
  }

  #trigger(kind: TriggerKind, now: number, effects: JobMasterEffect[]): EngineMessage | undefined {
    if (this.job.status !== 'RUNNING') return message('refusal.trigger-not-running', { kind, status: this.job.status });
    this.coordinate(now, effects, (e) => this.coordinator.trigger(kind, now, e));
    return undefined;
  }

  #fault(now: number, fault: FaultDetail): undefined {
    this.#emit(faultEvent(now, fault));
    return undefined;
  }

  #setRemoteFaults(change: Partial<{ slowFactor: number; failing: boolean }>, fault: FaultDetail, now: number, effects: JobMasterEffect[]): undefined {
    const healed = this.#remoteFaults.failing && change.failing === false;
    this.#remoteFaults = { ...this.#remoteFaults, ...change };
    effects.push({ type: 'remote-storage-faults', ...this.#remoteFaults, healed });
    return this.#fault(now, fault);
  }

  /** A playground fault: damage or remove a subtask's task-local copies on a host's disk (`run`: one shared run of them). */
  #damageLocalCopy(op: Extract<JobOperation, { type: 'corrupt-local-copy' | 'delete-local-copy' }>, now: number): EngineMessage | undefined {
    const disk = this.#options.disks.get(op.host)!;
    const keyGroup = op.key_group === undefined ? {} : { keyGroup: op.key_group };
    const selector = { vertexId: op.vertex, subtaskIndex: op.subtask, ...(op.run === undefined ? {} : { run: op.run }), ...keyGroup };
    const paths = op.type === 'corrupt-local-copy' ? disk.corrupt(selector) : disk.delete(selector);
    if (paths.length === 0) return nothingToDamage(op);
    return this.#fault(now, { kind: op.type, host: op.host, vertex: op.vertex, subtask: op.subtask, ...(op.run === undefined ? {} : { run: op.run }), ...keyGroup, paths });
  }

  #failTask(vertex: string, subtask: number, now: number, effects: JobMasterEffect[]): EngineMessage | undefined {
    if (this.job.status !== 'RUNNING') return message('refusal.fail-task-not-running', { status: this.job.status, vertex, subtask });
    this.#fault(now, { kind: 'fail-task', vertex, subtask });
    const task = this.#taskIndex({ vertexId: vertex, subtaskIndex: subtask });
    effects.push({ type: 'fail-task', attempt: this.attempt, task, cause: 'an exception in the operator (injected)' });
    return undefined;
  }

  /**
   * The process dies (a TaskManager can die whatever the job is doing, while it restarts too);
   * the runtime reports the broken connection back (`onTaskManagersLost`), and the TaskManager
   * comes back on its host with the same resource ID (Flink's FLIP-198/201: same working
   * directory, so its host's local disk is still there).
   */
  #killTaskManager(id: string, now: number, effects: JobMasterEffect[]): EngineMessage | undefined {
    if (this.job.isTerminal) return message('refusal.terminal-nothing-to-fail', { status: this.job.status });
    const tm = this.cluster.taskManager(id)!;
    this.#fault(now, { kind: 'kill-task-manager', taskManager: tm.id, host: tm.host });
    effects.push({ type: 'terminate-task-managers', ids: [tm.id], cause: `TaskManager ${tm.id} on ${tm.host} was killed` });
    return undefined;
  }

  /** A hung TaskManager: alive but silent. Nothing fails now: heartbeat.timeout finds it (`onHeartbeatsMissed`). */
  #stallTaskManager(id: string, now: number, effects: JobMasterEffect[]): EngineMessage | undefined {
    if (this.job.isTerminal) return message('refusal.terminal-nothing-to-stall', { status: this.job.status });
    if (this.liveness.isStalled(id)) return message('refusal.stalled-already', { taskManager: id });
    this.liveness.stalled(id, now);
    this.#fault(now, { kind: 'stall-task-manager', taskManager: id, heartbeatTimeoutMs: this.config.heartbeatTimeout });
    effects.push({ type: 'stall-task-manager', id });
    return undefined;
  }

  /** The host and its disk are gone; its TaskManagers come back on the other hosts with new IDs. */
  #loseHost(host: string, now: number, effects: JobMasterEffect[]): EngineMessage | undefined {
    if (this.job.isTerminal) return message('refusal.terminal-nothing-to-fail', { status: this.job.status });
    if (this.#lostHosts.has(host)) return message('refusal.host-lost-already', { host, left: this.liveHosts });
    if (this.liveHosts.length === 1) return message('refusal.last-host', { host });
    const lost = this.cluster.taskManagers.filter((t) => t.host === host).map((t) => t.id);
    this.#lostHosts.add(host);
    this.#options.disks.get(host)?.wipe();
    this.#fault(now, { kind: 'lose-host', host, taskManagers: lost });
    effects.push({ type: 'terminate-task-managers', ids: lost, cause: `Host ${host} was lost with TaskManagers ${lost.join(', ')}`, hostLost: host });
    return undefined;
  }

  // ---- TaskManagers: liveness is the JobMaster's, whatever the job's attempt ----

  /**
   * TaskManagers are gone (their connection broke, or heartbeat.timeout passed): each is started
   * again (on its host, or on the least loaded host left when its host was lost), and the job
   * fails over once if they ran any of its subtasks. A TaskManager without the job's tasks fails
   * nothing (Flink fails only the executions of the lost TaskManager's slots).
   */
  onTaskManagersLost(ids: readonly string[], cause: string, now: number, effects: JobMasterEffect[]): void {
    const lost = ids.filter((id) => this.liveness.isRegistered(id));
    if (lost.length === 0 || this.job.isTerminal) return;
    const failed = this.graph.subtasks.flatMap((s, i) => (lost.includes(s.slot.taskManager) ? [i] : []));
    for (const id of lost) {
      const info = this.cluster.taskManager(id)!;
      const replacement = this.#lostHosts.has(info.host) ? this.cluster.replaceTaskManager(id, this.#leastLoadedHost()) : info;
      this.liveness.replaced(id, replacement.id);
      effects.push({ type: 'start-task-manager', info: { ...replacement } });
    }
    if (this.job.status === 'RUNNING' && failed.length > 0) return this.#failover(cause, failed, now, true, effects);
    // A restart not yet deployed is planned again: it must not deploy onto the lost process.
    if (this.job.status === 'RESTARTING') this.#scheduleRestart(Math.max(now, this.#restartDueAt), effects);
  }

  /** The runtime heard from a TaskManager. */
  onHeartbeat(id: string): void {
    this.liveness.heard(id);
  }

  /** A TaskManager left heartbeats unanswered for `silentMs` (configured ms); past heartbeat.timeout it is lost. */
  onHeartbeatsMissed(id: string, silentMs: number, now: number, effects: JobMasterEffect[]): void {
    if (!this.liveness.isRegistered(id)) return;
    this.liveness.silent(id, now - silentMs);
    // Silent since it went silent: a stall began after its last answer, and counts from then in both runtimes.
    if (Math.min(silentMs, now - this.liveness.silentSince(id)!) < this.config.heartbeatTimeout) return;
    const cause = `Heartbeat of TaskManager with id ${id} timed out.`;
    // The hung process is killed (as Flink's ResourceManager releases an unreachable TaskExecutor); the runtime reports it lost.
    effects.push({ type: 'terminate-task-managers', ids: [id], cause });
  }

  #leastLoadedHost(): string {
    const load = (h: string) => this.cluster.taskManagers.filter((t) => t.host === h).length;
    return this.liveHosts.reduce((best, h) => (load(h) < load(best) ? h : best));
  }

  // ---- tasks ----

  /** A subtask of `attempt` failed (its TaskManager said so): the job fails over. */
  onTaskFailed(attempt: number, task: number, cause: string, now: number, effects: JobMasterEffect[]): void {
    if (attempt !== this.attempt) return;
    const s = this.graph.subtasks[task]!;
    this.#failover(`Task ${s.id.vertexId}#${s.id.subtaskIndex} failed: ${cause}`, [task], now, true, effects);
  }

  /** Every subtask of the current attempt finished: the job finishes (after its final checkpoint work). */
  onAllTasksFinished(now: number, effects: JobMasterEffect[]): void {
    if (this.job.status !== 'RUNNING') return;
    this.coordinate(now, effects, (e) => this.coordinator.shutdown(now, e));
    this.#setStatus('FINISH', now);
    this.#terminated(effects);
  }

  // ---- the checkpoint coordinator: its policy inside the JobMaster ----

  /** Runs a coordinator call; `fail-job` fails the job over, status changes become events, the rest goes to the runtime. */
  coordinate(now: number, effects: JobMasterEffect[], call: (e: CoordinatorEffect[]) => void): void {
    const produced: CoordinatorEffect[] = [];
    call(produced);
    const attempt = this.attempt;
    for (const effect of produced) {
      switch (effect.type) {
        case 'fail-job':
          // Flink fails the job globally; the restart strategy decides what happens next.
          this.#failover(effect.message, [], now, true, effects);
          break;
        case 'checkpoint-status': {
          this.#emit(checkpointStatusEvent(effect, now));
          if (effect.synchronous && (effect.status === 'failed' || effect.status === 'dropped')) this.#stopFailed(now, effects);
          const completed = effect.status === 'completed' && effect.checkpointId !== null ? this.completed(effect.checkpointId) : undefined;
          if (completed) effects.push({ type: 'checkpoint-completed', checkpoint: completed });
          break;
        }
        case 'trigger-task':
        case 'notify-complete':
        case 'notify-aborted':
          effects.push({ ...effect, attempt });
          break;
        default:
          effects.push(effect);
      }
    }
  }

  onCoordinatorTimer(timer: CoordinatorTimer, now: number, effects: JobMasterEffect[]): void {
    this.coordinate(now, effects, (e) => this.coordinator.onTimer(timer, now, e));
  }

  /** A subtask of `attempt` acknowledged: the runtime fenced off older attempts before it called. */
  onAcknowledge(
    attempt: number,
    checkpointId: number,
    subtask: SubtaskId,
    snapshot: TaskStateSnapshot,
    metrics: SubtaskCheckpointMetrics & { asyncDurationMs: number; ackTimestamp: number },
    now: number,
    effects: JobMasterEffect[],
  ): void {
    if (this.watchesTaskMessages) this.noteTaskMessage({ kind: 'acknowledge', time: now, attempt, checkpointId, subtask: subtaskName(subtask) });
    this.coordinate(now, effects, (e) => void this.coordinator.receiveAcknowledge(checkpointId, subtask, snapshot, metrics, now, e));
  }

  /** A subtask of `attempt` declined (`subtask` absent: a runtime that does not say which). */
  onDecline(attempt: number, checkpointId: number, reason: CheckpointFailureReason, now: number, effects: JobMasterEffect[], subtask?: SubtaskId): void {
    if (this.watchesTaskMessages) this.noteTaskMessage({ kind: 'decline', time: now, attempt, checkpointId, subtask: subtask ? subtaskName(subtask) : 'a subtask' });
    this.coordinate(now, effects, (e) => this.coordinator.receiveDecline(checkpointId, reason, now, e));
  }

  /** The runtime wrote (or failed to write) `_metadata` of a fully acknowledged checkpoint. */
  onCheckpointFinalized(checkpointId: number, written: boolean, now: number, effects: JobMasterEffect[]): void {
    this.coordinate(now, effects, (e) =>
      written ? this.coordinator.onCheckpointFinalized(checkpointId, now, e) : this.coordinator.onCheckpointFinalizeFailed(checkpointId, now, e),
    );
  }

  // ---- failover and restart ----

  /**
   * A failure (or a restart the user asked for): every task is cancelled (the failed ones fail),
   * pending checkpoints are aborted, and the restart strategy decides between RESTARTING and
   * FAILED. Flink's default failover restarts the pipelined region; the playground's jobs are
   * connected by all-to-all edges, so the region is the whole job.
   */
  #failover(cause: string, failed: readonly number[], now: number, isFailure: boolean, effects: JobMasterEffect[]): void {
    if (this.job.status !== 'RUNNING') return;
    // A stop under way ends with the attempt: its savepoint is aborted below, and the job restarts.
    this.#stopping = false;
    for (const i of failed) {
      const s = this.graph.subtasks[i]!;
      this.#emit({ type: 'task-failed', time: now, vertexId: s.id.vertexId, subtaskIndex: s.id.subtaskIndex, cause });
    }
    this.#cancelTasks(failed, now, effects);
    this.coordinate(now, effects, (e) => {
      this.coordinator.stopScheduler(now, e);
      this.coordinator.releaseAbandonedSharedFiles(e);
    });
    if (isFailure) this.#restartStrategy.notifyFailure(now);
    if (!isFailure || this.#restartStrategy.canRestart()) {
      this.#setStatus('RESTART', now, cause);
      this.restarts += isFailure ? 1 : 0;
      this.#scheduleRestart(now + (isFailure ? this.#restartStrategy.getBackoffTime() : 0), effects);
    } else {
      // Flink's ExecutionFailureHandler: the job fails with a JobException whose cause is the failure.
      this.failureCause = `org.apache.flink.runtime.JobException: Recovery is suppressed by ${this.#restartStrategy.description}\nCaused by: ${cause}`;
      this.#setStatus('FAIL', now, this.failureCause);
      this.#setStatus('GIVE_UP', now, this.failureCause);
      this.#terminated(effects);
    }
  }

  /** Every task of the current attempt is cancelled (`failed`: those that failed): from now on the attempt is fenced off. */
  #cancelTasks(failed: readonly number[], now: number, effects: JobMasterEffect[]): void {
    this.#cancelledUpTo = this.attempt;
    effects.push({ type: 'cancel-tasks', attempt: this.attempt, failed });
    if (this.watchesTaskMessages) this.noteTaskMessage({ kind: 'attempt-cancelled', time: now, attempt: this.attempt });
  }

  /** A new attempt is due at `at`; whatever an older attempt still does is fenced off from now. */
  #scheduleRestart(at: number, effects: JobMasterEffect[]): void {
    this.attempt++;
    this.#restartDueAt = at;
    this.#nextGraph = undefined;
    effects.push({ type: 'schedule-restart', at, attempt: this.attempt });
  }

  /**
   * After the backoff: the new attempt's graph, each subtask asking for the slot it had (and so
   * its host's local copy), restored from the latest completed checkpoint (or what a rescale or
   * savepoint restart asked for, or what a replay recorded).
   */
  onRestartDue(attempt: number, now: number, effects: JobMasterEffect[], recorded?: CompletedCheckpoint): void {
    if (attempt !== this.attempt || this.job.status !== 'RESTARTING') return;
    const checkpoint = recorded ?? this.#restoreFrom ?? this.coordinator.latestCheckpoint();
    this.#restoreFrom = undefined;
    if (checkpoint?.isSavepoint) this.coordinator.restoreSavepoint(checkpoint);
    const graph = new ExecutionGraph(this.scenario, this.config.maxParallelism, this.cluster, this.#keepMaxParallelism);
    placeOnPreviousSlots(graph, this.#placement);
    this.#nextGraph = graph;
    this.#nextCheckpoint = checkpoint;
    effects.push({ type: 'prepare-restart', attempt, graph, checkpoint });
  }

  /** The restart's state is at hand: the attempt is deployed and checkpointing starts again. */
  onRestartPrepared(attempt: number, now: number, effects: JobMasterEffect[]): void {
    if (attempt !== this.attempt || this.job.status !== 'RESTARTING' || !this.#nextGraph) return;
    const previousPlacement = this.#placement;
    this.graph = this.#nextGraph;
    this.#nextGraph = undefined;
    this.#placement = placementOf(this.graph);
    this.coordinator.stats.updateVertices(this.#vertexParallelism());
    this.#setStatus('RESTARTED', now);
    const checkpoint = this.#nextCheckpoint;
    effects.push({ type: 'deploy', attempt, graph: this.graph, ...(checkpoint ? { restore: { checkpoint, previousPlacement } } : {}) });
    this.coordinate(now, effects, (e) => this.coordinator.startScheduler(now, e));
  }

  /** Reading the restart's state failed (live: storage refused it): as a failed restore, the restart strategy decides. */
  onRestartFailed(attempt: number, cause: string, now: number, effects: JobMasterEffect[]): void {
    if (attempt !== this.attempt || this.job.status !== 'RESTARTING') return;
    this.#setStatus('RESTARTED', now);
    this.#failover(cause, [], now, true, effects);
  }

  /** Some subtasks' state could be read from nowhere: the attempt fails once the read was tried. */
  onRestoreFailed(attempt: number, failed: readonly number[], cause: string, now: number, effects: JobMasterEffect[]): void {
    if (attempt !== this.attempt) return;
    this.#failover(cause, failed, now, true, effects);
  }

  /** A restore of the current attempt is done: recorded, counted in the statistics, and told. */
  onRestored(attempt: number, record: RestoreRecord, checkpoint: CompletedCheckpoint): void {
    if (attempt !== this.attempt) return;
    this.restores.push(record);
    this.coordinator.stats.reportRestoredCheckpoint(checkpoint.id, record.time, checkpoint.isSavepoint, checkpoint.externalPath);
    this.#emit({ type: 'restore', time: record.time, restore: record });
  }

  /** Where each subtask of `graph` restores from, decided before anything is read (one rule for both runtimes). */
  planRestore(graph: ExecutionGraph, checkpoint: Omit<RestoredCheckpointView, 'remoteUnavailable'>, previousPlacement: ReadonlyMap<string, SlotLocation>, localCopies?: 'verified' | 'listed'): RestorePlan {
    return planRestore({
      ...(localCopies === undefined ? {} : { localCopies }),
      jobId: this.jobId,
      graph,
      checkpoint: { ...checkpoint, remoteUnavailable: this.#remoteFaults.failing },
      previousPlacement,
      disks: this.#options.disks,
      config: this.config,
      costs: this.remoteCosts(),
    });
  }

  /** The completed checkpoint (or savepoint) `id` the coordinator holds. */
  completed(id: number): CompletedCheckpoint | undefined {
    return this.coordinator.store.getAllCheckpoints().find((c) => c.id === id) ?? this.coordinator.savepoints.find((c) => c.id === id);
  }

  #restartContext() {
    return { scenario: this.scenario, graph: this.graph, cluster: this.cluster, coordinator: this.coordinator, jobStatus: this.job.status };
  }

  /** An accepted rescale or savepoint restart: the job fails over (not counted as a failure) and restores the plan's state. */
  #restartWith(plan: RestartPlan | { problem: EngineMessage }, now: number, effects: JobMasterEffect[]): EngineMessage | undefined {
    if ('problem' in plan) return plan.problem;
    if (plan.rescaled) {
      this.#keepMaxParallelism = plan.rescaled.keepMaxParallelism;
      this.scenario = plan.rescaled.scenario;
    }
    this.#restoreFrom = plan.restoreFrom;
    this.#emit(faultEvent(now, plan.fault));
    this.#failover(plan.cause, [], now, false, effects);
    return undefined;
  }

  /** Flink's cancel: RUNNING → CANCELLING → CANCELED; retention decides which checkpoints stay. */
  #cancel(now: number, effects: JobMasterEffect[]): EngineMessage | undefined {
    if (this.job.isTerminal) return message('refusal.already-terminal', { status: this.job.status });
    this.#emit(faultEvent(now, { kind: 'cancel-job' }));
    this.coordinate(now, effects, (e) => this.coordinator.shutdown(now, e));
    this.#cancelTasks([], now, effects);
    this.attempt++;
    this.#setStatus('CANCEL', now);
    this.#setStatus('CANCELED', now);
    this.#terminated(effects);
    return undefined;
  }

  /**
   * Flink's stop-with-savepoint (POST /jobs/:id/stop, StopWithSavepointTerminationManager):
   * periodic checkpoints stop (pending ones are aborted), a synchronous savepoint is triggered,
   * and once it completes every task commits what it covers and finishes, so the job ends
   * FINISHED through `onAllTasksFinished`. If the savepoint fails, checkpointing resumes and the
   * job runs on (a task-level failure fails it over, as Flink's failure manager does).
   */
  #stopWithSavepoint(drain: boolean, now: number, effects: JobMasterEffect[]): EngineMessage | undefined {
    if (this.job.status !== 'RUNNING') return message('refusal.stop-not-running', { status: this.job.status });
    if (this.#stopping) return message('refusal.stopping-already');
    this.#stopping = true;
    this.#fault(now, { kind: drain ? 'stop-with-savepoint-drain' : 'stop-with-savepoint' });
    this.coordinate(now, effects, (e) => {
      this.coordinator.stopScheduler(now, e);
      this.coordinator.triggerSynchronousSavepoint(drain ? 'DRAIN' : 'NO_DRAIN', now, e);
    });
    return undefined;
  }

  /** The stop's savepoint failed or was dropped: the job keeps running, checkpointing again. */
  #stopFailed(now: number, effects: JobMasterEffect[]): void {
    if (!this.#stopping) return;
    this.#stopping = false;
    if (this.job.status === 'RUNNING') this.coordinate(now, effects, (e) => this.coordinator.startScheduler(now, e));
  }

  /** Whether a stop-with-savepoint is under way (its savepoint neither completed nor failed yet). */
  get isStopping(): boolean {
    return this.#stopping;
  }

  /** Retention on termination (`execution.checkpointing.externalized-checkpoint-retention`). */
  #terminated(effects: JobMasterEffect[]): void {
    this.#stopping = false;
    const status = this.job.status;
    const completed = this.coordinator.store.getAllCheckpoints();
    const retain = status !== 'FINISHED' && retainOnTermination(this.config.externalizedRetention, status);
    this.retainedCheckpoints = retain ? completed.map((c) => c.externalPath) : [];
    effects.push({ type: 'job-terminated', retain, discard: retain ? [] : completed.map((c) => c.id) });
  }

  // ---- helpers ----

  #checkpointPlan() {
    const graph = this.graph;
    return planCheckpoint({
      subtasks: this.#options.subtasks(),
      precedents: (id) => graph.upstreamOf(id),
      parallelism: Object.fromEntries(this.graph.vertices.map((v) => [v.id, v.parallelism])),
      checkpointsAfterTasksFinish: this.config.checkpointsAfterTasksFinish,
    });
  }

  #vertexParallelism(): { vertexId: string; parallelism: number }[] {
    return this.graph.vertices.map((v) => ({ vertexId: v.id, parallelism: v.parallelism }));
  }

  #taskIndex(id: SubtaskId): number {
    return this.graph.subtasks.findIndex((s) => s.id.vertexId === id.vertexId && s.id.subtaskIndex === id.subtaskIndex);
  }

  #setStatus(event: JobStatusEvent['type'], now: number, message?: string): void {
    if (!this.job.send(event)) return;
    this.#emit({ type: 'job-status', time: now, status: this.job.status, ...(message === undefined ? {} : { message }) });
  }

  /** Records what the runtime did in place of what the browser lacks (one event, for the page and the session). */
  notice(notice: RuntimeNotice, now: number): void {
    this.#emit({ type: 'runtime-notice', time: now, notice });
  }

  #emit(event: JobEvent): void {
    this.events.push(event);
    for (const listener of this.#listeners) listener(event);
  }
}

function placementOf(graph: ExecutionGraph): Map<string, SlotLocation> {
  return new Map(graph.subtasks.map((s) => [subtaskKey(s.id), { slotId: s.slot.id, host: s.slot.host }]));
}

function isFaultSpecType(op: JobOperation): boolean {
  return op.type !== 'rescale' && op.type !== 'restart-from-savepoint' && op.type !== 'cancel';
}

/** Why a local-copy fault found nothing to damage on the host's disk. */
function nothingToDamage(op: Extract<JobOperation, { type: 'corrupt-local-copy' | 'delete-local-copy' }>): EngineMessage {
  const who = { host: op.host, vertex: op.vertex, subtask: op.subtask };
  if (op.run !== undefined) return message('refusal.no-shared-run', { ...who, run: op.run });
  if (op.key_group !== undefined) return message('refusal.no-key-group-copy', { ...who, keyGroup: op.key_group });
  return message('refusal.no-local-copy', who);
}

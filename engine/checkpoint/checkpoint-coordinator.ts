import type { CheckpointBarrier, CheckpointKind, CoordinatorEffect, CoordinatorTimer, StopMode, SubtaskCheckpointMetrics, SubtaskId, TaskStateSnapshot } from '../protocol.ts';
import type { FlinkConfig } from '../config/flink-config.ts';
import { checkpointFailureMessage, type CheckpointFailureReason } from './checkpoint-failure-reason.ts';
import { CheckpointFailureManager } from './checkpoint-failure-manager.ts';
import { CheckpointRequestDecider, isFailedCheckpointWithoutId, type CheckpointTriggerRequest } from './checkpoint-request-decider.ts';
import { CompletedCheckpointStore } from './completed-checkpoint-store.ts';
import type { CompletedCheckpoint } from './completed-checkpoint.ts';
import { PendingCheckpoint, type TaskAcknowledgeResult } from './pending-checkpoint.ts';
import { SharedStateRegistry } from './shared-state-registry.ts';
import { CheckpointStatsTracker } from './stats/checkpoint-stats-tracker.ts';

/** Which subtasks a checkpoint involves right now (Flink's CheckpointPlan). */
export type CheckpointPlan =
  | {
      ok: true;
      /** subtasks that inject the barrier: running sources, and running tasks whose inputs all ended */
      tasksToTrigger: SubtaskId[];
      /** every running subtask: all must acknowledge */
      tasksToAck: SubtaskId[];
      /** subtasks that finished: they take part with the state they finished with */
      finishedTasks: TaskStateSnapshot[];
      parallelism: Record<string, number>;
    }
  | { ok: false };

export type TriggerKind = 'checkpoint' | 'full-checkpoint' | 'savepoint';

export interface CheckpointCoordinatorOptions {
  /**
   * The driver writes `_metadata` itself, asynchronously (the live runtime's remote store): a
   * fully acknowledged checkpoint yields a `finalize-checkpoint` effect and completes only when
   * the driver reports the write done (onCheckpointFinalized), or fails with
   * FINALIZE_CHECKPOINT_FAILURE (onCheckpointFinalizeFailed). Without it the coordinator
   * finalizes at once (the sim, whose `_metadata` write costs nothing).
   */
  finalizeAsync?: boolean;
}

/**
 * The checkpoint coordinator (Flink's CheckpointCoordinator), sans I/O: it takes triggers,
 * timers and acknowledgements, and returns effects. Policies live apart: the request decider
 * (queue, max-concurrent, min-pause), the failure manager (tolerable failures), the completed
 * checkpoint store (retention), the stats tracker (REST figures).
 */
export class CheckpointCoordinator {
  readonly stats: CheckpointStatsTracker;
  readonly store: CompletedCheckpointStore;
  /** the shared files of incremental checkpoints in checkpoint storage */
  readonly sharedState = new SharedStateRegistry();
  readonly #decider: CheckpointRequestDecider;
  readonly #failures: CheckpointFailureManager;
  readonly #pending = new Map<number, PendingCheckpoint>();
  readonly #interval: number | undefined;
  #nextId = 1;
  #nextRequestSeq = 0;
  #lastCompletionTime = -Infinity;
  #periodicGeneration = 0;
  #nextPeriodicAt = Infinity;
  #schedulerRunning = false;
  /** ids of the synchronous savepoints (stop-with-savepoint) triggered */
  readonly #synchronousSavepoints = new Set<number>();
  /** savepoints completed, newest last (they are not in the store) */
  readonly savepoints: CompletedCheckpoint[] = [];

  constructor(
    private readonly config: FlinkConfig,
    private readonly planner: () => CheckpointPlan,
    private readonly random: { nextFloat(): number },
    vertices: { vertexId: string; parallelism: number }[],
    private readonly options: CheckpointCoordinatorOptions = {},
  ) {
    this.#interval = config.checkpointInterval;
    this.#decider = new CheckpointRequestDecider({ maxConcurrentCheckpoints: config.maxConcurrentCheckpoints, minPauseMs: config.minPause });
    this.#failures = new CheckpointFailureManager(config.tolerableFailedCheckpoints);
    this.store = new CompletedCheckpointStore(config.numRetained);
    this.stats = new CheckpointStatsTracker({ historySize: config.checkpointsHistory, vertices });
  }

  get pendingCheckpoints(): readonly PendingCheckpoint[] {
    return [...this.#pending.values()];
  }

  get numQueuedRequests(): number {
    return this.#decider.numQueuedRequests;
  }

  get lastCompletionTime(): number {
    return this.#lastCompletionTime;
  }

  /** When the periodic trigger fires next (Infinity when stopped or checkpointing is off). */
  get nextPeriodicTriggerAt(): number {
    return this.#schedulerRunning ? this.#nextPeriodicAt : Infinity;
  }

  get continuousFailureCount(): number {
    return this.#failures.continuousFailureCount;
  }

  /**
   * Starts periodic checkpoints (when the job is RUNNING): the first after a random delay in
   * [min-pause, max(interval, min-pause)], as Flink's getRandomInitDelay.
   */
  startScheduler(now: number, effects: CoordinatorEffect[]): void {
    if (this.#interval === undefined || this.#schedulerRunning) return;
    this.#schedulerRunning = true;
    const base = this.#baseInterval;
    const delay = Math.floor(this.config.minPause + this.random.nextFloat() * (base - this.config.minPause + 1));
    this.#schedulePeriodic(now + Math.min(delay, base), effects);
  }

  /**
   * Stops periodic checkpoints and aborts what is pending and queued (the job left RUNNING),
   * as Flink's CheckpointCoordinatorDeActivator does.
   */
  stopScheduler(now: number, effects: CoordinatorEffect[], reason: 'CHECKPOINT_COORDINATOR_SUSPEND' | 'CHECKPOINT_COORDINATOR_SHUTDOWN' = 'CHECKPOINT_COORDINATOR_SUSPEND'): void {
    this.#schedulerRunning = false;
    this.#periodicGeneration++;
    for (const request of this.#decider.abortAll()) this.#failBeforeTrigger(request, reason, effects);
    for (const pending of [...this.#pending.values()]) this.#abort(pending, reason, now, effects);
  }

  /** The job reached a terminal state (finished, canceled, failed): Flink shuts the coordinator down. */
  shutdown(now: number, effects: CoordinatorEffect[]): void {
    this.stopScheduler(now, effects, 'CHECKPOINT_COORDINATOR_SHUTDOWN');
    this.releaseAbandonedSharedFiles(effects);
  }

  /** The attempt's tasks were cancelled (or all ended): none of them uploads again, so the files aborted checkpoints left behind go now. */
  releaseAbandonedSharedFiles(effects: CoordinatorEffect[]): void {
    this.#discardSharedFiles(this.sharedState.releaseAllAbandoned(), effects);
  }

  onTimer(timer: CoordinatorTimer, now: number, effects: CoordinatorEffect[]): void {
    if (timer.kind === 'timeout') {
      const pending = this.#pending.get(timer.checkpointId);
      // Every subtask acknowledged in time: Flink's canceller finds it no longer pending.
      if (pending && !pending.isFinalizing) this.#abort(pending, 'CHECKPOINT_EXPIRED', now, effects);
      return;
    }
    if (timer.generation !== this.#periodicGeneration || !this.#schedulerRunning) return;
    // Fixed rate: the next trigger is due one interval after this one was due, not after now.
    // The period is the base interval, max(interval, min-pause) (Flink's ScheduledTrigger.run with
    // getCurrentCheckpointInterval() = baseInterval, set in the CheckpointCoordinator constructor).
    this.#schedulePeriodic(this.#nextPeriodicAt + this.#baseInterval, effects);
    this.#enqueue({ isPeriodic: true, isSavepoint: false, isForce: false, checkpointType: 'CONFIGURED' }, now, effects);
  }

  /** A manual checkpoint (POST /jobs/:id/checkpoints) or savepoint. */
  trigger(kind: TriggerKind, now: number, effects: CoordinatorEffect[]): void {
    const isSavepoint = kind === 'savepoint';
    // Savepoints are forced unless unaligned checkpoints are on (CheckpointCoordinator.forSavepoint).
    const isForce = isSavepoint && !this.config.unalignedEnabled;
    this.#enqueue({ isPeriodic: false, isSavepoint, isForce, checkpointType: kind === 'full-checkpoint' ? 'FULL' : 'CONFIGURED' }, now, effects);
  }

  /**
   * stop-with-savepoint's savepoint (Flink's triggerSynchronousSavepoint): a savepoint whose
   * completion is sent to the tasks (they commit what it covers, then finish), and whose
   * task-level failure fails the job (CheckpointFailureManager: synchronous savepoints).
   */
  triggerSynchronousSavepoint(stopMode: StopMode, now: number, effects: CoordinatorEffect[]): void {
    this.#enqueue({ isPeriodic: false, isSavepoint: true, isForce: !this.config.unalignedEnabled, checkpointType: 'CONFIGURED', stopMode }, now, effects);
  }

  /** Whether checkpoint `id` is (or was) a synchronous savepoint of stop-with-savepoint. */
  isSynchronousSavepoint(id: number): boolean {
    return this.#synchronousSavepoints.has(id);
  }

  receiveAcknowledge(
    checkpointId: number,
    subtask: SubtaskId,
    snapshot: TaskStateSnapshot,
    metrics: SubtaskCheckpointMetrics & { asyncDurationMs: number; ackTimestamp: number },
    now: number,
    effects: CoordinatorEffect[],
  ): TaskAcknowledgeResult {
    // Shared state is registered first, late acknowledgements included (CheckpointCoordinator.receiveAcknowledgeMessage).
    if (checkpointId < this.#nextId) this.sharedState.registerAll(checkpointId, snapshot.sharedFiles);
    const pending = this.#pending.get(checkpointId);
    if (!pending) {
      if (checkpointId < this.#nextId) this.sharedState.discardCheckpoint(checkpointId);
      return checkpointId < this.#nextId ? 'discarded' : 'unknown';
    }
    const result = pending.acknowledgeTask(subtask, { snapshot, metrics });
    if (result !== 'success') return result;
    this.stats.reportSubtaskStats(checkpointId, subtask.vertexId, {
      subtaskIndex: subtask.subtaskIndex,
      ackTimestamp: metrics.ackTimestamp,
      stateSize: snapshot.stateSize,
      checkpointedSize: snapshot.checkpointedSize,
      syncDurationMs: metrics.syncDurationMs,
      asyncDurationMs: metrics.asyncDurationMs,
      alignmentDurationMs: metrics.alignmentDurationMs,
      startDelayMs: metrics.startDelayMs,
      processedDataBytes: metrics.processedDataBytes,
      persistedDataBytes: metrics.persistedDataBytes,
      unalignedCheckpoint: metrics.unalignedCheckpoint,
      aborted: false,
    });
    if (pending.isFullyAcknowledged) this.#complete(pending, now, effects);
    return 'success';
  }

  /** A subtask declined (Flink's receiveDeclineMessage): the whole checkpoint is aborted. */
  receiveDecline(checkpointId: number, reason: CheckpointFailureReason, now: number, effects: CoordinatorEffect[]): void {
    const pending = this.#pending.get(checkpointId);
    // A decline is a task-level failure for the failure manager (a declined savepoint counts).
    if (pending) this.#abort(pending, reason, now, effects, false);
  }

  /** The latest completed checkpoint to restore from after a failure (savepoints are not in the store). */
  latestCheckpoint(): CompletedCheckpoint | undefined {
    return this.#restoredSavepoint ?? this.store.getLatestCheckpoint();
  }

  /** the savepoint the job was last restored from, until a checkpoint completes after it */
  #restoredSavepoint: CompletedCheckpoint | undefined;

  /**
   * The job restarts from `savepoint` (Flink's restoreSavepoint, which adds it to the
   * CompletedCheckpointStore): a failover before the next checkpoint completes restores the
   * savepoint again, not an older checkpoint. The savepoint stays the user's: it is never
   * subsumed or discarded.
   */
  restoreSavepoint(savepoint: CompletedCheckpoint): void {
    this.#restoredSavepoint = savepoint;
    // A job submitted from a savepoint counts on from its id (Flink restores the checkpoint ID counter).
    this.#nextId = Math.max(this.#nextId, savepoint.id + 1);
  }

  /**
   * A JobManager failover (the page reloaded mid-run): the checkpoint recovered from the HA store
   * is the latest completed one again (Flink's CompletedCheckpointStore recovered from HA, then
   * restoreLatestCheckpointedStateToAll). Unlike a savepoint it is Flink's to manage: its shared
   * files are registered, ids go on after it, and the next checkpoints subsume and discard it.
   * `nextCheckpointId` is Flink's recovered CheckpointIDCounter: past every checkpoint the failed
   * JobManager triggered, completed or not, so no new checkpoint writes into an old one's directory.
   */
  recoverCheckpoint(checkpoint: CompletedCheckpoint, sharedFile: (name: string) => unknown, nextCheckpointId = checkpoint.id + 1): void {
    if (checkpoint.isSavepoint) throw new Error(`savepoint ${checkpoint.id} is restored with restoreSavepoint, not recovered as a checkpoint`);
    for (const snapshot of checkpoint.taskStates.values()) this.sharedState.registerAllAfterRestored(checkpoint.id, snapshot.sharedFiles, sharedFile);
    // A fresh coordinator's store is empty: adding the one recovered checkpoint subsumes nothing.
    this.store.addCheckpointAndSubsumeOldest(checkpoint);
    this.#nextId = Math.max(this.#nextId, checkpoint.id + 1, nextCheckpointId);
  }

  /** Flink's baseInterval: "it does not make sense to schedule checkpoints more often than the min pause". */
  get #baseInterval(): number {
    return Math.max(this.#interval ?? Infinity, this.config.minPause);
  }

  #schedulePeriodic(at: number, effects: CoordinatorEffect[]): void {
    this.#nextPeriodicAt = at;
    effects.push({ type: 'schedule', at, timer: { kind: 'periodic', generation: this.#periodicGeneration } });
  }

  #enqueue(request: Omit<CheckpointTriggerRequest, 'seq' | 'timestamp'>, now: number, effects: CoordinatorEffect[]): void {
    const full: CheckpointTriggerRequest = { ...request, seq: this.#nextRequestSeq++, timestamp: now };
    for (const dropped of this.#decider.enqueue(full)) this.#failBeforeTrigger(dropped, 'TOO_MANY_CHECKPOINT_REQUESTS', effects);
    this.#executeQueued(now, effects);
  }

  /** Asks the decider what to do next, after any change (Flink's executeQueuedRequest). */
  #executeQueued(now: number, effects: CoordinatorEffect[]): void {
    for (;;) {
      const outcome = this.#decider.chooseRequestToExecute({
        isTriggering: false,
        pendingCheckpoints: this.#pending.size,
        lastCompletionTime: this.#lastCompletionTime,
        now,
      });
      if (outcome.type === 'none') return;
      if (outcome.type === 'drop') {
        this.#failBeforeTrigger(outcome.request, outcome.reason, effects);
        // Re-arm the periodic trigger to fire exactly when the min pause is over.
        if (this.#schedulerRunning) {
          this.#periodicGeneration++;
          // At the absolute time, not now + delay: in floating point the sum can land a hair early,
          // and the decider would drop the request again, forever.
          this.#schedulePeriodic(Math.max(now, this.#lastCompletionTime + this.config.minPause), effects);
        }
        return;
      }
      this.#startCheckpoint(outcome.request, now, effects);
    }
  }

  #startCheckpoint(request: CheckpointTriggerRequest, now: number, effects: CoordinatorEffect[]): void {
    const plan = this.planner();
    if (!plan.ok) return this.#failBeforeTrigger(request, 'NOT_ALL_REQUIRED_TASKS_RUNNING', effects);
    const id = this.#nextId++;
    const barrier = this.#barrierFor(id, request, now);
    const pending = new PendingCheckpoint(id, barrier, request.isSavepoint, plan.tasksToAck, plan.finishedTasks, plan.parallelism);
    this.#pending.set(id, pending);
    if (request.stopMode) this.#synchronousSavepoints.add(id);
    // Flink's REST tells a synchronous savepoint apart (RestAPICheckpointType.SYNC_SAVEPOINT).
    const statsType = request.stopMode ? 'SYNC_SAVEPOINT' : barrier.checkpointKind;
    this.stats.reportPendingCheckpoint(id, now, statsType, request.isSavepoint ? 'CANONICAL' : undefined);
    this.#reportFinishedTasks(id, plan.finishedTasks, now);
    const kind = { ...(request.stopMode ? { synchronous: true } : {}), ...(barrier.checkpointType === 'FULL' ? { checkpointType: 'FULL' as const } : {}) };
    effects.push({ type: 'checkpoint-status', status: 'triggered', checkpointId: id, isSavepoint: request.isSavepoint, ...kind });
    effects.push({ type: 'schedule', at: now + this.config.checkpointTimeout, timer: { kind: 'timeout', checkpointId: id } });
    for (const subtask of plan.tasksToTrigger) effects.push({ type: 'trigger-task', subtask, barrier });
    if (pending.isFullyAcknowledged) this.#complete(pending, now, effects);
  }

  /**
   * Finished subtasks show as acknowledged at trigger time, with empty figures (Flink's
   * CheckpointCoordinator.reportFinishedTasks: `new SubtaskStateStats(subtaskIndex, now)`).
   */
  #reportFinishedTasks(checkpointId: number, finishedTasks: readonly TaskStateSnapshot[], now: number): void {
    for (const { subtask } of finishedTasks) {
      this.stats.reportSubtaskStats(checkpointId, subtask.vertexId, {
        subtaskIndex: subtask.subtaskIndex,
        ackTimestamp: now,
        stateSize: 0,
        checkpointedSize: 0,
        syncDurationMs: 0,
        asyncDurationMs: 0,
        alignmentDurationMs: 0,
        startDelayMs: 0,
        processedDataBytes: 0,
        persistedDataBytes: 0,
        unalignedCheckpoint: false,
        aborted: false,
      });
    }
  }

  /** Alignment of a checkpoint, in the order of Flink's CheckpointOptions.forConfig. */
  #barrierFor(checkpointId: number, request: CheckpointTriggerRequest, now: number): CheckpointBarrier {
    // A FULL request shapes what the backends upload, not how barriers align; savepoints are full anyway.
    const full = request.checkpointType === 'FULL' && !request.isSavepoint ? { checkpointType: 'FULL' as const } : {};
    const stop = request.stopMode ? { stopMode: request.stopMode } : {};
    const base = { kind: 'barrier' as const, checkpointId, timestamp: now, ...full, ...stop };
    // The mode comes first, savepoints included (forConfig: `if (!isExactlyOnceMode) return notExactlyOnce(...)`).
    if (this.config.checkpointingMode === 'AT_LEAST_ONCE') {
      return { ...base, checkpointKind: request.isSavepoint ? 'SAVEPOINT' : 'CHECKPOINT', alignment: 'AT_LEAST_ONCE' };
    }
    if (request.isSavepoint) return { ...base, checkpointKind: 'SAVEPOINT', alignment: 'ALIGNED' };
    if (!this.config.unalignedEnabled) return { ...base, checkpointKind: 'CHECKPOINT', alignment: 'ALIGNED' };
    if (this.config.alignedCheckpointTimeout <= 0) return { ...base, checkpointKind: 'UNALIGNED_CHECKPOINT', alignment: 'UNALIGNED' };
    const kind: CheckpointKind = 'UNALIGNED_CHECKPOINT';
    return { ...base, checkpointKind: kind, alignment: 'ALIGNED', alignedTimeoutAt: now + this.config.alignedCheckpointTimeout };
  }

  /**
   * Flink's completePendingCheckpoint: finalize (write `_metadata`), store (subsuming older),
   * notify. With `finalizeAsync` the driver writes `_metadata` first and reports back.
   */
  #complete(pending: PendingCheckpoint, now: number, effects: CoordinatorEffect[]): void {
    const path = this.#externalPath(pending);
    if (this.options.finalizeAsync) {
      pending.startFinalizing();
      effects.push({ type: 'finalize-checkpoint', checkpoint: pending.completedCheckpoint(now, path) });
      return;
    }
    this.#pending.delete(pending.id);
    this.#completeFinalized(pending.finalize(now, path), now, effects);
  }

  /** The driver wrote `_metadata` of checkpoint `checkpointId`: it completes (unless it was aborted meanwhile). */
  onCheckpointFinalized(checkpointId: number, now: number, effects: CoordinatorEffect[]): void {
    const pending = this.#pending.get(checkpointId);
    if (!pending?.isFinalizing) return;
    this.#pending.delete(checkpointId);
    this.#completeFinalized(pending.finalize(now, this.#externalPath(pending)), now, effects);
  }

  /** Writing `_metadata` failed: the checkpoint fails, counted (Flink's FINALIZE_CHECKPOINT_FAILURE). */
  onCheckpointFinalizeFailed(checkpointId: number, now: number, effects: CoordinatorEffect[]): void {
    const pending = this.#pending.get(checkpointId);
    if (pending?.isFinalizing) this.#abort(pending, 'FINALIZE_CHECKPOINT_FAILURE', now, effects);
  }

  #externalPath(pending: PendingCheckpoint): string {
    const dir = this.config.checkpointDir ?? 'jobmanager://checkpoints';
    return pending.isSavepoint ? `${this.config.savepointDir ?? dir}/savepoint-${pending.id}` : `${dir}/chk-${pending.id}`;
  }

  /** Stores the finalized checkpoint, subsuming older ones, aborts older pending ones, and notifies the tasks. */
  #completeFinalized(completed: CompletedCheckpoint, now: number, effects: CoordinatorEffect[]): void {
    this.stats.reportCompletedCheckpoint(completed.id, completed.externalPath);
    effects.push({ type: 'checkpoint-status', status: 'completed', checkpointId: completed.id, isSavepoint: completed.isSavepoint });
    this.#lastCompletionTime = now;
    this.#failures.handleCheckpointSuccess(completed.id);
    if (completed.isSavepoint) {
      // A savepoint is not stored and subsumes nothing; only a synchronous one is sent to the
      // tasks, which wait for it to commit and finish (StreamTask's stop-with-savepoint).
      this.savepoints.push(completed);
      if (this.#synchronousSavepoints.has(completed.id)) effects.push({ type: 'notify-complete', checkpointId: completed.id });
    } else {
      this.#restoredSavepoint = undefined;
      for (const old of this.store.addCheckpointAndSubsumeOldest(completed)) {
        this.stats.reportDiscarded(old.id);
        effects.push({ type: 'discard-checkpoint', checkpointId: old.id });
      }
      // Shared files only subsumed checkpoints used are deleted now (SharedStateRegistry.unregisterUnusedState).
      this.#discardSharedFiles(this.sharedState.unregisterUnusedState(this.store.lowestRetainedId ?? completed.id), effects);
      for (const older of [...this.#pending.values()]) {
        if (older.id < completed.id && !older.isSavepoint) this.#abort(older, 'CHECKPOINT_SUBSUMED', now, effects);
      }
      this.#discardSharedFiles(this.sharedState.releaseAbandoned(completed.id), effects);
      effects.push({ type: 'notify-complete', checkpointId: completed.id });
    }
    this.#executeQueued(now, effects);
  }

  #abort(pending: PendingCheckpoint, reason: CheckpointFailureReason, now: number, effects: CoordinatorEffect[], jobLevel = true): void {
    if (!this.#pending.delete(pending.id)) return;
    pending.abort();
    this.stats.reportFailedCheckpoint(pending.id, now, checkpointFailureMessage(reason));
    const isSynchronous = this.#synchronousSavepoints.has(pending.id);
    effects.push({ type: 'checkpoint-status', status: 'failed', checkpointId: pending.id, isSavepoint: pending.isSavepoint, reason, ...(isSynchronous ? { synchronous: true } : {}) });
    effects.push({ type: 'notify-aborted', checkpointId: pending.id });
    effects.push({ type: 'discard-checkpoint', checkpointId: pending.id });
    this.sharedState.discardCheckpoint(pending.id);
    const outcome = this.#failures.handleCheckpointFailure(reason, pending.id, { isSavepoint: pending.isSavepoint, isSynchronous, jobLevel });
    if (outcome.failJob) effects.push({ type: 'fail-job', message: outcome.message });
    this.#executeQueued(now, effects);
  }

  /** Shared files the registry let go of are deleted by the runtime (Flink's registry deletes them asynchronously). */
  #discardSharedFiles(names: string[], effects: CoordinatorEffect[]): void {
    if (names.length > 0) effects.push({ type: 'discard-shared-files', names });
  }

  /** A request that failed before it became a checkpoint (no id, no history entry). */
  #failBeforeTrigger(request: CheckpointTriggerRequest, reason: CheckpointFailureReason, effects: CoordinatorEffect[]): void {
    this.droppedRequests.push({ reason, periodic: request.isPeriodic, timestamp: request.timestamp });
    effects.push({ type: 'checkpoint-status', status: 'dropped', checkpointId: null, isSavepoint: request.isSavepoint, reason, ...(request.stopMode ? { synchronous: true } : {}) });
    if (!isFailedCheckpointWithoutId(reason)) return;
    this.stats.reportFailedCheckpointsWithoutInProgress();
    const outcome = this.#failures.handleCheckpointFailure(reason, undefined, { isSavepoint: request.isSavepoint });
    if (outcome.failJob) effects.push({ type: 'fail-job', message: outcome.message });
  }

  /** Requests that never became checkpoints, with their reason (the timeline shows min-pause drops). */
  readonly droppedRequests: Array<{ reason: CheckpointFailureReason; periodic: boolean; timestamp: number }> = [];
}

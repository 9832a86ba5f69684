/**
 * The `scale` runtime: the JobMaster's job with every subtask modelled by flows instead of
 * records, for production-sized jobs (parallelism 1,000, a terabyte of keyed state, an hour of job
 * time in seconds). The JobMaster, its checkpoint coordinator, restart strategy, restore planning
 * and statistics are the very ones the record-level sim and the live runtime use; this runtime
 * only carries out their effects on a virtual clock, jumping from one interesting moment to the
 * next (a barrier reaching a vertex, an upload done, a restore done, the backlog worked off).
 *
 * What it models: the sources' input as a replayable log read at the job's pace (sources'
 * pendingRecords), each vertex's capacity from its record cost, queues full of in-flight buffers
 * while the job runs at its limit (so barriers wait behind them), keyed state with its growth,
 * churn and compaction (full and incremental uploads), uploads and restore reads sharing each
 * host's and the remote store's bandwidth, task-local copies on each host's disk, and restores
 * that rewind the sources and catch up with the spare capacity.
 */
import type { TaskStateSnapshot } from '../protocol.ts';
import type { Scenario } from '../scenario/scenario-types.ts';
import type { CheckpointBarrier } from '../protocol.ts';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import { assignSubtaskState } from '../checkpoint/state-assignment.ts';
import { JobMaster } from '../job/job-master.ts';
import type { JobMasterEffect } from '../job/job-master-effect.ts';
import type { JobOperation } from '../job/job-operation.ts';
import type { EngineMessage } from '../messages/message-codes.ts';
import { JobRuntime } from '../job/job-runtime.ts';
import { EffectDriver } from '../job/effect-driver.ts';
import type { ScheduledOperation } from '../job/scheduled-operation.ts';
import { ClusterTopology } from '../job/cluster-topology.ts';
import type { JobMetrics, VertexMetrics } from '../metrics/metrics-sampler.ts';
import { HostLocalDisk, type TaskLocalStateStoreKey } from '../recovery/host-local-disk.ts';
import { writesLocalCopy, type SlotLocation } from '../recovery/local-recovery.ts';
import type { KeyedStateSnapshot } from '../state/keyed-state-backend.ts';
import type { RestoreRecord } from '../run/job-events.ts';
import { SinkOutputLog } from '../run/sink-output-log.ts';
import { DEFAULT_SCALE } from '../scenario/scenario-defaults.ts';
import { SimKernel } from '../sim/sim-kernel.ts';
import { SNAPSHOT_METADATA_BYTES, rocksDbSyncSnapshotMs, syncSnapshotMs } from '../task/snapshot-cost.ts';
import { barrierTravel, type BarrierTravel } from './barrier-travel.ts';
import { KeyedStateFlow } from './keyed-state-flow.ts';
import type { KeyedStateModel, StateAtSnapshot } from './keyed-state-model.ts';
import { KeySpaceState } from './key-space-state.ts';
import type { ScaleEvent } from './scale-event.ts';
import { sharedTransferMs, type SharedLink } from './shared-bandwidth.ts';
import { SourceLog } from './source-log.ts';
import { busiestShare, jobFlows, type JobFlows } from './vertex-flows.ts';

export interface ScaleRuntimeOptions {
  /** overrides the scenario's seed */
  seed?: number;
  /** operator requests at set times, applied like scheduled faults */
  operations?: readonly ScheduledOperation[];
}

/** How often the sources' backlog is sampled, as the sim samples its metrics. */
const METRICS_SAMPLE_INTERVAL_MS = 1000;

/** What the runtime remembers of a checkpoint it took part in: where the sources were and the state then. */
interface CheckpointTaken {
  consumed: number;
  state: StateAtSnapshot;
  barrier: CheckpointBarrier;
  travel: BarrierTravel;
  /** per task: bytes uploaded, and the snapshot acknowledged */
  snapshots: TaskStateSnapshot[];
  /** per task: the figures its acknowledgement carries */
  acks: Array<{ syncMs: number; syncEnd: number; startDelayMs: number; alignmentMs: number; persisted: number }>;
}

type Phase = 'down' | 'restoring' | 'processing';

export class ScaleRuntime extends JobRuntime {
  readonly jobMaster: JobMaster;
  readonly kernel: SimKernel<ScaleEvent>;
  /** the scale model writes no records: the sink holds nothing (the report's output section stays empty) */
  readonly sinkOutput = new SinkOutputLog();
  readonly #disks = new Map<string, HostLocalDisk>();
  readonly #taken = new Map<number, CheckpointTaken>();
  readonly #state: KeyedStateModel;
  #flows: JobFlows;
  readonly #log: SourceLog;
  #phase: Phase = 'down';
  /** records processed per vertex so far (numRecordsIn), settled at each change of pace */
  #processed: number[];
  #processedAt = 0;
  /** records the sources had read at the last completed checkpoint's barrier (or the restore): what a two-phase-commit sink has committed */
  #committedAt = 0;
  /** when the tasks of this attempt were deployed: their output flushers count from it */
  #deployedAt = 0;
  readonly #effects = new EffectDriver((effect, effects) => this.#apply(effect, this.now, effects));

  constructor(scenario: Scenario, options: ScaleRuntimeOptions = {}) {
    super();
    for (const host of new ClusterTopology(scenario.cluster).hosts) this.#disks.set(host, new HostLocalDisk(host));
    this.kernel = new SimKernel<ScaleEvent>((event, now) => this.#handle(event, now));
    this.jobMaster = new JobMaster(scenario, {
      seed: options.seed ?? scenario.seed,
      jobId: 'job',
      disks: this.#disks,
      subtasks: () => this.#plannedSubtasks(),
    });
    // A `scale` section describes the state; a records scenario's is derived from its keys.
    this.#state = scenario.scale ? new KeyedStateFlow(scenario.scale) : new KeySpaceState(scenario, () => this.graph, this.config);
    this.#flows = this.#computeFlows();
    this.#processed = this.#flows.vertices.map(() => 0);
    this.#log = new SourceLog(this.#flows.sourceRatePerS, this.#flows.sourceRatePerS * this.#flows.headroom);
    this.#drive((e) => this.jobMaster.start(0, e));
    for (const { at_ms, operation } of options.operations ?? []) this.kernel.schedule(at_ms, { type: 'operation', operation });
    this.kernel.schedule(0, { type: 'metrics-sample' });
  }

  get now(): number {
    return this.kernel.now;
  }

  /** The job's flows now: input rate, capacity, headroom and bottleneck per vertex. */
  get flows(): JobFlows {
    return this.#flows;
  }

  /** The sources' backlog now (records arrived and not read). */
  get pendingRecords(): number {
    this.#settle(this.now);
    return this.#log.pendingRecords;
  }

  step(): boolean {
    return this.kernel.step();
  }

  runUntil(time: number): void {
    this.kernel.runUntil(time);
    this.#settle(this.now);
  }

  /**
   * Runs to the scenario's `run.until`, or until the job ends if that comes first. The model's
   * sources never end: a records scenario whose bounded sources would end its job (no `run.until`)
   * runs until the last of them would have read its `count` without failures.
   */
  runToEnd(): void {
    const until = Math.min(this.scenario.run.until_ms, this.#inputEndsAt());
    while (!this.job.isTerminal && this.kernel.nextEventTime <= until) this.kernel.step();
    if (!this.job.isTerminal && until !== Infinity) this.runUntil(until);
  }

  /** When the last bounded source would have read its `count` at its rate; Infinity with an unbounded one. */
  #inputEndsAt(): number {
    const ends = this.scenario.job.vertices.flatMap((v) => (v.operator.type !== 'source' ? [] : [v.operator.source.count === undefined ? Infinity : (v.operator.source.count / v.operator.source.rate_per_s) * 1000]));
    return Math.max(...ends);
  }

  perform(operation: JobOperation): EngineMessage | undefined {
    let problem: EngineMessage | undefined;
    this.#drive((e) => (problem = this.jobMaster.perform(operation, this.now, e)));
    return problem;
  }

  /** Per vertex figures (the job graph shows vertices with their parallelism, not a row per subtask). */
  metrics(): JobMetrics {
    this.#settle(this.now);
    const vertices: Record<string, VertexMetrics> = {};
    const rate = this.#log.readRatePerS;
    for (const f of this.#flows.vertices) {
      const inPerS = this.#flows.sourceRatePerS === 0 ? 0 : (rate * f.inputRatePerS) / this.#flows.sourceRatePerS;
      // as the Flink UI shows a vertex: its busiest subtask
      const busy = Math.min(1000, (1000 * inPerS * busiestShare(f)) / f.capacityPerSubtaskPerS);
      const metrics: VertexMetrics = {
        numRecordsIn: Math.round(this.#processed[f.index]!),
        numRecordsOut: f.vertex.operator.type === 'sink' ? 0 : Math.round(this.#processed[f.index]!),
        busyTimeMsPerSecond: busy,
        backPressuredTimeMsPerSecond: this.#log.saturated && f.index !== this.#flows.bottleneck ? 1000 - busy : 0,
      };
      if (f.vertex.operator.type === 'source') metrics.pendingRecords = Math.round((this.#log.pendingRecords * f.inputRatePerS) / this.#flows.sourceRatePerS);
      vertices[f.vertex.id] = metrics;
    }
    return { time: this.now, vertices, subtasks: [] };
  }

  // ---- carrying out the JobMaster's effects ----

  #drive(call: (effects: JobMasterEffect[]) => void): void {
    this.#effects.drive(call);
  }

  #apply(effect: JobMasterEffect, now: number, effects: JobMasterEffect[]): void {
    const jm = this.jobMaster;
    switch (effect.type) {
      case 'trigger-task':
        return this.#startCheckpoint(effect.barrier, effect.attempt, now);
      case 'notify-complete':
      case 'notify-aborted':
        return this.#notify(effect.checkpointId, effect.type === 'notify-complete', now);
      case 'schedule':
        return this.kernel.schedule(effect.at, { type: 'coordinator-timer', timer: effect.timer });
      case 'schedule-fault':
        return this.kernel.schedule(effect.at, { type: 'fault', fault: effect.fault });
      case 'schedule-restart':
        return this.kernel.schedule(effect.at, { type: 'restart', attempt: effect.attempt });
      case 'prepare-restart':
        return jm.onRestartPrepared(effect.attempt, now, effects);
      case 'deploy':
        return this.#deploy(now, effect.restore);
      case 'cancel-tasks':
        return this.#setPhase('down', now);
      case 'fail-task':
        return jm.onTaskFailed(effect.attempt, effect.task, effect.cause, now, effects);
      case 'terminate-task-managers':
        return jm.onTaskManagersLost(effect.ids, effect.cause, now, effects);
      case 'stall-task-manager':
        // A hung TaskManager answers nothing: the JobManager's heartbeat.timeout finds it.
        return this.kernel.schedule(now + this.config.heartbeatTimeout, { type: 'heartbeat-missed', taskManager: effect.id, silentMs: this.config.heartbeatTimeout });
      case 'slow-operator':
        return this.#repace(now);
      // Checkpoints live in the coordinator's memory; the model writes no files.
      case 'start-task-manager':
      case 'checkpoint-completed':
      case 'discard-checkpoint':
      case 'discard-shared-files':
      case 'job-terminated':
      case 'remote-storage-faults':
      case 'finalize-checkpoint':
        return;
    }
  }

  #handle(event: ScaleEvent, now: number): void {
    if ('attempt' in event && event.type !== 'restart' && event.attempt !== this.attempt) return;
    switch (event.type) {
      case 'coordinator-timer':
        return this.#drive((e) => this.jobMaster.onCoordinatorTimer(event.timer, now, e));
      case 'fault':
        return this.#drive((e) => void this.jobMaster.operate(event.fault, now, e, 'schedule'));
      case 'operation':
        return this.#drive((e) => void this.jobMaster.operate(event.operation, now, e, 'schedule'));
      case 'restart':
        return this.#drive((e) => this.jobMaster.onRestartDue(event.attempt, now, e));
      case 'barrier':
        return this.#snapshotVertex(event.checkpointId, event.vertex, now);
      case 'acknowledge':
        return this.#acknowledge(event.checkpointId, event.task, now);
      case 'decline':
        return this.#drive((e) => this.jobMaster.onDecline(event.attempt, event.checkpointId, event.reason, now, e));
      case 'restored':
        return this.#setPhase('processing', now);
      case 'restore-failed':
        return this.#drive((e) => this.jobMaster.onRestoreFailed(event.attempt, event.tasks, event.cause, now, e));
      case 'heartbeat-missed':
        return this.#drive((e) => this.jobMaster.onHeartbeatsMissed(event.taskManager, event.silentMs, now, e));
      case 'caught-up':
        return this.#repace(now);
      case 'metrics-sample':
        this.#settle(now);
        this.sourceBacklog.recordPending(now, this.#log.pendingRecords);
        if (!this.job.isTerminal) this.kernel.schedule(now + METRICS_SAMPLE_INTERVAL_MS, event);
        return;
    }
  }

  // ---- flows ----

  #computeFlows(): JobFlows {
    return jobFlows(this.scenario, this.graph.vertices, (id) => this.jobMaster.slowdownOf(id), (v) => this.#state.recordShare?.(v.id, v.parallelism));
  }

  /** Brings the log, the state and the counters to `now` at the current pace. */
  #settle(now: number): void {
    if (now <= this.#processedAt) return;
    const before = this.#log.consumed;
    this.#log.advance(now);
    const read = this.#log.consumed - before;
    const rate = this.#flows.sourceRatePerS;
    if (rate > 0) for (const f of this.#flows.vertices) this.#processed[f.index]! += (read * f.inputRatePerS) / rate;
    this.#processedAt = now;
  }

  #setPhase(phase: Phase, now: number): void {
    this.#settle(now);
    this.#phase = phase;
    this.#log.setReading(phase === 'processing');
    this.#state.setProcessing(phase === 'processing', now);
    this.#scheduleCaughtUp();
  }

  /** The flows changed (a slow-operator, the backlog worked off): new pace from now. */
  #repace(now: number): void {
    this.#settle(now);
    this.#flows = this.#computeFlows();
    this.#log.setCapacity(this.#flows.sourceRatePerS * this.#flows.headroom);
    this.#scheduleCaughtUp();
  }

  #scheduleCaughtUp(): void {
    const at = this.#log.caughtUpAt();
    if (at !== Infinity) this.kernel.schedule(at, { type: 'caught-up', attempt: this.attempt });
  }

  // ---- checkpoints ----

  #plannedSubtasks() {
    // Subtasks still restoring are not RUNNING yet: a trigger then fails as Flink's does.
    const running = this.#phase === 'processing';
    return this.graph.subtasks.map((s) => ({ id: s.id, running, finished: false, finalSnapshot: undefined }));
  }

  /** The first trigger of a checkpoint sets its barrier travelling through the whole job. */
  #startCheckpoint(barrier: CheckpointBarrier, attempt: number, now: number): void {
    if (this.#taken.has(barrier.checkpointId)) return;
    this.#settle(now);
    const travel = barrierTravel({
      flows: this.#flows,
      config: { ...this.config, unalignedEnabled: barrier.alignment === 'UNALIGNED' },
      networkLatencyMs: this.scenario.costs.network_latency_ms,
      recordSizeBytes: this.scenario.costs.record_size_bytes,
      saturated: this.#log.saturated,
      triggerAt: barrier.timestamp,
      deployedAt: this.#deployedAt,
    });
    // The sources' offsets and the state are taken when the barrier passes; at the sources that is at once.
    this.#taken.set(barrier.checkpointId, { consumed: this.#log.consumed, state: this.#state.snapshot(now, this.#log.consumed, this.#flows), barrier, travel, snapshots: [], acks: [] });
    this.#flows.vertices.forEach((f) => this.kernel.schedule(barrier.timestamp + travel.snapshotDelayMs[f.index]!, { type: 'barrier', attempt, checkpointId: barrier.checkpointId, vertex: f.index }));
  }

  /** Every subtask of a vertex takes its snapshot (sync part), uploads it (sharing bandwidth), and acknowledges. */
  #snapshotVertex(checkpointId: number, vertexIndex: number, now: number): void {
    const taken = this.#taken.get(checkpointId);
    if (!taken) return;
    const f = this.#flows.vertices[vertexIndex]!;
    const tasks = this.#tasksOf(f.vertex.id);
    const sizes = tasks.map((_, k) => this.#snapshotSizes(taken, vertexIndex, k));
    const syncMs = sizes.map((size, k) => this.#syncMs(size.stateSize, size.dirtyBytes, taken.state.timers[vertexIndex]?.[k] ?? 0, f.keyed));
    const costs = this.jobMaster.remoteCosts();
    if (this.remoteStorageFaults.failing) {
      const at = now + Math.max(...syncMs) + costs.remote_latency_ms + this.scenario.costs.network_latency_ms;
      return this.kernel.schedule(at, { type: 'decline', attempt: this.attempt, checkpointId, reason: 'CHECKPOINT_ASYNC_EXCEPTION' });
    }
    const uploads = sharedTransferMs(tasks.map((t, k) => ({ host: this.graph.subtasks[t]!.slot.host, bytes: sizes[k]!.checkpointedSize })), this.#remoteLink());
    tasks.forEach((task, k) => {
      const { id, keyGroupRange } = this.graph.subtasks[task]!;
      const { stateSize, checkpointedSize, persistedBytes } = sizes[k]!;
      const snapshot: TaskStateSnapshot = { subtask: id, stateSize, checkpointedSize };
      // The state itself is a size: its key groups are the subtask's, so a rescale splits it by them.
      if (f.keyed) snapshot.keyedState = { keyGroupRange: { ...keyGroupRange }, keyGroups: [], sizeBytes: stateSize } satisfies KeyedStateSnapshot;
      if (f.vertex.operator.type === 'source') snapshot.sourceOffset = Math.round(taken.consumed / f.vertex.parallelism);
      taken.snapshots[task] = snapshot;
      taken.acks[task] = { syncMs: syncMs[k]!, syncEnd: now + syncMs[k]!, startDelayMs: taken.travel.startDelayMs[vertexIndex]!, alignmentMs: taken.travel.alignmentMs[vertexIndex]!, persisted: persistedBytes };
      this.kernel.schedule(now + syncMs[k]! + uploads[k]! + this.scenario.costs.network_latency_ms, { type: 'acknowledge', attempt: this.attempt, checkpointId, task });
    });
  }

  /** One subtask's snapshot: its keyed state (whole, or what changed), in-flight data an unaligned barrier persisted, a sink's pending transactions. */
  #snapshotSizes(taken: CheckpointTaken, vertexIndex: number, subtask: number): { stateSize: number; checkpointedSize: number; persistedBytes: number; dirtyBytes: number } {
    const unaligned = taken.barrier.alignment === 'UNALIGNED';
    const persistedBytes = unaligned ? taken.travel.queuedBytes[vertexIndex]! : 0;
    const keyed = taken.state.keyedBytes[vertexIndex]?.[subtask] ?? 0;
    const dirty = taken.state.dirtyBytes[vertexIndex]?.[subtask] ?? 0;
    const operatorState = SNAPSHOT_METADATA_BYTES + persistedBytes + this.#pendingTransactionBytes(taken, vertexIndex, subtask);
    const stateSize = Math.round(keyed) + operatorState;
    return { stateSize, checkpointedSize: this.#uploadsFull(taken.barrier) ? stateSize : Math.round(dirty) + operatorState, persistedBytes, dirtyBytes: dirty };
  }

  /**
   * A two-phase-commit sink's state is its pre-committed transactions no completed checkpoint has
   * committed yet: the records it received since the last completed checkpoint's barrier (or the
   * restore), each `record_size_bytes`, as the record-level sink snapshots them.
   */
  #pendingTransactionBytes(taken: CheckpointTaken, vertexIndex: number, subtask: number): number {
    const f = this.#flows.vertices[vertexIndex]!;
    if (f.vertex.operator.type !== 'sink' || f.vertex.operator.sink !== 'two-phase-commit' || this.#flows.sourceRatePerS === 0) return 0;
    const records = ((taken.consumed - this.#committedAt) * f.inputRatePerS * f.subtaskShare[subtask]!) / this.#flows.sourceRatePerS;
    return Math.round(Math.max(0, records)) * this.scenario.costs.record_size_bytes;
  }

  /** A savepoint, a FULL trigger, the heap backend or incremental off: the whole state goes up. */
  #uploadsFull(barrier: CheckpointBarrier): boolean {
    const incremental = this.config.incremental && this.config.stateBackend === 'rocksdb';
    return !incremental || barrier.checkpointKind === 'SAVEPOINT' || barrier.checkpointType === 'FULL';
  }

  /**
   * The synchronous part, as the record-level tasks charge it: a memtable flush (rocksdb), with a
   * copy of every timer when they live on the heap (`timer-service.factory: HEAP`), or a
   * copy-on-write table copy (heap).
   */
  #syncMs(stateSize: number, dirtyBytes: number, timers: number, keyed: boolean): number {
    if (!keyed) return syncSnapshotMs(0);
    if (this.config.stateBackend === 'rocksdb') {
      // the memtable holds at most one write buffer of what changed since the last checkpoint
      const memtable = Math.min(this.config.rocksdbWriteBufferSizeBytes, dirtyBytes);
      return rocksDbSyncSnapshotMs(memtable, this.config.timerServiceFactory === 'HEAP' ? timers : 0);
    }
    return syncSnapshotMs(stateSize / this.scenario.costs.record_size_bytes);
  }

  #acknowledge(checkpointId: number, task: number, now: number): void {
    const taken = this.#taken.get(checkpointId);
    const snapshot = taken?.snapshots[task];
    if (!taken || !snapshot) return;
    const at = taken.acks[task]!;
    this.#writeLocalCopy(task, checkpointId, snapshot, taken.barrier);
    const metrics = {
      startDelayMs: at.startDelayMs,
      alignmentDurationMs: at.alignmentMs,
      syncDurationMs: at.syncMs,
      processedDataBytes: 0,
      persistedDataBytes: at.persisted,
      unalignedCheckpoint: taken.barrier.alignment === 'UNALIGNED',
      syncEndTime: at.syncEnd,
      asyncDurationMs: now - this.scenario.costs.network_latency_ms - at.syncEnd,
      ackTimestamp: now - this.scenario.costs.network_latency_ms,
    };
    this.#drive((e) => this.jobMaster.onAcknowledge(this.attempt, checkpointId, snapshot.subtask, snapshot, metrics, now, e));
  }

  #notify(checkpointId: number, complete: boolean, now: number): void {
    const taken = this.#taken.get(checkpointId);
    this.graph.subtasks.forEach((s, i) => {
      const disk = this.#disks.get(s.slot.host);
      if (complete) disk?.confirmCheckpoint(this.#localKey(i), checkpointId);
      else disk?.abortCheckpoint(this.#localKey(i), checkpointId);
    });
    if (complete && taken) {
      this.#state.confirmed(taken.state);
      this.#committedAt = Math.max(this.#committedAt, taken.consumed);
    }
    if (complete && taken?.barrier.stopMode) this.#drive((e) => this.jobMaster.onAllTasksFinished(now, e));
    // Older checkpoints are subsumed; what a restore may need stays with the coordinator's store.
    for (const id of this.#taken.keys()) if (id < checkpointId && !this.jobMaster.completed(id)) this.#forget(id);
  }

  #forget(checkpointId: number): void {
    this.#taken.delete(checkpointId);
  }

  /** The secondary copy on the host's disk (task-local recovery), written beside the upload. */
  #writeLocalCopy(task: number, checkpointId: number, snapshot: TaskStateSnapshot, barrier: CheckpointBarrier): void {
    const write = { localBackupEnabled: this.config.localBackupEnabled, isSavepoint: barrier.checkpointKind === 'SAVEPOINT', unalignedCheckpoint: barrier.alignment === 'UNALIGNED', snapshot };
    if (!writesLocalCopy(write)) return;
    this.#disks.get(this.graph.subtasks[task]!.slot.host)?.store(this.#localKey(task), checkpointId, snapshot, { complete: true, bytes: snapshot.stateSize });
  }

  #remoteLink(): SharedLink {
    const costs = this.jobMaster.remoteCosts();
    const scale = this.scenario.scale ?? DEFAULT_SCALE;
    return { latencyMs: costs.remote_latency_ms, perTransferMbPerS: costs.remote_bandwidth_mb_per_s, perHostMbPerS: scale.host_bandwidth_mb_per_s, totalMbPerS: scale.remote_store_bandwidth_mb_per_s };
  }

  // ---- deployment and restore ----

  #deploy(now: number, restore: Extract<JobMasterEffect, { type: 'deploy' }>['restore']): void {
    this.#deployedAt = now;
    this.#repace(now);
    if (!restore) return this.#setPhase('processing', now);
    this.#setPhase('restoring', now);
    this.#restore(now, restore.checkpoint, restore.previousPlacement);
  }

  /**
   * Every subtask reads its share where the JobMaster's plan says (its host's local copy, or
   * remote storage), the remote reads sharing bandwidth; the sources go back to the checkpoint's
   * offsets and the job processes again once the slowest subtask has its state.
   */
  #restore(now: number, checkpoint: CompletedCheckpoint, previousPlacement: ReadonlyMap<string, SlotLocation>): void {
    const graph = this.graph;
    const targets = graph.subtasks.map((s) => ({ ...s.id, parallelism: graph.vertex(s.id.vertexId).parallelism, keyGroupRange: s.keyGroupRange }));
    const bytes = targets.map((t) => assignSubtaskState(checkpoint, t, () => undefined).bytes);
    const plan = this.jobMaster.planRestore(graph, { checkpointId: checkpoint.id, parallelism: checkpoint.parallelism, remoteBytes: (i) => bytes[i]! }, previousPlacement);
    const remote = sharedTransferMs(graph.subtasks.map((s, i) => ({ host: s.slot.host, bytes: plan.decisions[i]!.source === 'remote' ? bytes[i]! : 0 })), this.#remoteLink());
    const record: RestoreRecord = { time: now, checkpointId: checkpoint.id, isSavepoint: checkpoint.isSavepoint, subtasks: [] };
    let slowest = 0;
    const failed: Array<{ task: number; reason: string }> = [];
    graph.subtasks.forEach((s, i) => {
      const decision = plan.decisions[i]!;
      if (decision.source === 'failed') failed.push({ task: i, reason: decision.reason });
      const durationMs = decision.source === 'failed' || bytes[i] === 0 ? 0 : decision.source === 'local' ? decision.durationMs : remote[i]!;
      slowest = Math.max(slowest, durationMs);
      const source = decision.source === 'local' ? 'local' : 'remote';
      const remoteBytes = decision.source === 'remote' ? bytes[i]! : 0;
      record.subtasks.push({ ...s.id, source, ...(decision.source === 'remote' ? { reason: decision.reason } : {}), bytes: bytes[i]!, remoteBytes, durationMs });
      this.#disks.get(s.slot.host)?.pruneAllBut(this.#localKey(i), checkpoint.id);
    });
    const taken = this.#taken.get(checkpoint.id);
    if (taken) {
      this.#log.rewindTo(taken.consumed);
      this.#committedAt = taken.consumed;
      this.#state.restored(taken.state, now);
    }
    this.jobMaster.onRestored(this.attempt, record, checkpoint);
    if (failed.length === 0) return this.kernel.schedule(now + slowest, { type: 'restored', attempt: this.attempt });
    // As in the record-level runtime: the restore fails once the read was tried, and the restart strategy decides.
    const cause = `Restoring checkpoint ${checkpoint.id} failed: ${failed[0]!.reason}`;
    this.kernel.schedule(now + Math.max(1, this.jobMaster.remoteCosts().remote_latency_ms), { type: 'restore-failed', attempt: this.attempt, tasks: failed.map((f) => f.task), cause });
  }

  #tasksOf(vertexId: string): number[] {
    const tasks: number[] = [];
    this.graph.subtasks.forEach((s, i) => {
      if (s.id.vertexId === vertexId) tasks.push(i);
    });
    return tasks;
  }

  /** Flink's TaskLocalStateStore key: the slot (allocation), the job, the subtask. */
  #localKey(task: number): TaskLocalStateStoreKey {
    const s = this.graph.subtasks[task]!;
    // One key per subtask and slot, made once: a checkpoint asks for every subtask's key a few times.
    const cached = this.#localKeys[task];
    if (cached?.allocationId === s.slot.id && cached.subtask === s.id) return cached;
    return (this.#localKeys[task] = { allocationId: s.slot.id, jobId: this.jobMaster.jobId, subtask: s.id });
  }

  readonly #localKeys: TaskLocalStateStoreKey[] = [];
}

import type { CheckpointFailureReason } from '../checkpoint/checkpoint-failure-reason.ts';
import type { InputGate } from '../network/input-gate.ts';
import type { TwoPhaseCommitSink } from '../operators/two-phase-commit-sink.ts';
import type {
  ChannelState,
  CheckpointBarrier,
  DataBuffer,
  EventBuffer,
  SubtaskCheckpointMetrics,
  SubtaskId,
  TaskEffect,
  TaskStateSnapshot,
} from '../protocol.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import { compressSnapshot } from '../state/snapshot-compression.ts';
import { asUnaligned, type AlignmentFigures } from './checkpoint-barrier-handler.ts';
import type { OutputRouter } from './output-router.ts';
import { SNAPSHOT_METADATA_BYTES, rocksDbSyncSnapshotMs, syncSnapshotMs } from './snapshot-cost.ts';
import type { TaskDeployment } from './task-deployment.ts';

/** How many aborted checkpoint ids a subtask remembers (Flink's SubtaskCheckpointCoordinatorImpl keeps a bounded set too). */
const MAX_REMEMBERED_ABORTS = 128;

/**
 * A snapshot taken whose acknowledgement waits for its in-flight data, as Flink's asynchronous
 * part waits for the ChannelStateWriteResult: an unaligned one for its remaining input barriers
 * (the data arriving before them is channel state); an aligned one with an
 * aligned-checkpoint-timeout for its barrier to leave every output, or to time out there
 * (PipelinedSubpartition's channel state future).
 */
interface PendingSnapshot {
  barrier: CheckpointBarrier;
  snapshot: TaskStateSnapshot;
  metrics: SubtaskCheckpointMetrics;
  channelState: ChannelState;
  awaitingInputs: boolean;
  awaitingOutputs: boolean;
}

/** What a checkpoint touches of its subtask: the state it snapshots, and the channels barriers go through. */
export interface CheckpointedSubtask {
  readonly id: SubtaskId;
  readonly deployment: TaskDeployment;
  readonly keyedState: KeyedStateBackend | undefined;
  readonly twoPhaseSink: TwoPhaseCommitSink | undefined;
  readonly router: OutputRouter;
  readonly gates: readonly InputGate[];
  /** a source's offset (its snapshot records it); undefined for other subtasks */
  readonly sourceOffset: number | undefined;
}

/**
 * A subtask's side of checkpointing, as Flink's SubtaskCheckpointCoordinatorImpl: it keeps the
 * triggers not yet carried out, takes a checkpoint when the task says its barrier is in
 * (checkpointState: forward the barrier, take the synchronous snapshot), holds the snapshot
 * until its in-flight data is known, then hands it to the driver for upload and acknowledgement.
 * It declines checkpoints the task cannot take part in and remembers those aborted before their
 * barrier came, so that barrier becomes a cancellation marker.
 *
 * Sans-I/O like the task: it is told the time and appends TaskEffects. When a barrier is in is
 * the barrier handler's call (CheckpointBarrierHandler), what runs when is the task's.
 */
export class SubtaskCheckpointCoordinator {
  /** checkpoints triggered directly (sources, or tasks whose inputs all ended), not yet taken */
  #pendingTriggers: CheckpointBarrier[] = [];
  #lastCheckpointId = 0;
  /** checkpoints notified as aborted before their barrier came here */
  readonly #abortedCheckpoints = new Set<number>();
  /** snapshots taken, not yet acknowledged: they wait for in-flight data */
  #pending: PendingSnapshot[] = [];
  /** Measured before the snapshot runs: a rocksdb snapshot flushes its memtables, emptying them. */
  #syncCost: number | undefined;
  /**
   * the synchronous savepoint of a stop-with-savepoint this subtask took its snapshot for, until
   * it is aborted: a source emits nothing after its barrier, and every task finishes once it completes
   */
  #synchronousSavepointId: number | undefined;

  constructor(private readonly subtask: CheckpointedSubtask) {}

  get synchronousSavepointId(): number | undefined {
    return this.#synchronousSavepointId;
  }

  /** The newest checkpoint this subtask took part in (or restored). */
  get lastCheckpointId(): number {
    return this.#lastCheckpointId;
  }

  /** A restored subtask takes part only in checkpoints newer than the one it restored. */
  restoredFrom(checkpointId: number): void {
    this.#lastCheckpointId = checkpointId;
  }

  /** The coordinator asks this subtask to start a checkpoint (sources, or tasks whose inputs all ended). */
  trigger(barrier: CheckpointBarrier): void {
    this.#pendingTriggers.push(barrier);
  }

  /** The oldest trigger not yet carried out. */
  get nextTrigger(): CheckpointBarrier | undefined {
    return this.#pendingTriggers[0];
  }

  takeTrigger(): CheckpointBarrier | undefined {
    return this.#pendingTriggers.shift();
  }

  /** Flink's declineCheckpoint: the subtask cannot take part; the checkpoint fails. */
  decline(checkpointId: number, reason: CheckpointFailureReason, effects: TaskEffect[]): void {
    effects.push({ type: 'decline-checkpoint', checkpointId, reason });
  }

  /** Flink's abortCheckpointOnBarrier: decline, and tell downstream with a cancellation marker. */
  abortCheckpointOnBarrier(checkpointId: number, reason: CheckpointFailureReason, effects: TaskEffect[]): void {
    this.decline(checkpointId, reason, effects);
    this.#broadcastCancelMarker(checkpointId);
    this.#dropPending(checkpointId);
    // The stop failed: the job runs on, and a stopped source emits again.
    if (checkpointId === this.#synchronousSavepointId) this.#synchronousSavepointId = undefined;
  }

  /**
   * The checkpoint was aborted: forget its snapshot, and remember it so that a barrier still to
   * come sends a cancellation marker instead (Flink's abortedCheckpointIds).
   */
  notifyCheckpointAborted(checkpointId: number): void {
    if (checkpointId > this.#lastCheckpointId) {
      this.#abortedCheckpoints.add(checkpointId);
      if (this.#abortedCheckpoints.size > MAX_REMEMBERED_ABORTS) this.#abortedCheckpoints.delete(Math.min(...this.#abortedCheckpoints));
    }
    this.#dropPending(checkpointId);
  }

  isAborted(checkpointId: number): boolean {
    return this.#abortedCheckpoints.has(checkpointId);
  }

  /** Under replay a source knows a checkpoint as aborted exactly when the recorded one did (the abort's arrival was timing). */
  followRecordedAbort(checkpointId: number, aborted: boolean): void {
    if (aborted) this.#abortedCheckpoints.add(checkpointId);
    else this.#abortedCheckpoints.delete(checkpointId);
  }

  /** A trigger carried out (no alignment): the delay is from the barrier's creation to now. */
  checkpointOnTrigger(now: number, barrier: CheckpointBarrier, effects: TaskEffect[]): number {
    const figures = { startDelayMs: Math.max(0, now - barrier.timestamp), alignmentDurationMs: 0, processedBytes: 0 };
    return this.checkpointState(now, barrier, figures, false, effects);
  }

  /**
   * Flink's SubtaskCheckpointCoordinatorImpl.checkpointState: forward the barrier downstream
   * first (a priority event when unaligned), then take the synchronous snapshot; the upload
   * (asynchronous part) is the driver's, once the in-flight data is known. `viaInputs`: the
   * barrier came through the inputs (not a trigger), so an unaligned one waits for the others.
   * Returns the virtual time the synchronous part blocks the task.
   */
  checkpointState(now: number, barrier: CheckpointBarrier, figures: AlignmentFigures, viaInputs: boolean, effects: TaskEffect[]): number {
    if (barrier.checkpointId <= this.#lastCheckpointId) return 0;
    this.#lastCheckpointId = barrier.checkpointId;
    if (this.#abortedCheckpoints.delete(barrier.checkpointId)) {
      // checkpointState, step 1: the checkpoint was already aborted, so downstream gets a
      // cancellation marker instead of the barrier, and no snapshot is taken.
      this.#broadcastCancelMarker(barrier.checkpointId);
      return 0;
    }
    if (barrier.stopMode) this.#synchronousSavepointId = barrier.checkpointId;
    const unaligned = barrier.alignment === 'UNALIGNED';
    const outputs = this.#broadcastBarrier(barrier, unaligned);
    const snapshot = this.#takeSnapshot(barrier);
    const syncMs = this.#syncSnapshotMs();
    const pending = this.#hold(barrier, snapshot, this.#metrics(now, figures, syncMs, unaligned), outputs, unaligned && viaInputs);
    this.#maybeAcknowledge(pending, effects);
    return syncMs;
  }

  /** In-flight input data of the unaligned snapshot still waiting for barriers is channel state. */
  persistInput(gate: number, channel: number, buffers: DataBuffer[]): void {
    const pending = this.#pending.find((p) => p.awaitingInputs);
    if (!pending || buffers.length === 0) return;
    const inputs = pending.channelState.inputs;
    let entry = inputs.find((e) => e.gate === gate && e.channel === channel);
    if (!entry) inputs.push((entry = { gate, channel, buffers: [] }));
    entry.buffers.push(...buffers);
  }

  /** The last barrier of an unaligned checkpoint arrived: its input channel state is complete. */
  inputsComplete(checkpointId: number, figures: AlignmentFigures, effects: TaskEffect[]): void {
    const pending = this.#pending.find((p) => p.awaitingInputs && p.barrier.checkpointId === checkpointId);
    if (!pending) return;
    pending.awaitingInputs = false;
    pending.metrics.alignmentDurationMs = figures.alignmentDurationMs;
    pending.metrics.processedDataBytes = figures.processedBytes;
    this.#maybeAcknowledge(pending, effects);
  }

  /**
   * The output aligned→unaligned timers: the barrier of a pending aligned snapshot whose timeout
   * passed moves ahead of the buffers still queued before it (PipelinedSubpartition#
   * alignedBarrierTimeout); what it overtook is output channel state.
   */
  onOutputTimeouts(now: number, effects: TaskEffect[]): void {
    for (const pending of [...this.#pending]) {
      if (pending.awaitingOutputs && now >= pending.barrier.alignedTimeoutAt!) this.#timeOutOutputs(pending, effects);
    }
  }

  /** An aligned barrier that left every output in time: no output channel state (the future completes empty). */
  acknowledgeSentBarriers(effects: TaskEffect[]): void {
    for (const pending of [...this.#pending]) {
      if (!pending.awaitingOutputs) continue;
      if (this.subtask.router.subpartitions.some((s) => s.holdsBarrier(pending.barrier.checkpointId))) continue;
      pending.awaitingOutputs = false;
      this.#maybeAcknowledge(pending, effects);
    }
  }

  /** When the task must be polled for an output aligned→unaligned timer, if one is pending. */
  get nextOutputTimeoutAt(): number | undefined {
    let at = Infinity;
    for (const p of this.#pending) if (p.awaitingOutputs) at = Math.min(at, p.barrier.alignedTimeoutAt ?? Infinity);
    return at === Infinity ? undefined : at;
  }

  /** The task was cancelled or failed: its pending snapshots are gone with the in-flight data. */
  cancel(): void {
    this.#pending = [];
  }

  /** The state the task had when its input ended: a finished task's part in later checkpoints. */
  takeFinalSnapshot(): TaskStateSnapshot {
    const snapshot: TaskStateSnapshot = { subtask: this.subtask.id, stateSize: 0, checkpointedSize: 0 };
    const offset = this.subtask.sourceOffset;
    if (offset !== undefined) snapshot.sourceOffset = offset;
    snapshot.finished = true;
    return snapshot;
  }

  /** The snapshot waits as pending; an unaligned one that came through the inputs records their in-flight data from now. */
  #hold(barrier: CheckpointBarrier, snapshot: TaskStateSnapshot, metrics: SubtaskCheckpointMetrics, outputs: ChannelState['outputs'], awaitingInputs: boolean): PendingSnapshot {
    // An aligned barrier with a timeout registers the aligned→unaligned output timer
    // (SubtaskCheckpointCoordinatorImpl#registerAlignmentTimer).
    const awaitingOutputs = barrier.alignment !== 'UNALIGNED' && barrier.alignedTimeoutAt !== undefined && this.subtask.router.subpartitions.length > 0;
    const pending: PendingSnapshot = { barrier, snapshot, metrics, channelState: { inputs: [], outputs }, awaitingInputs, awaitingOutputs };
    this.#pending.push(pending);
    if (awaitingInputs) this.#startRecording(barrier.checkpointId);
    return pending;
  }

  #metrics(now: number, figures: AlignmentFigures, syncMs: number, unaligned: boolean): SubtaskCheckpointMetrics {
    return {
      startDelayMs: figures.startDelayMs,
      alignmentDurationMs: figures.alignmentDurationMs,
      syncDurationMs: syncMs,
      processedDataBytes: figures.processedBytes,
      persistedDataBytes: 0,
      // as Flink's checkpointMetrics.setUnalignedCheckpoint(options.isUnalignedCheckpoint())
      unalignedCheckpoint: unaligned,
      syncEndTime: now + syncMs,
    };
  }

  #broadcastCancelMarker(checkpointId: number): void {
    this.subtask.router.broadcastEvent(() => ({ kind: 'event', event: { kind: 'cancel-checkpoint', checkpointId }, sizeBytes: 16, priority: false }));
  }

  /** Puts the barrier on every output; an unaligned one goes first, and what it overtook is output channel state. */
  #broadcastBarrier(barrier: CheckpointBarrier, unaligned: boolean): ChannelState['outputs'] {
    if (!unaligned) {
      this.subtask.router.broadcastEvent(() => barrierBuffer(barrier, false));
      return [];
    }
    const outputs: ChannelState['outputs'] = [];
    for (const s of this.subtask.router.subpartitions) {
      const overtaken = s.addPriorityEvent(barrierBuffer(barrier, true)).filter((b): b is DataBuffer => b.kind === 'data');
      if (overtaken.length > 0) outputs.push({ channelId: s.channelId, buffers: overtaken });
    }
    return outputs;
  }

  /** Flink's checkpointStarted on every input channel: queued data ahead of the barriers is in flight. */
  #startRecording(checkpointId: number): void {
    this.subtask.gates.forEach((gate, g) => {
      for (const { channel, buffers } of gate.startRecording(checkpointId)) this.persistInput(g, channel, buffers);
    });
  }

  #timeOutOutputs(pending: PendingSnapshot, effects: TaskEffect[]): void {
    const id = pending.barrier.checkpointId;
    const asPriority = (b: EventBuffer): EventBuffer => ({ ...b, event: asUnaligned(pending.barrier), priority: true });
    for (const s of this.subtask.router.subpartitions) {
      const overtaken = s.timeOutAlignedBarrier(id, asPriority);
      if (overtaken && overtaken.length > 0) pending.channelState.outputs.push({ channelId: s.channelId, buffers: overtaken });
    }
    pending.awaitingOutputs = false;
    this.#maybeAcknowledge(pending, effects);
  }

  /** Once its in-flight data is known, the snapshot goes to the driver for upload and acknowledgement. */
  #maybeAcknowledge(pending: PendingSnapshot, effects: TaskEffect[]): void {
    if (pending.awaitingInputs || pending.awaitingOutputs) return;
    this.#pending.splice(this.#pending.indexOf(pending), 1);
    const { channelState, barrier } = pending;
    const persisted = [...channelState.inputs, ...channelState.outputs].reduce((n, e) => n + e.buffers.reduce((m, b) => m + b.sizeBytes, 0), 0);
    const snapshot: TaskStateSnapshot = { ...pending.snapshot, stateSize: pending.snapshot.stateSize + persisted, checkpointedSize: pending.snapshot.checkpointedSize + persisted };
    if (persisted > 0 || barrier.alignment === 'UNALIGNED') snapshot.channelState = channelState;
    const metrics = { ...pending.metrics, persistedDataBytes: persisted };
    effects.push({ type: 'persist-snapshot', checkpointId: barrier.checkpointId, snapshot, metrics });
  }

  /** The checkpoint was given up: forget its snapshot and stop recording its in-flight data. */
  #dropPending(checkpointId: number): void {
    const dropped = this.#pending.filter((p) => p.barrier.checkpointId === checkpointId);
    if (dropped.length === 0) return;
    this.#pending = this.#pending.filter((p) => p.barrier.checkpointId !== checkpointId);
    if (dropped.some((p) => p.awaitingInputs)) for (const gate of this.subtask.gates) for (const c of gate.channels) c.stopRecording(checkpointId);
  }

  /** The synchronous snapshot: source offset, keyed state (timers included), sink transactions. */
  #takeSnapshot(barrier: CheckpointBarrier): TaskStateSnapshot {
    const checkpointId = barrier.checkpointId;
    const snapshot: TaskStateSnapshot = { subtask: this.subtask.id, stateSize: SNAPSHOT_METADATA_BYTES, checkpointedSize: SNAPSHOT_METADATA_BYTES };
    const offset = this.subtask.sourceOffset;
    if (offset !== undefined) snapshot.sourceOffset = offset;
    if (this.subtask.keyedState) this.#snapshotKeyedState(this.subtask.keyedState, barrier, snapshot);
    if (this.subtask.twoPhaseSink) this.#snapshotTransactions(this.subtask.twoPhaseSink, checkpointId, snapshot);
    return snapshot;
  }

  /** A two-phase-commit sink pre-commits its open transaction: the pending ones are its state. */
  #snapshotTransactions(sink: TwoPhaseCommitSink, checkpointId: number, snapshot: TaskStateSnapshot): void {
    const pending = sink.snapshot(checkpointId);
    snapshot.pendingTransactions = pending;
    const bytes = pending.reduce((n, t) => n + t.records.length, 0) * this.subtask.deployment.recordSizeBytes;
    snapshot.stateSize += bytes;
    snapshot.checkpointedSize += bytes;
  }

  #syncSnapshotMs(): number {
    const cost = this.#syncCost ?? syncSnapshotMs(this.subtask.keyedState?.entryCount() ?? 0);
    this.#syncCost = undefined;
    return cost;
  }

  /**
   * Keyed state goes out whole (hashmap, or a savepoint: Flink's NO_SHARING scope) or, with
   * execution.checkpointing.incremental on a rocksdb backend, as the files the last confirmed
   * checkpoint lacks plus the small private state; a FULL checkpoint uploads every file (FORWARD).
   */
  #snapshotKeyedState(backend: KeyedStateBackend, barrier: CheckpointBarrier, snapshot: TaskStateSnapshot): void {
    const { checkpointId } = barrier;
    const isSavepoint = barrier.checkpointKind === 'SAVEPOINT';
    const work = backend.syncSnapshotWork?.();
    if (work) this.#syncCost = rocksDbSyncSnapshotMs(work.memtableBytes, work.heapTimerEntries);
    const { incrementalCheckpoints, snapshotCompression } = this.subtask.deployment;
    if (incrementalCheckpoints && !isSavepoint && backend.incrementalSnapshot) {
      const inc = backend.incrementalSnapshot(checkpointId, barrier.checkpointType === 'FULL');
      snapshot.keyedState = { incremental: inc.privateState };
      snapshot.sharedFiles = inc.sharedFiles;
      snapshot.stateSize += inc.stateSize;
      snapshot.checkpointedSize += inc.checkpointedSize;
      return;
    }
    const full = backend.snapshot();
    const keyed = snapshotCompression ? compressSnapshot(full) : full;
    snapshot.keyedState = keyed;
    snapshot.stateSize += keyed.sizeBytes;
    snapshot.checkpointedSize += keyed.sizeBytes;
  }
}

/** The barrier as a buffer on one output (an unaligned one is a priority event, ahead of the data). */
function barrierBuffer(barrier: CheckpointBarrier, priority: boolean): EventBuffer {
  return { kind: 'event', event: barrier, sizeBytes: 32, priority };
}

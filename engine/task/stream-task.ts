import type {
  ChannelState,
  CheckpointBarrier,
  DataBuffer,
  EventBuffer,
  NetworkBuffer,
  PollOutcome,
  StreamRecord,
  SubtaskCheckpointMetrics,
  SubtaskId,
  TaskEffect,
  TaskStateSnapshot,
} from '../protocol.ts';
import { InputGate, type InputChannel } from '../network/input-gate.ts';
import { createOperator } from '../operators/operator-factory.ts';
import type { Output, StreamOperator } from '../operators/stream-operator.ts';
import { TwoPhaseCommitSink } from '../operators/two-phase-commit-sink.ts';
import type { SourceSplit } from '../sources/source-split.ts';
import { createSplit } from '../sources/create-split.ts';
import type { KeyedStateBackend, KeyedStateSnapshot } from '../state/keyed-state-backend.ts';
import { TaskMetrics } from '../metrics/task-metrics.ts';
import { compressSnapshot, decompressSnapshot, isCompressedSnapshot } from '../state/snapshot-compression.ts';
import { asUnaligned, CheckpointBarrierHandler, type AlignmentFigures, type BarrierHandlerOutcome } from './checkpoint-barrier-handler.ts';
import { OutputRouter } from './output-router.ts';
import { SourceInput } from './source-input.ts';
import { StatusWatermarkValve } from './status-watermark-valve.ts';
import { SNAPSHOT_METADATA_BYTES, rocksDbSyncSnapshotMs, syncSnapshotMs } from './snapshot-cost.ts';
import { TaskLifecycle } from './task-lifecycle.ts';
import type { TaskDeployment } from './task-deployment.ts';
import type { DeliveryRecorder } from '../replay/delivery-recorder.ts';
import type { ReplayFeeder } from '../replay/replay-feeder.ts';

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

/** What a restored subtask starts from (its share of a completed checkpoint). */
export interface TaskRestore {
  checkpointId: number;
  sourceOffset?: number;
  keyedState: KeyedStateSnapshot[];
  /** incremental snapshots to restore from (one per overlapping old subtask), with their files' contents */
  incremental?: Array<{ privateState: unknown; files: unknown[] }>;
  pendingTransactions: TaskStateSnapshot['pendingTransactions'];
  channelState?: ChannelState;
}

/**
 * Upper bound on zero-cost events (barriers, markers) handled in one poll before yielding, so
 * a flood of events cannot starve the driver's other work.
 */
const MAX_EVENTS_PER_POLL = 64;

/** How many aborted checkpoint ids a subtask remembers (Flink keeps a bounded set too). */
const MAX_REMEMBERED_ABORTS = 128;

/**
 * One subtask, as a sans-I/O state machine. The driver hands it inputs (`receive` a buffer,
 * `addCredits`, `triggerCheckpoint`, checkpoint notifications) and calls `poll(now, effects)`
 * when it is due; `poll` does at most one unit of work (one input buffer, or one buffer's worth
 * of source records, or a snapshot's synchronous part), appends the effects it wants carried out
 * and says when it wants to be polled again.
 *
 * Outputs produced while processing are sent on the next poll, at the end of the busy period,
 * so a record never leaves a subtask before the subtask finished processing it.
 */
export class StreamTask {
  readonly id: SubtaskId;
  readonly lifecycle = new TaskLifecycle();
  readonly metrics: TaskMetrics;
  readonly keyedState: KeyedStateBackend | undefined;
  readonly gates: InputGate[];
  readonly router: OutputRouter;
  readonly #operator: StreamOperator | undefined;
  readonly #source: SourceInput | undefined;
  readonly #channels = new Map<number, { gate: number; channel: InputChannel }>();
  #costMs: number;
  readonly #sinkOutput: Output | undefined;
  readonly #twoPhaseSink: TwoPhaseCommitSink | undefined;
  readonly #barriers: CheckpointBarrierHandler;
  readonly #valve: StatusWatermarkValve;
  /** buffers that took no credit (priority events, replayed channel state): consuming them returns none */
  readonly #creditFree = new WeakSet<NetworkBuffer>();
  #sinkBatch: StreamRecord[] = [];
  #nextFlushAt: number;
  /** end-of-partition has been put on every output; the task finishes once they are sent */
  #ending = false;
  /** checkpoints triggered directly (sources, or tasks whose inputs all ended), not yet taken */
  #pendingTriggers: CheckpointBarrier[] = [];
  #lastCheckpointId = 0;
  /** checkpoints notified as aborted before their barrier came here */
  readonly #abortedCheckpoints = new Set<number>();
  /** snapshots taken, not yet acknowledged: they wait for in-flight data */
  #pending: PendingSnapshot[] = [];
  /** effects to emit on the next poll (commits of restored transactions) */
  #deferred: TaskEffect[] = [];
  /** the state the task had when its input ended: a finished task's part in later checkpoints */
  #finalSnapshot: TaskStateSnapshot | undefined;
  /** records and events consumed so far (where an abort notification came, for a replay) */
  #consumedUnits = 0;
  /** records what this subtask consumed, in order, when the driver records the session */
  recorder: DeliveryRecorder | undefined;
  /** replaying a recorded session: inputs are held and handed to the gates in the recorded order */
  #replay: ReplayFeeder | undefined;

  constructor(
    readonly deployment: TaskDeployment,
    now: number,
    createKeyedState: ((d: TaskDeployment) => KeyedStateBackend) | undefined,
  ) {
    const { vertex, subtaskIndex } = deployment;
    this.id = { vertexId: vertex.id, subtaskIndex };
    this.metrics = new TaskMetrics(now);
    this.#costMs = vertex.record_cost_us / 1000;
    this.#nextFlushAt = now + deployment.bufferTimeout;
    this.gates = deployment.inputGates.map((ids) => new InputGate(ids));
    this.gates.forEach((gate, g) => gate.channels.forEach((channel) => this.#channels.set(channel.channelId, { gate: g, channel })));
    this.#barriers = new CheckpointBarrierHandler(this.gates);
    this.#valve = new StatusWatermarkValve(this.gates);
    this.router = new OutputRouter(
      deployment.outputs,
      subtaskIndex,
      deployment.creditsPerChannel,
      deployment.recordsPerBuffer,
      deployment.recordSizeBytes,
      deployment.creditsPerChannel,
    );
    const spec = vertex.operator;
    if (spec.type === 'source') {
      this.keyedState = undefined;
      this.#source = this.#createSourceInput(createSplit(spec.source, deployment.seed, subtaskIndex), now);
    } else {
      this.keyedState = createKeyedState?.(deployment);
      this.#operator = createOperator(spec, this.keyedState, deployment.maxParallelism);
      if (spec.type === 'sink' && spec.sink === 'two-phase-commit') {
        const sink = new TwoPhaseCommitSink(`${vertex.id}#${subtaskIndex}@${deployment.attempt}`);
        this.#twoPhaseSink = sink;
        this.#sinkOutput = { collect: (r) => sink.write(r) };
      } else if (spec.type === 'sink') {
        this.#sinkOutput = { collect: (r) => this.#sinkBatch.push(r) };
      }
    }
  }

  /** The source reads into the router; its watermarks go downstream and, when recording, into the recording. */
  #createSourceInput(split: SourceSplit, now: number): SourceInput {
    const router = this.router;
    const output = {
      get available() {
        return router.available;
      },
      collect: (record: StreamRecord) => router.collect(record),
      emitWatermark: (watermark: number) => this.#emitSourceWatermark(watermark),
    };
    const { autoWatermarkInterval, recordsPerBuffer } = this.deployment;
    return new SourceInput(split, now, { autoWatermarkInterval, recordsPerBuffer }, output);
  }

  /** A source watermark goes downstream; a recording notes where (after how many records and barriers). */
  #emitSourceWatermark(watermark: number): void {
    this.router.broadcastWatermark(watermark);
    this.recorder?.watermarkEmitted(this.#source!.offset, this.#source!.barriersInjected);
  }

  /** Slows the operator down by `factor` (1 = normal), as a scenario's slow-operator fault. */
  setSlowdown(factor: number): void {
    this.#costMs = (this.deployment.vertex.record_cost_us / 1000) * factor;
  }

  get isSource(): boolean {
    return this.#source !== undefined;
  }

  /** Source offset (the position a checkpoint records), or undefined for other tasks. */
  get sourceOffset(): number | undefined {
    return this.#source?.offset;
  }

  /** The task has put end-of-partition on its outputs (or finished): it takes part in checkpoints as finished. */
  get hasEndedInput(): boolean {
    return this.#ending || this.lifecycle.state === 'FINISHED';
  }

  get finalSnapshot(): TaskStateSnapshot | undefined {
    return this.#finalSnapshot;
  }

  /** True while the task's inputs are blocked by an aligning checkpoint. */
  get isAligning(): boolean {
    return this.#barriers.isAligning;
  }

  get twoPhaseSink(): TwoPhaseCommitSink | undefined {
    return this.#twoPhaseSink;
  }

  /** Deploy and initialize; `restore` loads a checkpoint's share first (Flink restores in INITIALIZING). */
  initialize(restore: TaskRestore | undefined): void {
    this.lifecycle.send('DEPLOY');
    this.lifecycle.send('INITIALIZE');
    if (restore) this.#restore(restore);
  }

  /** INITIALIZING → RUNNING (the driver calls it once restoring took its time). */
  run(): void {
    this.lifecycle.send('RUN');
  }

  /** Deploy, initialize and run with no state (a fresh start). */
  start(): void {
    this.initialize(undefined);
    this.run();
  }

  /** The task is cancelled (failover) or failed: everything in flight is gone. */
  stop(failed: boolean): void {
    if (this.lifecycle.isTerminal) return;
    if (failed) this.lifecycle.send('FAIL');
    else if (this.lifecycle.send('CANCEL')) this.lifecycle.send('CANCELED');
    for (const gate of this.gates) gate.clear();
    this.router.clear();
    this.#pending = [];
  }

  /** Replays a recording: from now on inputs go through the feeder (set before the task runs). */
  replayWith(feeder: ReplayFeeder): void {
    this.#replay = feeder;
    this.#source?.replayWith(feeder);
  }

  receive(channelId: number, buffer: DataBuffer | EventBuffer): void {
    const target = this.#channels.get(channelId);
    if (!target || this.lifecycle.isTerminal) return;
    if (this.#replay) return this.#holdForReplay(target.gate, target.channel, buffer);
    if (buffer.kind === 'event' && buffer.priority) this.#creditFree.add(buffer);
    const inFlight = this.gates[target.gate]!.receive(target.channel.index, buffer, this.#overtakes(buffer));
    if (inFlight) this.#persistInput(target.gate, target.channel.index, [inFlight]);
  }

  /**
   * Under replay a buffer is held until the recording wants it; its credit goes back at once (the
   * held buffers are the replay's, so a sender never waits on a re-cut buffer's turn).
   */
  #holdForReplay(gate: number, channel: InputChannel, buffer: DataBuffer | EventBuffer): void {
    this.#replay!.absorb(gate, channel.index, buffer);
    if (!(buffer.kind === 'event' && buffer.priority)) this.#deferred.push({ type: 'credit', channelId: channel.channelId, credits: 1 });
  }

  /** Hands the gates what the recording wants next; those buffers took no credit of their own. */
  #releaseReplayed(): void {
    for (const { gate, channel, buffer } of this.#replay!.release(this.gates)) {
      this.#creditFree.add(buffer);
      const inFlight = this.gates[gate]!.receive(channel, buffer, buffer.kind === 'event' && (buffer.priority || this.#overtakes(buffer)));
      if (inFlight) this.#persistInput(gate, channel, [inFlight]);
    }
  }

  /**
   * Priority events overtake the queued buffers; so does a late barrier of a checkpoint that
   * already went unaligned here (Flink converts its announcement into a priority event).
   */
  #overtakes(buffer: DataBuffer | EventBuffer): boolean {
    if (buffer.kind !== 'event') return false;
    if (buffer.priority) return true;
    return buffer.event.kind === 'barrier' && buffer.event.checkpointId === this.#barriers.unalignedCheckpointId;
  }

  addCredits(channelId: number, credits: number): void {
    if (!this.lifecycle.isTerminal) this.router.addCredits(channelId, credits);
  }

  /** The coordinator asks this subtask to start a checkpoint (sources, or tasks whose inputs all ended). */
  triggerCheckpoint(barrier: CheckpointBarrier): void {
    this.#pendingTriggers.push(barrier);
  }

  notifyCheckpointComplete(checkpointId: number): void {
    if (this.lifecycle.isTerminal) return;
    this.keyedState?.notifyCheckpointComplete?.(checkpointId);
    if (!this.#twoPhaseSink) return;
    for (const transaction of this.#twoPhaseSink.notifyCheckpointComplete(checkpointId)) this.#deferred.push({ type: 'sink-commit', transaction });
  }

  notifyCheckpointAborted(checkpointId: number): void {
    // Under replay it takes effect where it did live: after as many consumed records and events.
    if (this.#replay && !this.#source) return this.#replay.abortArrived(checkpointId);
    this.#abortCheckpoint(checkpointId);
  }

  #abortCheckpoint(checkpointId: number): void {
    if (!this.lifecycle.isTerminal && !this.#source) this.recorder?.abortNotified(checkpointId, this.#consumedUnits);
    if (!this.lifecycle.isTerminal) this.keyedState?.notifyCheckpointAborted?.(checkpointId);
    // Remembered so that a barrier still to come sends a cancellation marker instead (Flink keeps these too).
    if (checkpointId > this.#lastCheckpointId) {
      this.#abortedCheckpoints.add(checkpointId);
      if (this.#abortedCheckpoints.size > MAX_REMEMBERED_ABORTS) this.#abortedCheckpoints.delete(Math.min(...this.#abortedCheckpoints));
    }
    this.#barriers.abortCurrent(checkpointId);
    this.#dropPending(checkpointId);
  }

  poll(now: number, effects: TaskEffect[]): PollOutcome {
    if (this.lifecycle.state !== 'RUNNING') return this.#settle(now, 'finished');
    if (this.#deferred.length > 0) effects.push(...this.#deferred.splice(0));
    const switchCost = this.#fireAlignmentTimers(now, effects);
    this.#sendReady(effects);
    if (now >= this.#nextFlushAt) {
      this.router.flushPartial();
      this.#nextFlushAt = now + this.deployment.bufferTimeout;
      this.#sendReady(effects);
    }
    this.#acknowledgeSentBarriers(effects);
    if (switchCost > 0) return this.#busy(now, switchCost);
    const trigger = this.#nextTrigger();
    if (trigger) return this.#triggered(now, trigger, effects);
    if (this.#ending) return this.#pollEnding(now);
    return this.#source ? this.#pollSource(now, this.#source) : this.#pollInput(now, effects);
  }

  /** The next trigger to carry out; under replay a source first emits up to the recorded barrier offset. */
  #nextTrigger(): CheckpointBarrier | undefined {
    const trigger = this.#pendingTriggers[0];
    if (trigger && this.#source && !this.hasEndedInput && !this.#source.readyForBarrier(trigger.checkpointId)) return undefined;
    return this.#pendingTriggers.shift();
  }

  /** Under replay a source knows a checkpoint as aborted exactly when the recorded one did (the abort's arrival was timing). */
  #followRecordedAbort(checkpointId: number): void {
    if (this.#replay!.injectsCancel(checkpointId)) this.#abortedCheckpoints.add(checkpointId);
    else this.#abortedCheckpoints.delete(checkpointId);
  }

  #triggered(now: number, barrier: CheckpointBarrier, effects: TaskEffect[]): PollOutcome {
    if (this.hasEndedInput) {
      effects.push({ type: 'decline-checkpoint', checkpointId: barrier.checkpointId, reason: 'CHECKPOINT_DECLINED_TASK_NOT_READY' });
      return this.#busy(now, 0);
    }
    if (this.#source && this.#replay) this.#followRecordedAbort(barrier.checkpointId);
    if (this.#source) this.recorder?.barrierInjected(barrier.checkpointId, this.#source.offset, this.#abortedCheckpoints.has(barrier.checkpointId));
    this.#source?.barrierInjected();
    const figures = { startDelayMs: Math.max(0, now - barrier.timestamp), alignmentDurationMs: 0, processedBytes: 0 };
    return this.#busy(now, this.#performCheckpoint(now, barrier, figures, false, effects));
  }

  #pollEnding(now: number): PollOutcome {
    if (!this.router.backlogEmpty) return this.#settle(now, 'backpressured');
    this.lifecycle.send('FINISH');
    return this.#settle(now, 'finished');
  }

  /** One unit of the source's work, as the task's poll outcome; the records' cost is the task's. */
  #pollSource(now: number, source: SourceInput): PollOutcome {
    const step = source.poll(now, this.#lastCheckpointId);
    switch (step.type) {
      case 'emitted':
        this.metrics.numRecordsOut += step.records;
        return this.#busy(now, step.records * this.#costMs);
      case 'idle':
        return this.#idle(now, step.wakeAt);
      case 'backpressured':
        return this.#settle(now, 'backpressured');
      case 'end-of-input':
        return this.#endOfInput(now, []);
    }
  }

  #pollInput(now: number, effects: TaskEffect[]): PollOutcome {
    for (let handled = 0; handled < MAX_EVENTS_PER_POLL; handled++) {
      if (this.#replay) for (const id of this.#replay.dueAborts(this.#consumedUnits)) this.#abortCheckpoint(id);
      if (this.#replay) this.#releaseReplayed();
      // Priority events go first, even while the output is full (they carry no records).
      const next = this.#pollPriority() ?? (this.router.available ? this.#pollGates() : undefined);
      // Events handled at no cost in this poll (a forwarded cancellation marker) go out now, or
      // they would wait for the next input.
      if (!next && this.#sendReady(effects) > 0) continue;
      if (!next) return this.router.available ? this.#idle(now, undefined) : this.#settle(now, 'backpressured');
      const { gate, channel, buffer } = next;
      this.recorder?.consumed(gate, channel.index, buffer);
      this.#consumedUnits += buffer.kind === 'data' ? buffer.records.length : 1;
      if (!this.#creditFree.has(buffer)) effects.push({ type: 'credit', channelId: channel.channelId, credits: 1 });
      this.metrics.numBuffersIn++;
      this.metrics.numBytesIn += buffer.sizeBytes;
      if (buffer.kind === 'data') return this.#processData(now, gate, channel, buffer, effects);
      const outcome = this.#processEvent(now, gate, channel, buffer, effects);
      if (outcome) return outcome;
    }
    return this.#busy(now, 0);
  }

  #pollPriority(): { gate: number; channel: InputChannel; buffer: DataBuffer | EventBuffer } | undefined {
    for (let g = 0; g < this.gates.length; g++) {
      const next = this.gates[g]!.pollPriority();
      if (next) return { gate: g, ...next };
    }
    return undefined;
  }

  #pollGates(): { gate: number; channel: InputChannel; buffer: DataBuffer | EventBuffer } | undefined {
    for (let g = 0; g < this.gates.length; g++) {
      const next = this.gates[g]!.pollNext();
      if (next) return { gate: g, ...next };
    }
    return undefined;
  }

  #processData(now: number, gate: number, channel: InputChannel, buffer: DataBuffer, effects: TaskEffect[]): PollOutcome {
    const operator = this.#operator!;
    const out = this.#sinkOutput ?? this.router;
    const records = buffer.records;
    this.#barriers.onBufferProcessed(buffer);
    for (let i = 0; i < records.length; i++) operator.processRecord(records[i]!, gate, out);
    this.metrics.numRecordsIn += records.length;
    if (buffer.watermark !== undefined) this.#onWatermark(this.#valve.inputWatermark(channel, buffer.watermark), out);
    this.#emitSinkBatch(effects);
    this.metrics.numRecordsOut = this.#sinkOutput ? this.metrics.numRecordsIn : this.router.recordsOut;
    return this.#busy(now, records.length * this.#costMs);
  }

  /** An advance of the task's watermark (the valve's) fires the operator's timers and goes downstream. */
  #onWatermark(advanced: number | undefined, out: Output): void {
    if (advanced === undefined) return;
    this.#operator!.processWatermark(advanced, out);
    if (!this.#sinkOutput) this.router.broadcastWatermark(advanced);
  }

  /** Handles an event buffer; returns an outcome when the poll should end here. */
  #processEvent(now: number, gate: number, channel: InputChannel, buffer: EventBuffer, effects: TaskEffect[]): PollOutcome | undefined {
    const event = buffer.event;
    switch (event.kind) {
      case 'end-of-partition': {
        channel.finished = true;
        this.#onWatermark(this.#valve.onChannelFinished(), this.#sinkOutput ?? this.router);
        const cost = this.#onBarrierOutcomes(now, this.#barriers.onEndOfPartition(now), effects);
        if (this.gates.every((g) => g.allFinished)) return this.#endOfInput(now, effects);
        return cost > 0 ? this.#busy(now, cost) : undefined;
      }
      case 'barrier': {
        const cost = this.#onBarrierOutcomes(now, this.#barriers.onBarrier(gate, channel.index, event, now), effects);
        return cost > 0 ? this.#busy(now, cost) : undefined;
      }
      case 'cancel-checkpoint':
        this.#onBarrierOutcomes(now, this.#barriers.onCancelMarker(event.checkpointId), effects);
        return undefined;
    }
  }

  /** Carries out what the barrier handler decided, in order; returns the virtual time it took. */
  #onBarrierOutcomes(now: number, outcomes: BarrierHandlerOutcome[], effects: TaskEffect[]): number {
    let cost = 0;
    for (const outcome of outcomes) cost += this.#onBarrierOutcome(now, outcome, effects);
    return cost;
  }

  #onBarrierOutcome(now: number, outcome: BarrierHandlerOutcome, effects: TaskEffect[]): number {
    switch (outcome.type) {
      case 'snapshot':
        return this.#performCheckpoint(now, outcome.barrier, outcome.figures, true, effects);
      case 'unaligned-complete':
        this.#inputsComplete(outcome.checkpointId, outcome.figures, effects);
        return 0;
      case 'abort':
        // Flink's abortCheckpointOnBarrier: decline, and tell downstream with a cancellation marker.
        effects.push({ type: 'decline-checkpoint', checkpointId: outcome.checkpointId, reason: outcome.reason });
        this.router.broadcastEvent(() => ({ kind: 'event', event: { kind: 'cancel-checkpoint', checkpointId: outcome.checkpointId }, sizeBytes: 16, priority: false }));
        this.#dropPending(outcome.checkpointId);
        return 0;
    }
  }

  /**
   * Flink's SubtaskCheckpointCoordinatorImpl.checkpointState: forward the barrier downstream
   * first (a priority event when unaligned), then take the synchronous snapshot; the upload
   * (asynchronous part) is the driver's, once the in-flight data is known. `viaInputs`: the
   * barrier came through the inputs (not a trigger), so an unaligned one waits for the others.
   * Returns the virtual time the synchronous part blocks the task.
   */
  #performCheckpoint(now: number, barrier: CheckpointBarrier, figures: AlignmentFigures, viaInputs: boolean, effects: TaskEffect[]): number {
    if (barrier.checkpointId <= this.#lastCheckpointId) return 0;
    this.#lastCheckpointId = barrier.checkpointId;
    if (this.#abortedCheckpoints.delete(barrier.checkpointId)) {
      // Flink's SubtaskCheckpointCoordinatorImpl.checkpointState, step 1: the checkpoint was already
      // aborted, so downstream gets a cancellation marker instead of the barrier, and no snapshot is taken.
      this.router.broadcastEvent(() => ({ kind: 'event', event: { kind: 'cancel-checkpoint', checkpointId: barrier.checkpointId }, sizeBytes: 16, priority: false }));
      return 0;
    }
    const unaligned = barrier.alignment === 'UNALIGNED';
    const outputs = this.#broadcastBarrier(barrier, unaligned);
    const snapshot = this.#takeSnapshot(barrier.checkpointId, barrier.checkpointKind === 'SAVEPOINT');
    const syncMs = this.#syncSnapshotMs();
    const metrics: SubtaskCheckpointMetrics = {
      startDelayMs: figures.startDelayMs,
      alignmentDurationMs: figures.alignmentDurationMs,
      syncDurationMs: syncMs,
      processedDataBytes: figures.processedBytes,
      persistedDataBytes: 0,
      // as Flink's checkpointMetrics.setUnalignedCheckpoint(options.isUnalignedCheckpoint())
      unalignedCheckpoint: unaligned,
      syncEndTime: now + syncMs,
    };
    // An aligned barrier with a timeout registers the aligned→unaligned output timer
    // (SubtaskCheckpointCoordinatorImpl#registerAlignmentTimer).
    const awaitingOutputs = !unaligned && barrier.alignedTimeoutAt !== undefined && this.router.subpartitions.length > 0;
    const pending: PendingSnapshot = { barrier, snapshot, metrics, channelState: { inputs: [], outputs }, awaitingInputs: unaligned && viaInputs, awaitingOutputs };
    this.#pending.push(pending);
    if (pending.awaitingInputs) this.#startRecording(barrier.checkpointId);
    this.#maybeAcknowledge(pending, effects);
    return syncMs;
  }

  /** Puts the barrier on every output; an unaligned one goes first, and what it overtook is output channel state. */
  #broadcastBarrier(barrier: CheckpointBarrier, unaligned: boolean): ChannelState['outputs'] {
    const make = (): EventBuffer => ({ kind: 'event', event: barrier, sizeBytes: 32, priority: unaligned });
    if (!unaligned) {
      this.router.broadcastEvent(make);
      return [];
    }
    const outputs: ChannelState['outputs'] = [];
    for (const s of this.router.subpartitions) {
      const overtaken = s.addPriorityEvent(make()).filter((b): b is DataBuffer => b.kind === 'data');
      if (overtaken.length > 0) outputs.push({ channelId: s.channelId, buffers: overtaken });
    }
    return outputs;
  }

  /** Flink's checkpointStarted on every input channel: queued data ahead of the barriers is in flight. */
  #startRecording(checkpointId: number): void {
    this.gates.forEach((gate, g) => {
      for (const { channel, buffers } of gate.startRecording(checkpointId)) this.#persistInput(g, channel, buffers);
    });
  }

  #persistInput(gate: number, channel: number, buffers: DataBuffer[]): void {
    const pending = this.#pending.find((p) => p.awaitingInputs);
    if (!pending || buffers.length === 0) return;
    const inputs = pending.channelState.inputs;
    let entry = inputs.find((e) => e.gate === gate && e.channel === channel);
    if (!entry) inputs.push((entry = { gate, channel, buffers: [] }));
    entry.buffers.push(...buffers);
  }

  /** The last barrier of an unaligned checkpoint arrived: its input channel state is complete. */
  #inputsComplete(checkpointId: number, figures: AlignmentFigures, effects: TaskEffect[]): void {
    const pending = this.#pending.find((p) => p.awaitingInputs && p.barrier.checkpointId === checkpointId);
    if (!pending) return;
    pending.awaitingInputs = false;
    pending.metrics.alignmentDurationMs = figures.alignmentDurationMs;
    pending.metrics.processedDataBytes = figures.processedBytes;
    this.#maybeAcknowledge(pending, effects);
  }

  /**
   * The aligned→unaligned timers: the input one switches a running alignment to unaligned (the
   * snapshot is taken now; returns its cost); the output one moves the barrier of a pending
   * aligned snapshot ahead of the buffers still queued before it (PipelinedSubpartition#
   * alignedBarrierTimeout).
   */
  #fireAlignmentTimers(now: number, effects: TaskEffect[]): number {
    const cost = this.#onBarrierOutcomes(now, this.#barriers.onAlignmentTimeout(now), effects);
    for (const pending of [...this.#pending]) {
      if (pending.awaitingOutputs && now >= pending.barrier.alignedTimeoutAt!) this.#timeOutOutputs(pending, effects);
    }
    return cost;
  }

  #timeOutOutputs(pending: PendingSnapshot, effects: TaskEffect[]): void {
    const id = pending.barrier.checkpointId;
    const asPriority = (b: EventBuffer): EventBuffer => ({ ...b, event: asUnaligned(pending.barrier), priority: true });
    for (const s of this.router.subpartitions) {
      const overtaken = s.timeOutAlignedBarrier(id, asPriority);
      if (overtaken && overtaken.length > 0) pending.channelState.outputs.push({ channelId: s.channelId, buffers: overtaken });
    }
    pending.awaitingOutputs = false;
    this.#maybeAcknowledge(pending, effects);
  }

  /** An aligned barrier that left every output in time: no output channel state (the future completes empty). */
  #acknowledgeSentBarriers(effects: TaskEffect[]): void {
    for (const pending of [...this.#pending]) {
      if (!pending.awaitingOutputs) continue;
      if (this.router.subpartitions.some((s) => s.holdsBarrier(pending.barrier.checkpointId))) continue;
      pending.awaitingOutputs = false;
      this.#maybeAcknowledge(pending, effects);
    }
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
    if (dropped.some((p) => p.awaitingInputs)) for (const gate of this.gates) for (const c of gate.channels) c.stopRecording(checkpointId);
  }

  /** When the task must be polled for an aligned→unaligned timer, if one is pending. */
  #nextTimerAt(): number | undefined {
    let at = this.#barriers.alignmentTimeoutAt ?? Infinity;
    for (const p of this.#pending) if (p.awaitingOutputs) at = Math.min(at, p.barrier.alignedTimeoutAt ?? Infinity);
    return at === Infinity ? undefined : at;
  }

  /** The synchronous snapshot: source offset, keyed state (timers included), sink transactions. */
  #takeSnapshot(checkpointId: number, isSavepoint: boolean): TaskStateSnapshot {
    const snapshot: TaskStateSnapshot = { subtask: this.id, stateSize: SNAPSHOT_METADATA_BYTES, checkpointedSize: SNAPSHOT_METADATA_BYTES };
    if (this.#source) snapshot.sourceOffset = this.#source.offset;
    if (this.keyedState) this.#snapshotKeyedState(checkpointId, snapshot, isSavepoint);
    if (this.#twoPhaseSink) {
      const pending = this.#twoPhaseSink.snapshot(checkpointId);
      snapshot.pendingTransactions = pending;
      const bytes = pending.reduce((n, t) => n + t.records.length, 0) * this.deployment.recordSizeBytes;
      snapshot.stateSize += bytes;
      snapshot.checkpointedSize += bytes;
    }
    return snapshot;
  }

  /** Measured before the snapshot runs: a rocksdb snapshot flushes its memtables, emptying them. */
  #syncCost: number | undefined;

  #syncSnapshotMs(): number {
    const cost = this.#syncCost ?? syncSnapshotMs(this.keyedState?.entryCount() ?? 0);
    this.#syncCost = undefined;
    return cost;
  }

  /**
   * Keyed state goes out whole (hashmap, or a savepoint: Flink's NO_SHARING scope) or, with
   * execution.checkpointing.incremental on a rocksdb backend, as the files the last confirmed
   * checkpoint lacks plus the small private state.
   */
  #snapshotKeyedState(checkpointId: number, snapshot: TaskStateSnapshot, isSavepoint: boolean): void {
    const backend = this.keyedState!;
    const work = backend.syncSnapshotWork?.();
    if (work) this.#syncCost = rocksDbSyncSnapshotMs(work.memtableBytes, work.heapTimerEntries);
    if (this.deployment.incrementalCheckpoints && !isSavepoint && backend.incrementalSnapshot) {
      const inc = backend.incrementalSnapshot(checkpointId);
      snapshot.keyedState = { incremental: inc.privateState };
      snapshot.sharedFiles = inc.sharedFiles;
      snapshot.stateSize += inc.stateSize;
      snapshot.checkpointedSize += inc.checkpointedSize;
      return;
    }
    const full = backend.snapshot();
    const keyed = this.deployment.snapshotCompression ? compressSnapshot(full) : full;
    snapshot.keyedState = keyed;
    snapshot.stateSize += keyed.sizeBytes;
    snapshot.checkpointedSize += keyed.sizeBytes;
  }

  #restore(restore: TaskRestore): void {
    if (this.#source && restore.sourceOffset !== undefined) this.#source.restoreOffset(restore.sourceOffset);
    if (this.keyedState && restore.keyedState.length > 0) {
      const range = this.deployment.keyGroupRange;
      this.keyedState.restore(restore.keyedState.map((s) => (isCompressedSnapshot(s) ? decompressSnapshot(s, range) : s)));
    }
    for (const inc of restore.incremental ?? []) this.keyedState?.restoreFromIncremental?.(inc.privateState, inc.files);
    if (this.keyedState && (restore.keyedState.length > 0 || (restore.incremental?.length ?? 0) > 0)) this.#operator?.afterRestore?.();
    if (this.#twoPhaseSink && restore.pendingTransactions) {
      for (const transaction of this.#twoPhaseSink.recoverAndCommit(restore.pendingTransactions)) this.#deferred.push({ type: 'sink-commit', transaction });
    }
    if (restore.channelState) this.#restoreChannelState(restore.channelState);
    this.#lastCheckpointId = restore.checkpointId;
  }

  /** In-flight data of an unaligned checkpoint: outputs are sent again, inputs processed first. */
  #restoreChannelState(state: ChannelState): void {
    for (const { channelId, buffers } of state.outputs) {
      const s = this.router.subpartitions.find((p) => p.channelId === channelId);
      for (const b of buffers) s?.addEvent(b);
    }
    for (const { gate, channel, buffers } of state.inputs) {
      for (const b of buffers) {
        this.#creditFree.add(b);
        this.gates[gate]?.receive(channel, b);
      }
    }
  }

  #endOfInput(now: number, effects: TaskEffect[]): PollOutcome {
    if (this.#source?.endInput()) this.router.broadcastWatermark(Infinity);
    if (this.#twoPhaseSink) {
      // Flink's final checkpoint commits what is left when the input ends.
      for (const transaction of this.#twoPhaseSink.endOfInput(this.#lastCheckpointId + 1)) effects.push({ type: 'sink-commit', transaction });
    }
    this.#finalSnapshot = { ...this.#takeSnapshotOfFinished(), finished: true };
    this.router.flushPartial();
    this.router.broadcastEvent(() => ({ kind: 'event', event: { kind: 'end-of-partition' }, sizeBytes: 4, priority: false }));
    this.#ending = true;
    return this.#busy(now, 0);
  }

  #takeSnapshotOfFinished(): TaskStateSnapshot {
    const snapshot: TaskStateSnapshot = { subtask: this.id, stateSize: 0, checkpointedSize: 0 };
    if (this.#source) snapshot.sourceOffset = this.#source.offset;
    return snapshot;
  }

  #emitSinkBatch(effects: TaskEffect[]): void {
    if (this.#sinkBatch.length === 0) return;
    effects.push({ type: 'sink-output', records: this.#sinkBatch });
    this.#sinkBatch = [];
  }

  /** Sends every buffer that may go now; returns how many. */
  #sendReady(effects: TaskEffect[]): number {
    let sent = 0;
    for (const { channelId, buffer } of this.router.sendable()) {
      this.metrics.numBuffersOut++;
      this.metrics.numBytesOut += buffer.sizeBytes;
      effects.push({ type: 'send', channelId, buffer });
      sent++;
    }
    return sent;
  }

  #busy(now: number, costMs: number): PollOutcome {
    this.metrics.switchTo('busy', now);
    return { status: 'busy', until: now + costMs };
  }

  /** Idle until new input, or until `wakeAt`, or the next flush of a partial output buffer. */
  #idle(now: number, wakeAt: number | undefined): PollOutcome {
    this.metrics.switchTo('idle', now);
    let at = Math.min(wakeAt ?? Infinity, this.#nextTimerAt() ?? Infinity);
    if (this.router.hasPartialBuffers) at = Math.min(at, this.#nextFlushAt);
    at = Math.min(at, this.#source?.watermarkWakeAt ?? Infinity);
    return at === Infinity ? { status: 'idle' } : { status: 'idle', wakeAt: at };
  }

  #settle(now: number, status: 'backpressured' | 'finished'): PollOutcome {
    this.metrics.switchTo(status === 'backpressured' ? 'backpressured' : 'idle', now);
    // PollOutcome's 'backpressured' carries no wake time, but an aligned→unaligned timer must fire
    // while the output is full (Flink's mailbox runs it anyway): wait as idle until then instead.
    const timerAt = status === 'backpressured' ? this.#nextTimerAt() : undefined;
    return timerAt === undefined ? { status } : { status: 'idle', wakeAt: timerAt };
  }
}

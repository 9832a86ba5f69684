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
import { availableAt, availableCount, type SourceSplit } from '../sources/source-split.ts';
import { createSplit } from '../sources/create-split.ts';
import type { KeyedStateBackend, KeyedStateSnapshot } from '../state/keyed-state-backend.ts';
import { TaskMetrics } from '../metrics/task-metrics.ts';
import { CheckpointBarrierHandler, type BarrierHandlerOutcome } from './checkpoint-barrier-handler.ts';
import { OutputRouter } from './output-router.ts';
import { SNAPSHOT_METADATA_BYTES, syncSnapshotMs } from './snapshot-cost.ts';
import { TaskLifecycle } from './task-lifecycle.ts';
import type { TaskDeployment } from './task-deployment.ts';

/** Where a source subtask stands in its split. */
interface SourceReader {
  split: SourceSplit;
  /** next record to emit: the offset a checkpoint records */
  offset: number;
  /** virtual time the job started; record i is available at jobStart + i / rate */
  jobStart: number;
  maxTimestamp: number;
  lastWatermark: number;
  nextWatermarkAt: number;
}

/** An unaligned snapshot taken at the first barrier, completed when the last barrier arrives. */
interface UnalignedSnapshot {
  snapshot: TaskStateSnapshot;
  metrics: SubtaskCheckpointMetrics;
  channelState: ChannelState;
}

/** What a restored subtask starts from (its share of a completed checkpoint). */
export interface TaskRestore {
  checkpointId: number;
  sourceOffset?: number;
  keyedState: KeyedStateSnapshot[];
  pendingTransactions: TaskStateSnapshot['pendingTransactions'];
  channelState?: ChannelState;
}

/**
 * Upper bound on zero-cost events (barriers, markers) handled in one poll before yielding, so
 * a flood of events cannot starve the driver's other work.
 */
const MAX_EVENTS_PER_POLL = 64;

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
  readonly #source: SourceReader | undefined;
  readonly #channels = new Map<number, { gate: number; channel: InputChannel }>();
  #costMs: number;
  readonly #sinkOutput: Output | undefined;
  readonly #twoPhaseSink: TwoPhaseCommitSink | undefined;
  readonly #barriers: CheckpointBarrierHandler;
  /** buffers that took no credit (priority events, replayed channel state): consuming them returns none */
  readonly #creditFree = new WeakSet<NetworkBuffer>();
  #sinkBatch: StreamRecord[] = [];
  #combinedWatermark = -Infinity;
  #nextFlushAt: number;
  /** end-of-partition has been put on every output; the task finishes once they are sent */
  #ending = false;
  /** checkpoints triggered directly (sources, or tasks whose inputs all ended), not yet taken */
  #pendingTriggers: CheckpointBarrier[] = [];
  #lastCheckpointId = 0;
  #unaligned: UnalignedSnapshot | undefined;
  /** effects to emit on the next poll (commits of restored transactions) */
  #deferred: TaskEffect[] = [];
  /** the state the task had when its input ended: a finished task's part in later checkpoints */
  #finalSnapshot: TaskStateSnapshot | undefined;

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
      this.#source = {
        split: createSplit(spec.source, deployment.seed, subtaskIndex),
        offset: 0,
        jobStart: 0,
        maxTimestamp: -Infinity,
        lastWatermark: -Infinity,
        nextWatermarkAt: now + deployment.autoWatermarkInterval,
      };
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
  }

  receive(channelId: number, buffer: DataBuffer | EventBuffer): void {
    const target = this.#channels.get(channelId);
    if (!target || this.lifecycle.isTerminal) return;
    if (buffer.kind === 'event' && buffer.priority) this.#creditFree.add(buffer);
    if (buffer.kind === 'data' && this.#unaligned && this.#barriers.persistsArrivalsOn(target.gate, target.channel.index)) {
      this.#persistInFlight(target.gate, target.channel.index, buffer);
    }
    this.gates[target.gate]!.receive(target.channel.index, buffer);
  }

  addCredits(channelId: number, credits: number): void {
    if (!this.lifecycle.isTerminal) this.router.addCredits(channelId, credits);
  }

  /** The coordinator asks this subtask to start a checkpoint (sources, or tasks whose inputs all ended). */
  triggerCheckpoint(barrier: CheckpointBarrier): void {
    this.#pendingTriggers.push(barrier);
  }

  notifyCheckpointComplete(checkpointId: number): void {
    if (!this.#twoPhaseSink || this.lifecycle.isTerminal) return;
    for (const transaction of this.#twoPhaseSink.notifyCheckpointComplete(checkpointId)) this.#deferred.push({ type: 'sink-commit', transaction });
  }

  notifyCheckpointAborted(checkpointId: number): void {
    this.#barriers.abortCurrent(checkpointId);
    if (this.#unaligned?.snapshot && this.#unalignedId === checkpointId) this.#unaligned = undefined;
  }

  poll(now: number, effects: TaskEffect[]): PollOutcome {
    if (this.lifecycle.state !== 'RUNNING') return this.#settle(now, 'finished');
    if (this.#deferred.length > 0) effects.push(...this.#deferred.splice(0));
    this.#sendReady(effects);
    if (now >= this.#nextFlushAt) {
      this.router.flushPartial();
      this.#nextFlushAt = now + this.deployment.bufferTimeout;
      this.#sendReady(effects);
    }
    const trigger = this.#pendingTriggers.shift();
    if (trigger) return this.#triggered(now, trigger, effects);
    if (this.#ending) return this.#pollEnding(now);
    return this.#source ? this.#pollSource(now, this.#source) : this.#pollInput(now, effects);
  }

  #triggered(now: number, barrier: CheckpointBarrier, effects: TaskEffect[]): PollOutcome {
    if (this.hasEndedInput) {
      effects.push({ type: 'decline-checkpoint', checkpointId: barrier.checkpointId, reason: 'CHECKPOINT_DECLINED_TASK_NOT_READY' });
      return this.#busy(now, 0);
    }
    const startDelayMs = Math.max(0, now - barrier.timestamp);
    const cost = this.#performCheckpoint(now, barrier, { startDelayMs, alignmentDurationMs: 0, processedBytes: 0 }, barrier.alignment === 'UNALIGNED', effects);
    return this.#busy(now, cost);
  }

  #pollEnding(now: number): PollOutcome {
    if (!this.router.backlogEmpty) return this.#settle(now, 'backpressured');
    this.lifecycle.send('FINISH');
    return this.#settle(now, 'finished');
  }

  #pollSource(now: number, src: SourceReader): PollOutcome {
    this.#maybeEmitSourceWatermark(now, src);
    if (src.offset >= src.split.count) return this.#endOfInput(now, []);
    const available = availableCount(src.split, now - src.jobStart) - src.offset;
    if (available <= 0) return this.#idle(now, src.jobStart + availableAt(src.split, src.offset));
    if (!this.router.available) return this.#settle(now, 'backpressured');
    const n = Math.min(available, this.deployment.recordsPerBuffer);
    for (let i = 0; i < n; i++) {
      const record = src.split.recordAt(src.offset++);
      if (record.timestamp > src.maxTimestamp) src.maxTimestamp = record.timestamp;
      this.router.collect(record);
    }
    this.metrics.numRecordsOut += n;
    return this.#busy(now, n * this.#costMs);
  }

  /** Periodic watermarks from the source, as Flink's bounded-out-of-orderness generator (0 ms): max − 1. */
  #maybeEmitSourceWatermark(now: number, src: SourceReader): void {
    if (now < src.nextWatermarkAt) return;
    while (src.nextWatermarkAt <= now) src.nextWatermarkAt += this.deployment.autoWatermarkInterval;
    const watermark = src.maxTimestamp - 1;
    if (watermark > src.lastWatermark) {
      src.lastWatermark = watermark;
      this.router.broadcastWatermark(watermark);
    }
  }

  #pollInput(now: number, effects: TaskEffect[]): PollOutcome {
    for (let handled = 0; handled < MAX_EVENTS_PER_POLL; handled++) {
      if (!this.router.available) return this.#settle(now, 'backpressured');
      const next = this.#pollGates();
      if (!next) return this.#idle(now, undefined);
      const { gate, channel, buffer } = next;
      if (!this.#creditFree.has(buffer)) effects.push({ type: 'credit', channelId: channel.channelId, credits: 1 });
      this.metrics.numBuffersIn++;
      this.metrics.numBytesIn += buffer.sizeBytes;
      if (buffer.kind === 'data') return this.#processData(now, gate, channel, buffer, effects);
      const outcome = this.#processEvent(now, gate, channel, buffer, effects);
      if (outcome) return outcome;
    }
    return this.#busy(now, 0);
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
    if (buffer.watermark !== undefined) this.#advanceWatermark(channel, buffer.watermark, out);
    this.#emitSinkBatch(effects);
    this.metrics.numRecordsOut = this.#sinkOutput ? this.metrics.numRecordsIn : this.router.recordsOut;
    return this.#busy(now, records.length * this.#costMs);
  }

  #advanceWatermark(channel: InputChannel, watermark: number, out: Output): void {
    if (watermark > channel.watermark) channel.watermark = watermark;
    this.#recomputeWatermark(out);
  }

  /** The task's watermark is the minimum over all inputs; an advance fires timers and goes downstream. */
  #recomputeWatermark(out: Output): void {
    let combined = Infinity;
    for (const gate of this.gates) combined = Math.min(combined, gate.combinedWatermark());
    if (combined <= this.#combinedWatermark) return;
    this.#combinedWatermark = combined;
    this.#operator!.processWatermark(combined, out);
    if (!this.#sinkOutput) this.router.broadcastWatermark(combined);
  }

  /** Handles an event buffer; returns an outcome when the poll should end here. */
  #processEvent(now: number, gate: number, channel: InputChannel, buffer: EventBuffer, effects: TaskEffect[]): PollOutcome | undefined {
    const event = buffer.event;
    switch (event.kind) {
      case 'end-of-partition': {
        channel.finished = true;
        this.#recomputeWatermark(this.#sinkOutput ?? this.router);
        const outcome = this.#barriers.onEndOfPartition(now);
        const cost = this.#onBarrierOutcome(now, outcome, effects);
        if (this.gates.every((g) => g.allFinished)) return this.#endOfInput(now, effects);
        return cost > 0 ? this.#busy(now, cost) : undefined;
      }
      case 'barrier': {
        const cost = this.#onBarrierOutcome(now, this.#barriers.onBarrier(gate, channel.index, event, now), effects);
        return cost > 0 ? this.#busy(now, cost) : undefined;
      }
      case 'cancel-checkpoint':
        this.#onBarrierOutcome(now, this.#barriers.onCancelMarker(event.checkpointId), effects);
        return undefined;
    }
  }

  /** Carries out what the barrier handler decided; returns the virtual time it took. */
  #onBarrierOutcome(now: number, outcome: BarrierHandlerOutcome, effects: TaskEffect[]): number {
    switch (outcome.type) {
      case 'none':
        return 0;
      case 'snapshot': {
        const a = this.#barriers.lastAlignment;
        const figures = outcome.unaligned
          ? { startDelayMs: outcome.startDelayMs, alignmentDurationMs: 0, processedBytes: 0 }
          : { startDelayMs: a.startDelayMs, alignmentDurationMs: a.durationMs, processedBytes: a.processedBytes };
        return this.#performCheckpoint(now, outcome.barrier, figures, outcome.unaligned, effects);
      }
      case 'unaligned-complete':
        this.#completeUnaligned(outcome.checkpointId, outcome.alignmentDurationMs, effects);
        return 0;
      case 'abort':
        effects.push({ type: 'decline-checkpoint', checkpointId: outcome.checkpointId, reason: outcome.reason });
        this.router.broadcastEvent(() => ({ kind: 'event', event: { kind: 'cancel-checkpoint', checkpointId: outcome.checkpointId }, sizeBytes: 16, priority: false }));
        return 0;
    }
  }

  /**
   * Flink's SubtaskCheckpointCoordinatorImpl.checkpointState: forward the barrier downstream
   * first, then take the synchronous snapshot; the upload (asynchronous part) is the driver's.
   * Returns the virtual time the synchronous part blocks the task.
   */
  #performCheckpoint(
    now: number,
    barrier: CheckpointBarrier,
    figures: { startDelayMs: number; alignmentDurationMs: number; processedBytes: number },
    unaligned: boolean,
    effects: TaskEffect[],
  ): number {
    if (barrier.checkpointId <= this.#lastCheckpointId) return 0;
    this.#lastCheckpointId = barrier.checkpointId;
    const forwarded: EventBuffer = { kind: 'event', event: barrier, sizeBytes: 32, priority: unaligned };
    const outputs = unaligned ? this.#forwardPriorityBarrier(forwarded) : (this.router.broadcastEvent(() => ({ ...forwarded })), []);
    const snapshot = this.#takeSnapshot(barrier.checkpointId);
    const syncMs = syncSnapshotMs(this.keyedState?.entryCount() ?? 0);
    const metrics: SubtaskCheckpointMetrics = {
      startDelayMs: figures.startDelayMs,
      alignmentDurationMs: figures.alignmentDurationMs,
      syncDurationMs: syncMs,
      processedDataBytes: figures.processedBytes,
      persistedDataBytes: 0,
      unalignedCheckpoint: unaligned,
      syncEndTime: now + syncMs,
    };
    if (!unaligned) {
      effects.push({ type: 'persist-snapshot', checkpointId: barrier.checkpointId, snapshot, metrics });
      return syncMs;
    }
    this.#unalignedId = barrier.checkpointId;
    this.#unaligned = { snapshot, metrics, channelState: { inputs: [], outputs } };
    // Everything queued at the inputs now is ahead of its channel's barrier: it is in-flight data.
    this.gates.forEach((gate, g) =>
      gate.channels.forEach((c) => c.queue.forEach((b) => b.kind === 'data' && this.#persistInFlight(g, c.index, b))),
    );
    // A task with a single input channel has all its barriers already.
    if (!this.#barriers.isAligning) this.#completeUnaligned(barrier.checkpointId, 0, effects);
    return syncMs;
  }

  #unalignedId = 0;

  /** Puts an unaligned barrier ahead of every output's queue; what it overtook is output channel state. */
  #forwardPriorityBarrier(barrier: EventBuffer): ChannelState['outputs'] {
    const outputs: ChannelState['outputs'] = [];
    for (const s of this.router.subpartitions) {
      const copy = { ...barrier };
      const overtaken = s.addPriorityEvent(copy).filter((b): b is DataBuffer => b.kind === 'data');
      if (overtaken.length > 0) outputs.push({ channelId: s.channelId, buffers: overtaken });
    }
    return outputs;
  }

  #persistInFlight(gate: number, channel: number, buffer: DataBuffer): void {
    const state = this.#unaligned!.channelState;
    let entry = state.inputs.find((e) => e.gate === gate && e.channel === channel);
    if (!entry) state.inputs.push((entry = { gate, channel, buffers: [] }));
    entry.buffers.push(buffer);
  }

  #completeUnaligned(checkpointId: number, alignmentDurationMs: number, effects: TaskEffect[]): void {
    const uc = this.#unaligned;
    if (!uc || this.#unalignedId !== checkpointId) return;
    this.#unaligned = undefined;
    const persisted = [...uc.channelState.inputs, ...uc.channelState.outputs].reduce((n, e) => n + e.buffers.reduce((m, b) => m + b.sizeBytes, 0), 0);
    const snapshot: TaskStateSnapshot = {
      ...uc.snapshot,
      channelState: uc.channelState,
      stateSize: uc.snapshot.stateSize + persisted,
      checkpointedSize: uc.snapshot.checkpointedSize + persisted,
    };
    const metrics = { ...uc.metrics, alignmentDurationMs, persistedDataBytes: persisted };
    effects.push({ type: 'persist-snapshot', checkpointId, snapshot, metrics });
  }

  /** The synchronous snapshot: source offset, keyed state (timers included), sink transactions. */
  #takeSnapshot(checkpointId: number): TaskStateSnapshot {
    const snapshot: TaskStateSnapshot = { subtask: this.id, stateSize: SNAPSHOT_METADATA_BYTES, checkpointedSize: SNAPSHOT_METADATA_BYTES };
    if (this.#source) snapshot.sourceOffset = this.#source.offset;
    if (this.keyedState) {
      const keyed = this.keyedState.snapshot();
      snapshot.keyedState = keyed;
      snapshot.stateSize += keyed.sizeBytes;
      snapshot.checkpointedSize += keyed.sizeBytes;
    }
    if (this.#twoPhaseSink) {
      const pending = this.#twoPhaseSink.snapshot(checkpointId);
      snapshot.pendingTransactions = pending;
      const bytes = pending.reduce((n, t) => n + t.records.length, 0) * this.deployment.recordSizeBytes;
      snapshot.stateSize += bytes;
      snapshot.checkpointedSize += bytes;
    }
    return snapshot;
  }

  #restore(restore: TaskRestore): void {
    if (this.#source && restore.sourceOffset !== undefined) this.#source.offset = restore.sourceOffset;
    if (this.keyedState && restore.keyedState.length > 0) {
      this.keyedState.restore(restore.keyedState);
      this.#operator?.afterRestore?.();
    }
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
    if (this.#source && this.#source.lastWatermark < Infinity) {
      // A bounded source ends with the max watermark, as Flink's sources do, so every window fires.
      this.#source.lastWatermark = Infinity;
      this.router.broadcastWatermark(Infinity);
    }
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

  #sendReady(effects: TaskEffect[]): void {
    for (const { channelId, buffer } of this.router.sendable()) {
      this.metrics.numBuffersOut++;
      this.metrics.numBytesOut += buffer.sizeBytes;
      effects.push({ type: 'send', channelId, buffer });
    }
  }

  #busy(now: number, costMs: number): PollOutcome {
    this.metrics.switchTo('busy', now);
    return { status: 'busy', until: now + costMs };
  }

  /** Idle until new input, or until `wakeAt`, or the next flush of a partial output buffer. */
  #idle(now: number, wakeAt: number | undefined): PollOutcome {
    this.metrics.switchTo('idle', now);
    let at = wakeAt ?? Infinity;
    if (this.router.hasPartialBuffers) at = Math.min(at, this.#nextFlushAt);
    const src = this.#source;
    if (src && src.maxTimestamp - 1 > src.lastWatermark) at = Math.min(at, src.nextWatermarkAt);
    return at === Infinity ? { status: 'idle' } : { status: 'idle', wakeAt: at };
  }

  #settle(now: number, status: 'backpressured' | 'finished'): PollOutcome {
    this.metrics.switchTo(status === 'backpressured' ? 'backpressured' : 'idle', now);
    return { status };
  }
}

import type {
  ChannelState,
  CheckpointBarrier,
  DataBuffer,
  EventBuffer,
  NetworkBuffer,
  PollOutcome,
  StreamRecord,
  SubtaskId,
  TaskEffect,
  TaskStateSnapshot,
} from '../protocol.ts';
import { InputGate, type InputChannel } from '../network/input-gate.ts';
import { createOperator } from '../operators/operator-factory.ts';
import type { Output, StreamOperator } from '../operators/stream-operator.ts';
import { TwoPhaseCommitSink, transactionPrefix } from '../operators/two-phase-commit-sink.ts';
import type { SourceSplit } from '../sources/source-split.ts';
import { createSplit } from '../sources/create-split.ts';
import type { KeyedStateBackend, KeyedStateSnapshot } from '../state/keyed-state-backend.ts';
import { TaskMetrics } from '../metrics/task-metrics.ts';
import { decompressSnapshot, isCompressedSnapshot } from '../state/snapshot-compression.ts';
import { CheckpointBarrierHandler, type BarrierHandler, type BarrierHandlerOutcome } from './checkpoint-barrier-handler.ts';
import { CheckpointBarrierTracker } from './checkpoint-barrier-tracker.ts';
import { OutputRouter } from './output-router.ts';
import { SourceInput } from './source-input.ts';
import { StatusWatermarkValve } from './status-watermark-valve.ts';
import { SubtaskCheckpointCoordinator, type CheckpointedSubtask } from './subtask-checkpoint-coordinator.ts';
import { TaskLifecycle } from './task-lifecycle.ts';
import type { TaskDeployment } from './task-deployment.ts';
import type { DeliveryRecorder } from '../replay/delivery-recorder.ts';
import type { ReplayFeeder } from '../replay/replay-feeder.ts';

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

/**
 * One subtask, as a sans-I/O state machine. The driver hands it inputs (`receive` a buffer,
 * `addCredits`, `triggerCheckpoint`, checkpoint notifications) and calls `poll(now, effects)`
 * when it is due; `poll` does at most one unit of work (one input buffer, or one buffer's worth
 * of source records, or a snapshot's synchronous part), appends the effects it wants carried out
 * and says when it wants to be polled again.
 *
 * Outputs produced while processing are sent on the next poll, at the end of the busy period,
 * so a record never leaves a subtask before the subtask finished processing it.
 *
 * The task orchestrates; the parts are split as Flink splits its StreamTask: the barrier handler
 * decides when a checkpoint's barriers are in (CheckpointBarrierHandler), the subtask's
 * checkpoint coordinator takes, holds, declines and aborts checkpoints
 * (SubtaskCheckpointCoordinator), the valve combines the input watermarks
 * (StatusWatermarkValve), and a source subtask reads through its SourceInput (SourceOperator).
 */
export class StreamTask implements CheckpointedSubtask {
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
  readonly #barriers: BarrierHandler;
  readonly #valve: StatusWatermarkValve;
  /** buffers that took no credit (priority events, replayed channel state): consuming them returns none */
  readonly #creditFree = new WeakSet<NetworkBuffer>();
  /** a plain sink's writes not yet emitted: the first #sinkBatchSize slots of #sinkBatch */
  #sinkBatch: StreamRecord[] = [];
  #sinkBatchSize = 0;
  #nextFlushAt: number;
  /** the input ended and the operators finished: end-of-data is on every output (Flink's endData) */
  #endOfData = false;
  /**
   * Flink's finalCheckpointMinId: the first checkpoint this task took part in after its input
   * ended. Once a checkpoint this new or newer completes, the task may finish.
   */
  #finalCheckpointId: number | undefined;
  #finalCheckpointCompleted = false;
  /** end-of-partition has been put on every output; the task finishes once they are sent */
  #ending = false;
  /** the synchronous savepoint of a stop-with-savepoint completed: the task finishes on its next poll */
  #stopSavepointCompleted = false;
  /** the subtask's side of checkpointing: triggers, snapshots, declines, aborts */
  readonly #checkpoints: SubtaskCheckpointCoordinator;
  /** effects to emit on the next poll (commits of restored transactions) */
  #deferred: TaskEffect[] = [];
  /** barriers announced on arrival, for the handler on the next poll */
  #announcements: CheckpointBarrier[] = [];
  /** what later checkpoints record for this task once it FINISHED (Flink's finished operator state) */
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
    // as Flink's InputProcessorUtil#createCheckpointBarrierHandler: the mode picks the handler
    this.#barriers = deployment.checkpointingMode === 'AT_LEAST_ONCE' ? new CheckpointBarrierTracker(this.gates) : new CheckpointBarrierHandler(this.gates);
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
        const sink = new TwoPhaseCommitSink(transactionPrefix(vertex.id, subtaskIndex, deployment));
        this.#twoPhaseSink = sink;
        this.#sinkOutput = { collect: (r) => sink.write(r) };
      } else if (spec.type === 'sink') {
        this.#sinkOutput = { collect: (r) => void (this.#sinkBatch[this.#sinkBatchSize++] = r) };
      }
    }
    // Last: the coordinator snapshots what was set up above (the task is its CheckpointedSubtask).
    this.#checkpoints = new SubtaskCheckpointCoordinator(this);
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

  /** Source backlog at `now` (Flink's pendingRecords), or undefined for other tasks. */
  sourcePendingRecords(now: number): number | undefined {
    return this.#source?.pendingRecords(now);
  }

  /** The task's input ended and end-of-data went out; it may still wait for its final checkpoint. */
  get hasEndedInput(): boolean {
    return this.#endOfData;
  }

  /** The input ended and the task waits for its final checkpoint to complete before it finishes. */
  get awaitsFinalCheckpoint(): boolean {
    return this.#endOfData && !this.#ending && this.#waitsForFinalCheckpoint && !this.#finalCheckpointCompleted;
  }

  /** What later checkpoints record for this task once it FINISHED (undefined until then). */
  get finalSnapshot(): TaskStateSnapshot | undefined {
    return this.#finalSnapshot;
  }

  /**
   * Flink's StreamTask#areCheckpointsWithFinishedTasksEnabled: with the option on and periodic
   * checkpointing on, a task whose input ended waits for its final checkpoint before it finishes.
   */
  get #waitsForFinalCheckpoint(): boolean {
    return this.deployment.checkpointsAfterTasksFinish && this.deployment.checkpointingEnabled;
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
    this.#announcements = [];
    this.router.clear();
    this.#checkpoints.cancel();
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
    const overtakes = this.#overtakes(buffer);
    const inFlight = this.gates[target.gate]!.receive(target.channel.index, buffer, overtakes);
    if (inFlight) this.#checkpoints.persistInput(target.gate, target.channel.index, [inFlight]);
    if (!overtakes) this.#announce(buffer);
  }

  /** Hands the barriers announced since the last poll to the handler; returns the cost of a snapshot they started. */
  #takeAnnouncements(now: number, effects: TaskEffect[]): number {
    // every poll passes here: no allocation unless something was announced
    if (this.#announcements.length === 0) return 0;
    return this.#onBarrierOutcomes(now, this.#announcements.splice(0).flatMap((b) => this.#barriers.onAnnouncement(b, now)), effects);
  }

  /**
   * A queued barrier that may time out to unaligned is announced to the barrier handler on the
   * next poll, ahead of the data (RemoteInputChannel queues an EventAnnouncement as a priority
   * buffer), so its alignment timer runs while the barrier still waits behind that data.
   */
  #announce(buffer: DataBuffer | EventBuffer): void {
    if (buffer.kind === 'event' && buffer.event.kind === 'barrier' && buffer.event.alignedTimeoutAt !== undefined) this.#announcements.push(buffer.event);
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
      const overtakes = buffer.kind === 'event' && (buffer.priority || this.#overtakes(buffer));
      const inFlight = this.gates[gate]!.receive(channel, buffer, overtakes);
      if (inFlight) this.#checkpoints.persistInput(gate, channel, [inFlight]);
      if (!overtakes) this.#announce(buffer);
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

  addCredits(channelId: number, credits: number, endOfDataProcessed = false): void {
    if (this.lifecycle.isTerminal) return;
    this.router.addCredits(channelId, credits);
    if (endOfDataProcessed) this.router.markDataProcessed(channelId);
  }

  /** The coordinator asks this subtask to start a checkpoint (running tasks whose upstream all finished: sources first). */
  triggerCheckpoint(barrier: CheckpointBarrier): void {
    this.#checkpoints.trigger(barrier);
  }

  notifyCheckpointComplete(checkpointId: number): void {
    if (this.lifecycle.isTerminal) return;
    this.keyedState?.notifyCheckpointComplete?.(checkpointId);
    // The operators first (the sink commits what the checkpoint covers), then the task may finish
    // (StreamTask#notifyCheckpointComplete completes finalCheckpointCompleted after them).
    if (this.#twoPhaseSink) {
      for (const transaction of this.#twoPhaseSink.notifyCheckpointComplete(checkpointId)) this.#deferred.push({ type: 'sink-commit', transaction });
    }
    if (this.#finalCheckpointId !== undefined && checkpointId >= this.#finalCheckpointId) this.#finalCheckpointCompleted = true;
    if (checkpointId === this.#checkpoints.synchronousSavepointId) this.#stopSavepointCompleted = true;
  }

  notifyCheckpointAborted(checkpointId: number): void {
    // Under replay it takes effect where it did live: after as many consumed records and events.
    if (this.#replay && !this.#source) return this.#replay.abortArrived(checkpointId);
    this.#abortCheckpoint(checkpointId);
  }

  #abortCheckpoint(checkpointId: number): void {
    if (!this.lifecycle.isTerminal && !this.#source) this.recorder?.abortNotified(checkpointId, this.#consumedUnits);
    if (!this.lifecycle.isTerminal) this.keyedState?.notifyCheckpointAborted?.(checkpointId);
    this.#barriers.abortCurrent(checkpointId);
    this.#checkpoints.notifyCheckpointAborted(checkpointId);
  }

  poll(now: number, effects: TaskEffect[]): PollOutcome {
    if (this.lifecycle.state !== 'RUNNING') return this.#pollNotRunning(now, effects);
    if (this.#deferred.length > 0) effects.push(...this.#deferred.splice(0));
    if (this.#stopSavepointCompleted) return this.#finishAfterStop(now);
    const switchCost = this.#takeAnnouncements(now, effects) + this.#fireAlignmentTimers(now, effects);
    this.#sendReady(effects);
    if (now >= this.#nextFlushAt) {
      this.router.flushPartial();
      this.#nextFlushAt = now + this.deployment.bufferTimeout;
      this.#sendReady(effects);
    }
    this.#checkpoints.acknowledgeSentBarriers(effects);
    if (switchCost > 0) return this.#busy(now, switchCost);
    const trigger = this.#nextTrigger();
    if (trigger) return this.#triggered(now, trigger, effects);
    if (this.#ending) return this.#pollEnding(now);
    if (this.#endOfData && this.#mayFinish) return this.#endPartition(now);
    // A source stopped by stop-with-savepoint emits nothing after its barrier (a no-drain stop
    // leaves the rest of the input to the job restarted from the savepoint).
    if (this.#source) return this.#endOfData || this.#checkpoints.synchronousSavepointId !== undefined ? this.#idle(now, undefined) : this.#pollSource(now, this.#source);
    return this.#pollInput(now, effects);
  }

  /**
   * A task no longer running declines what it is asked to trigger (Flink's Task#triggerCheckpointBarrier
   * on a task not RUNNING: CHECKPOINT_DECLINED_TASK_NOT_READY), so the checkpoint fails at once
   * instead of waiting for its timeout.
   */
  #pollNotRunning(now: number, effects: TaskEffect[]): PollOutcome {
    if (this.lifecycle.state === 'FINISHED') {
      for (let t = this.#checkpoints.takeTrigger(); t; t = this.#checkpoints.takeTrigger()) this.#checkpoints.decline(t.checkpointId, 'CHECKPOINT_DECLINED_TASK_NOT_READY', effects);
    }
    return this.#settle(now, 'finished');
  }

  /**
   * End-of-partition may go out once every input delivered its own (a source has none) and, when
   * the task waits for one, its final checkpoint completed (StreamTask#afterInvoke's termination
   * conditions).
   */
  get #mayFinish(): boolean {
    if (this.#waitsForFinalCheckpoint && !this.#finalCheckpointCompleted) return false;
    // StreamTask#afterInvoke waits for every receiver to have processed its end-of-data: a task
    // triggered once its upstream finished then finds nothing but end-of-partition on those
    // channels, so the barrier may count as received there.
    if (this.#waitsForFinalCheckpoint && !this.router.allDataProcessed) return false;
    // Under replay a source still owes the barriers its recording has (live, their trigger came
    // before the completion that let it finish; which comes first is timing).
    if (this.#source && this.#replay && this.#replay.sourceLimit(this.#checkpoints.lastCheckpointId) < Infinity) return false;
    return this.gates.every((g) => g.allFinished);
  }

  /** The next trigger to carry out; under replay a source first emits up to the recorded barrier offset. */
  #nextTrigger(): CheckpointBarrier | undefined {
    const trigger = this.#checkpoints.nextTrigger;
    if (trigger && this.#source && !this.#source.readyForBarrier(trigger.checkpointId)) return undefined;
    return this.#checkpoints.takeTrigger();
  }

  #triggered(now: number, barrier: CheckpointBarrier, effects: TaskEffect[]): PollOutcome {
    const id = barrier.checkpointId;
    // End-of-partition is on the outputs: no barrier can follow it downstream.
    if (this.#ending) {
      this.#checkpoints.decline(id, 'CHECKPOINT_DECLINED_TASK_NOT_READY', effects);
      return this.#busy(now, 0);
    }
    // A task triggered because its upstream finished, whose end-of-partition is still on its way
    // (StreamTask#triggerUnfinishedChannelsCheckpoint): the barrier counts as received on those channels.
    if (!this.#source && !this.gates.every((g) => g.allFinished)) return this.#triggerOnUnfinishedChannels(now, barrier, effects);
    this.#noteFinalCheckpoint(id);
    // Under replay a source knows a checkpoint as aborted exactly when the recorded one did (the abort's arrival was timing).
    if (this.#source && this.#replay) this.#checkpoints.followRecordedAbort(id, this.#replay.injectsCancel(id));
    if (this.#source) this.recorder?.barrierInjected(id, this.#source.position, this.#checkpoints.isAborted(id));
    // stop-with-savepoint --drain: MAX_WATERMARK goes out before the barrier, so every event-time
    // timer fires and its output is in the savepoint's transaction (Flink's StopMode.DRAIN).
    if (this.#source && barrier.stopMode === 'DRAIN' && !this.#checkpoints.isAborted(id)) this.router.broadcastWatermark(Infinity);
    this.#source?.barrierInjected();
    return this.#busy(now, this.#checkpoints.checkpointOnTrigger(now, barrier, effects));
  }

  #triggerOnUnfinishedChannels(now: number, barrier: CheckpointBarrier, effects: TaskEffect[]): PollOutcome {
    let cost = 0;
    this.gates.forEach((gate, g) => {
      for (const c of gate.channels) if (!c.finished) cost += this.#onBarrierOutcomes(now, this.#barriers.onBarrier(g, c.index, barrier, now), effects);
    });
    return this.#busy(now, cost);
  }

  /** StreamTask#performCheckpoint: the first checkpoint after the input ended is the final one. */
  #noteFinalCheckpoint(checkpointId: number): void {
    if (this.#endOfData && this.#waitsForFinalCheckpoint && this.#finalCheckpointId === undefined) this.#finalCheckpointId = checkpointId;
  }

  /**
   * stop-with-savepoint: the savepoint completed and the sink committed what it covers (the
   * effects deferred by the notification went out); the task finishes without end-of-data, as
   * Flink's tasks do after a synchronous savepoint: no operator is finished, so nothing more is
   * emitted, and the job restarted from the savepoint carries on from its barrier.
   */
  #finishAfterStop(now: number): PollOutcome {
    this.lifecycle.send('FINISH');
    return this.#settle(now, 'finished');
  }

  #pollEnding(now: number): PollOutcome {
    if (!this.router.backlogEmpty) return this.#settle(now, 'backpressured');
    this.#finalSnapshot = this.#checkpoints.takeFinalSnapshot();
    this.lifecycle.send('FINISH');
    return this.#settle(now, 'finished');
  }

  /** One unit of the source's work, as the task's poll outcome; the records' cost is the task's. */
  #pollSource(now: number, source: SourceInput): PollOutcome {
    const step = source.poll(now, this.#checkpoints.lastCheckpointId);
    switch (step.type) {
      case 'emitted':
        this.metrics.numRecordsOut += step.records;
        return this.#busy(now, step.records * this.#costMs);
      case 'idle':
        return this.#idle(now, step.wakeAt);
      case 'backpressured':
        return this.#settle(now, 'backpressured');
      case 'end-of-input':
        return this.#endInput(now, []);
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
    // A plain sink writes one record per record: its batch is made at the buffer's size, not grown by pushes.
    if (this.#sinkBatchSize === 0 && this.#sinkOutput && !this.#twoPhaseSink) this.#sinkBatch = new Array<StreamRecord>(records.length);
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
      case 'end-of-data':
        channel.endOfData = true;
        effects.push({ type: 'credit', channelId: channel.channelId, credits: 0, endOfDataProcessed: true });
        return this.#endInputOnceAllEnded(now, effects);
      case 'end-of-partition': {
        channel.finished = true;
        this.#onWatermark(this.#valve.onChannelFinished(), this.#sinkOutput ?? this.router);
        if (!this.deployment.checkpointsAfterTasksFinish) this.#abortOnEndOfStream(effects);
        const cost = this.#onBarrierOutcomes(now, this.#barriers.onEndOfPartition(now), effects);
        const ended = this.#endInputOnceAllEnded(now, effects);
        if (ended) return ended;
        // The last end-of-partition: the next poll may finish the task.
        if (this.gates.every((g) => g.allFinished)) return this.#busy(now, cost);
        return cost > 0 ? this.#busy(now, cost) : undefined;
      }
      case 'barrier': {
        const cost = this.#onBarrierOutcomes(now, this.#barriers.onBarrier(gate, channel.index, event, now), effects);
        return cost > 0 ? this.#busy(now, cost) : undefined;
      }
      case 'cancel-checkpoint':
        this.#onBarrierOutcomes(now, this.#barriers.onCancelMarker(gate, channel.index, event.checkpointId), effects);
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
        this.#noteFinalCheckpoint(outcome.barrier.checkpointId);
        return this.#checkpoints.checkpointState(now, outcome.barrier, outcome.figures, true, effects);
      case 'unaligned-complete':
        this.#checkpoints.inputsComplete(outcome.checkpointId, outcome.figures, effects);
        return 0;
      case 'abort':
        this.#checkpoints.abortCheckpointOnBarrier(outcome.checkpointId, outcome.reason, effects);
        return 0;
    }
  }

  /**
   * The aligned→unaligned timers: the input one switches a running alignment to unaligned (the
   * snapshot is taken now; returns its cost); the output one moves the barrier of a pending
   * aligned snapshot ahead of the buffers still queued before it (PipelinedSubpartition#
   * alignedBarrierTimeout).
   */
  #fireAlignmentTimers(now: number, effects: TaskEffect[]): number {
    const cost = this.#onBarrierOutcomes(now, this.#barriers.onAlignmentTimeout(now), effects);
    this.#checkpoints.onOutputTimeouts(now, effects);
    return cost;
  }

  /** When the task must be polled for an aligned→unaligned timer, if one is pending. */
  #nextTimerAt(): number | undefined {
    const at = Math.min(this.#barriers.alignmentTimeoutAt ?? Infinity, this.#checkpoints.nextOutputTimeoutAt ?? Infinity);
    return at === Infinity ? undefined : at;
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
    this.#checkpoints.restoredFrom(restore.checkpointId);
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

  /** Every input delivered end-of-data (or ended outright): the task's input ended; undefined until then. */
  #endInputOnceAllEnded(now: number, effects: TaskEffect[]): PollOutcome | undefined {
    if (this.#endOfData || !this.gates.every((g) => g.allEndOfData)) return undefined;
    return this.#endInput(now, effects);
  }

  /**
   * The input ended (StreamTask#endData): a source sends the final watermark, the operators
   * finish, and end-of-data goes out on every channel. Then the task waits (see #mayFinish): for
   * its inputs' end-of-partition and, with checkpoints after tasks finish, for its final
   * checkpoint, whose completion commits a two-phase-commit sink's last transaction. Without
   * periodic checkpointing no final checkpoint will come, so the sink commits everything now, as
   * Flink's CommitterOperator#endInput does; with the option off (and checkpointing on) it
   * commits nothing more: what is not committed by then is lost when the task finishes, as in
   * Flink before FLIP-147.
   */
  #endInput(now: number, effects: TaskEffect[]): PollOutcome {
    if (this.#source?.endInput()) this.router.broadcastWatermark(Infinity);
    if (this.#twoPhaseSink && !this.deployment.checkpointingEnabled) {
      for (const transaction of this.#twoPhaseSink.commitOnEndOfInput(this.#checkpoints.lastCheckpointId + 1)) effects.push({ type: 'sink-commit', transaction });
    }
    this.router.flushPartial();
    this.router.broadcastEvent(() => ({ kind: 'event', event: { kind: 'end-of-data' }, sizeBytes: 4, priority: false }));
    this.#endOfData = true;
    return this.#busy(now, 0);
  }

  /** The task may finish: end-of-partition goes out; once it is sent the task is FINISHED. */
  #endPartition(now: number): PollOutcome {
    this.router.flushPartial();
    this.router.broadcastEvent(() => ({ kind: 'event', event: { kind: 'end-of-partition' }, sizeBytes: 4, priority: false }));
    this.#ending = true;
    return this.#busy(now, 0);
  }

  /**
   * Without checkpoints after tasks finish, an input that ends while a checkpoint aligns fails it
   * (SingleCheckpointBarrierHandler#processEndOfPartition: CHECKPOINT_DECLINED_INPUT_END_OF_STREAM).
   */
  #abortOnEndOfStream(effects: TaskEffect[]): void {
    const pending = this.#barriers.isAligning || this.#barriers.unalignedCheckpointId !== undefined;
    if (!pending) return;
    const id = this.#barriers.currentCheckpointId;
    this.#barriers.abortCurrent(id);
    this.#checkpoints.abortCheckpointOnBarrier(id, 'CHECKPOINT_DECLINED_INPUT_END_OF_STREAM', effects);
  }

  #emitSinkBatch(effects: TaskEffect[]): void {
    const size = this.#sinkBatchSize;
    if (size === 0) return;
    const records = this.#sinkBatch;
    if (records.length > size) records.length = size;
    effects.push({ type: 'sink-output', records });
    this.#sinkBatch = [];
    this.#sinkBatchSize = 0;
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
    // A source wakes for its periodic watermark too.
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

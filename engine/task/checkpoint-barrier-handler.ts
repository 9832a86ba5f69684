import type { CheckpointFailureReason } from '../checkpoint/checkpoint-failure-reason.ts';
import type { CheckpointBarrier, NetworkBuffer } from '../protocol.ts';
import type { InputGate } from '../network/input-gate.ts';

/** Flink's per-subtask alignment figures, measured by the barrier handler. */
export interface AlignmentFigures {
  /** barrier creation → first barrier here (CheckpointBarrierHandler#markAlignmentStart) */
  startDelayMs: number;
  /** first → last barrier */
  alignmentDurationMs: number;
  /** bytes read from open channels while aligning (processed_data) */
  processedBytes: number;
}

/** What the task must do after the handler saw an input. */
export type BarrierHandlerOutcome =
  /** take the snapshot now: every barrier is in (aligned, at-least-once), or the checkpoint went unaligned */
  | { type: 'snapshot'; barrier: CheckpointBarrier; unaligned: boolean; figures: AlignmentFigures }
  /** the last barrier of an unaligned checkpoint arrived: its in-flight data is complete */
  | { type: 'unaligned-complete'; checkpointId: number; figures: AlignmentFigures }
  /** give the checkpoint up: decline it and forward a cancellation marker */
  | { type: 'abort'; checkpointId: number; reason: CheckpointFailureReason };

/**
 * What a task asks of the handler on its inputs (Flink's abstract CheckpointBarrierHandler). The
 * task picks one by execution.checkpointing.mode, as Flink's InputProcessorUtil does:
 * CheckpointBarrierHandler below for EXACTLY_ONCE, CheckpointBarrierTracker for AT_LEAST_ONCE.
 */
export interface BarrierHandler {
  /** the newest checkpoint id the handler has seen */
  readonly currentCheckpointId: number;
  readonly isAligning: boolean;
  readonly unalignedCheckpointId: number | undefined;
  readonly alignmentTimeoutAt: number | undefined;
  onBufferProcessed(buffer: NetworkBuffer): void;
  onBarrier(gate: number, channel: number, barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome[];
  onCancelMarker(gate: number, channel: number, checkpointId: number): BarrierHandlerOutcome[];
  /** called after the channel was marked finished */
  onEndOfPartition(now: number): BarrierHandlerOutcome[];
  onAlignmentTimeout(now: number): BarrierHandlerOutcome[];
  /**
   * A barrier of a checkpoint with an aligned-checkpoint-timeout arrived on an input channel and is
   * queued there (Flink's EventAnnouncement, a priority event that overtakes the data): the task
   * learns of the checkpoint before it reads the barrier.
   */
  onAnnouncement(barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome[];
  abortCurrent(checkpointId: number): boolean;
}

interface Alignment {
  barrier: CheckpointBarrier;
  /** when the first barrier was read; undefined while the checkpoint is only announced */
  firstBarrierAt: number | undefined;
  /** channels (as gate:index) whose barrier arrived */
  received: Set<string>;
  /** the snapshot was taken (first unaligned barrier, or the timeout); the other barriers only end the in-flight data */
  unaligned: boolean;
  /** bytes read from channels still open while aligning (Flink's processed_data) */
  processedBytes: number;
}

/** The same barrier as an unaligned one (Flink's CheckpointBarrier#asUnaligned). */
export function asUnaligned(barrier: CheckpointBarrier): CheckpointBarrier {
  const { alignedTimeoutAt: _timeout, ...rest } = barrier;
  return { ...rest, alignment: 'UNALIGNED' };
}

const key = (gate: number, channel: number) => `${gate}:${channel}`;

/**
 * Exactly-once barrier handling on a task's inputs, as Flink's SingleCheckpointBarrierHandler
 * (at-least-once is CheckpointBarrierTracker, in its own file):
 * - aligned: each barrier blocks its channel (the channel is not read, so credit-based
 *   backpressure builds upstream; nothing is buffered here); the last barrier triggers the
 *   snapshot and unblocks all channels;
 * - unaligned: the first barrier (which overtook the queued buffers) triggers the snapshot at
 *   once; the task persists what is in flight until the last barrier arrives;
 * - alternating (aligned with an aligned-checkpoint-timeout): aligned until the timeout, measured
 *   from the trigger (BarrierAlignmentUtil#getTimerDelay), or until a barrier that an upstream
 *   already switched arrives; then unaligned as above (AlternatingCollectingBarriers#
 *   alignedCheckpointTimeout). Its barriers are announced when they arrive, so the timer runs
 *   even while every barrier is still queued behind data (processBarrierAnnouncement); on the
 *   timeout the queued barriers overtake that data, which is persisted.
 */
export class CheckpointBarrierHandler implements BarrierHandler {
  #alignment: Alignment | undefined;
  /** highest checkpoint id seen; older barriers are ignored */
  #latestCheckpointId = 0;

  constructor(private readonly gates: readonly InputGate[]) {}

  get currentCheckpointId(): number {
    return this.#latestCheckpointId;
  }

  /** True while the inputs are blocked by an aligning checkpoint. */
  get isAligning(): boolean {
    return this.#alignment !== undefined && !this.#alignment.unaligned && this.#alignment.firstBarrierAt !== undefined;
  }

  /** The checkpoint whose snapshot was taken unaligned while some barriers are still to come. */
  get unalignedCheckpointId(): number | undefined {
    return this.#alignment?.unaligned ? this.#alignment.barrier.checkpointId : undefined;
  }

  /** When the running alignment switches to unaligned (Flink's alignment timer), if it has a timeout. */
  get alignmentTimeoutAt(): number | undefined {
    const a = this.#alignment;
    return a && !a.unaligned ? a.barrier.alignedTimeoutAt : undefined;
  }

  /** Counts bytes read while aligning (Flink's processed in-flight data). */
  onBufferProcessed(buffer: NetworkBuffer): void {
    // from the first barrier read on: an announced checkpoint is not aligning yet
    if (this.#alignment?.firstBarrierAt !== undefined) this.#alignment.processedBytes += buffer.sizeBytes;
  }

  onBarrier(gate: number, channel: number, barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome[] {
    const id = barrier.checkpointId;
    if (id < this.#latestCheckpointId) return [];
    const outcomes = id > this.#latestCheckpointId ? this.#startNew(barrier, now) : [];
    const a = this.#alignment;
    // No alignment for this id: it completed, or was given up (cancelled, aborted).
    if (a?.barrier.checkpointId !== id) return outcomes;
    a.firstBarrierAt ??= now;
    a.received.add(key(gate, channel));
    outcomes.push(...this.#afterBarrier(a, gate, channel, barrier, now));
    return outcomes;
  }

  /** AbstractAlternatingAlignedBarrierHandlerState#barrierReceived, and its unaligned counterpart. */
  #afterBarrier(a: Alignment, gate: number, channel: number, barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome[] {
    if (a.unaligned) return this.#completeUnaligned(a, now);
    // An unaligned barrier (UC, or an upstream whose alignment timed out) switches this task too.
    if (barrier.alignment === 'UNALIGNED') return [this.#switchToUnaligned(a, now), ...this.#completeUnaligned(a, now)];
    this.gates[gate]!.channels[channel]!.blocked = true;
    if (this.#allReceived(a.received)) return [this.#completeAligned(a, now)];
    // The first barrier may come after the timeout already passed (Flink checks isTimedOut here).
    if (a.barrier.alignedTimeoutAt !== undefined && now >= a.barrier.alignedTimeoutAt) return [this.#switchToUnaligned(a, now)];
    return [];
  }

  /**
   * SingleCheckpointBarrierHandler#processBarrierAnnouncement: a newer id starts its alignment (and
   * so its timer) now, cancelling an older pending one; an id already seen changes nothing.
   */
  onAnnouncement(barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome[] {
    if (barrier.checkpointId <= this.#latestCheckpointId) return [];
    const outcomes = this.#startNew(barrier, now);
    this.#alignment!.firstBarrierAt = undefined;
    // Announced after its timeout already passed: switch at once, as the first barrier would.
    if (barrier.alignedTimeoutAt !== undefined && now >= barrier.alignedTimeoutAt) outcomes.push(this.#switchToUnaligned(this.#alignment!, now));
    return outcomes;
  }

  /** The alignment timer fired: switch the running alignment to unaligned if it is still aligning. */
  onAlignmentTimeout(now: number): BarrierHandlerOutcome[] {
    const at = this.alignmentTimeoutAt;
    if (at === undefined || now < at) return [];
    return [this.#switchToUnaligned(this.#alignment!, now)];
  }

  /**
   * A cancellation marker acts when it is newer than the current checkpoint, or on the current one
   * while it is still pending (SingleCheckpointBarrierHandler#processCancellationBarrier).
   */
  onCancelMarker(_gate: number, _channel: number, checkpointId: number): BarrierHandlerOutcome[] {
    const pending = this.#alignment?.barrier.checkpointId === checkpointId;
    if (checkpointId < this.#latestCheckpointId || (checkpointId === this.#latestCheckpointId && !pending)) return [];
    this.#latestCheckpointId = checkpointId;
    this.#reset();
    return [{ type: 'abort', checkpointId, reason: 'CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER' }];
  }

  /** A channel ended: it no longer counts for alignment, which may now be complete. */
  onEndOfPartition(now: number): BarrierHandlerOutcome[] {
    const a = this.#alignment;
    if (a?.unaligned) return this.#completeUnaligned(a, now);
    return a && this.#allReceived(a.received) ? [this.#completeAligned(a, now)] : [];
  }

  /** The task gave the checkpoint up (e.g. notified aborted): unblock everything. */
  abortCurrent(checkpointId: number): boolean {
    if (!this.#alignment || this.#alignment.barrier.checkpointId !== checkpointId) return false;
    this.#reset();
    return true;
  }

  /** A new id cancels a pending older one (SingleCheckpointBarrierHandler#checkNewCheckpoint). */
  #startNew(barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome[] {
    const previous = this.#alignment;
    this.#latestCheckpointId = barrier.checkpointId;
    this.#reset();
    this.#alignment = { barrier, firstBarrierAt: now, received: new Set(), unaligned: false, processedBytes: 0 };
    // Flink declines the older one as subsumed, aligned or unaligned (cancelSubsumedCheckpoint).
    if (!previous) return [];
    return [{ type: 'abort', checkpointId: previous.barrier.checkpointId, reason: 'CHECKPOINT_DECLINED_SUBSUMED' }];
  }

  /** Channels unblock and the snapshot is taken now; the remaining barriers only end the in-flight data. */
  #switchToUnaligned(a: Alignment, now: number): BarrierHandlerOutcome {
    a.unaligned = true;
    this.#unblockAll();
    // Switched before any barrier was read: the queued barriers are read next, ahead of the data.
    a.firstBarrierAt ??= now;
    const figures = { startDelayMs: this.#startDelay(a), alignmentDurationMs: 0, processedBytes: 0 };
    return { type: 'snapshot', barrier: asUnaligned(a.barrier), unaligned: true, figures };
  }

  #completeUnaligned(a: Alignment, now: number): BarrierHandlerOutcome[] {
    if (!this.#allReceived(a.received)) return [];
    this.#reset();
    return [{ type: 'unaligned-complete', checkpointId: a.barrier.checkpointId, figures: this.#figures(a, now) }];
  }

  #completeAligned(a: Alignment, now: number): BarrierHandlerOutcome {
    this.#reset();
    return { type: 'snapshot', barrier: a.barrier, unaligned: false, figures: this.#figures(a, now) };
  }

  #figures(a: Alignment, now: number): AlignmentFigures {
    return { startDelayMs: this.#startDelay(a), alignmentDurationMs: now - (a.firstBarrierAt ?? now), processedBytes: a.processedBytes };
  }

  #startDelay(a: Alignment): number {
    return a.firstBarrierAt === undefined ? 0 : Math.max(0, a.firstBarrierAt - a.barrier.timestamp);
  }

  /** Every channel still open delivered its barrier. */
  #allReceived(received: ReadonlySet<string>): boolean {
    for (let g = 0; g < this.gates.length; g++) {
      for (const c of this.gates[g]!.channels) if (!c.finished && !received.has(key(g, c.index))) return false;
    }
    return true;
  }

  #reset(): void {
    this.#alignment = undefined;
    this.#unblockAll();
  }

  #unblockAll(): void {
    for (const gate of this.gates) for (const c of gate.channels) c.blocked = false;
  }
}

import type { CheckpointBarrier, NetworkBuffer } from '../protocol.ts';
import type { InputGate } from '../network/input-gate.ts';

/** What the task must do after the handler saw an input. */
export type BarrierHandlerOutcome =
  | { type: 'none' }
  /** take the snapshot now: every barrier is in (aligned, at-least-once) or the first one (unaligned) */
  | { type: 'snapshot'; barrier: CheckpointBarrier; startDelayMs: number; unaligned: boolean }
  /** the last barrier of an unaligned checkpoint arrived: in-flight persistence is complete */
  | { type: 'unaligned-complete'; checkpointId: number; alignmentDurationMs: number }
  /** give the checkpoint up: decline it and forward a cancellation marker */
  | { type: 'abort'; checkpointId: number; reason: string };

interface Alignment {
  barrier: CheckpointBarrier;
  firstBarrierAt: number;
  /** channels (as gate:index) whose barrier arrived */
  received: Set<string>;
  unaligned: boolean;
  /** bytes read from channels still open while aligning (Flink's processed_data) */
  processedBytes: number;
  /** the snapshot was taken already (unaligned) and we wait for the remaining barriers */
  snapshotTaken: boolean;
}

/**
 * Barrier handling on a task's inputs, as Flink's SingleCheckpointBarrierHandler (exactly-once)
 * and CheckpointBarrierTracker (at-least-once):
 * - aligned: each barrier blocks its channel (the channel is not read, so credit-based
 *   backpressure builds upstream; nothing is buffered here); the last barrier triggers the
 *   snapshot and unblocks all channels;
 * - unaligned: the first barrier (which overtook the queued buffers) triggers the snapshot at
 *   once; buffers that arrive on channels whose barrier is still missing are persisted;
 * - at-least-once: never blocks; counts barriers per id and triggers when all are in.
 */
export class CheckpointBarrierHandler {
  #alignment: Alignment | undefined;
  /** highest checkpoint id seen; older barriers are ignored */
  #latestCheckpointId = 0;

  constructor(private readonly gates: readonly InputGate[]) {}

  get currentCheckpointId(): number {
    return this.#latestCheckpointId;
  }

  get isAligning(): boolean {
    return this.#alignment !== undefined;
  }

  /** True when a buffer arriving now on this channel belongs to an unaligned checkpoint's in-flight data. */
  persistsArrivalsOn(gate: number, channel: number): boolean {
    const a = this.#alignment;
    return a !== undefined && a.unaligned && a.snapshotTaken && !a.received.has(`${gate}:${channel}`);
  }

  /** Counts bytes read while aligning (Flink's processed in-flight data). */
  onBufferProcessed(buffer: NetworkBuffer): void {
    if (this.#alignment) this.#alignment.processedBytes += buffer.sizeBytes;
  }

  get processedBytes(): number {
    return this.#alignment?.processedBytes ?? 0;
  }

  onBarrier(gate: number, channel: number, barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome {
    if (barrier.alignment === 'AT_LEAST_ONCE') return this.#track(gate, channel, barrier, now);
    const id = barrier.checkpointId;
    if (id < this.#latestCheckpointId) return { type: 'none' };
    const outcome = id > this.#latestCheckpointId ? this.#startNew(barrier, now) : { type: 'none' as const };
    if (outcome.type === 'abort') return outcome;
    const a = this.#alignment;
    if (!a || a.barrier.checkpointId !== id) return outcome;
    a.received.add(`${gate}:${channel}`);
    if (barrier.alignment === 'ALIGNED' || barrier.alignment === 'FORCED_ALIGNED') this.gates[gate]!.channels[channel]!.blocked = true;
    if (a.unaligned && !a.snapshotTaken) {
      a.snapshotTaken = true;
      return { type: 'snapshot', barrier, startDelayMs: Math.max(0, a.firstBarrierAt - barrier.timestamp), unaligned: true };
    }
    return this.#maybeComplete(now);
  }

  /** A cancellation marker: give up the current checkpoint if it is this one or older. */
  onCancelMarker(checkpointId: number): BarrierHandlerOutcome {
    for (const older of [...this.#tracked.keys()]) if (older <= checkpointId) this.#tracked.delete(older);
    const aligning = this.#alignment?.barrier.checkpointId === checkpointId && !this.#alignment.snapshotTaken;
    if (checkpointId < this.#latestCheckpointId || (checkpointId === this.#latestCheckpointId && !aligning)) return { type: 'none' };
    this.#latestCheckpointId = checkpointId;
    this.#reset();
    return { type: 'abort', checkpointId, reason: 'CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER' };
  }

  /** A channel ended: it no longer counts for alignment, which may now be complete. */
  onEndOfPartition(now: number): BarrierHandlerOutcome {
    if (this.#alignment) return this.#maybeComplete(now);
    // at-least-once: the newest tracked id may now have all its (remaining) barriers
    const newest = Math.max(0, ...this.#tracked.keys());
    const t = this.#tracked.get(newest);
    if (!t) return { type: 'none' };
    for (let g = 0; g < this.gates.length; g++) {
      for (const c of this.gates[g]!.channels) if (!c.finished && !t.received.has(`${g}:${c.index}`)) return { type: 'none' };
    }
    this.#tracked.clear();
    this.#latestTriggered = newest;
    const startDelayMs = Math.max(0, t.firstBarrierAt - t.barrier.timestamp);
    this.#lastAlignment = { durationMs: now - t.firstBarrierAt, processedBytes: 0, startDelayMs };
    return { type: 'snapshot', barrier: t.barrier, startDelayMs, unaligned: false };
  }

  /** The task gave the checkpoint up (e.g. notified aborted): unblock everything. */
  abortCurrent(checkpointId: number): boolean {
    if (!this.#alignment || this.#alignment.barrier.checkpointId !== checkpointId) return false;
    this.#reset();
    return true;
  }

  #startNew(barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome {
    const previous = this.#alignment;
    this.#latestCheckpointId = barrier.checkpointId;
    this.#reset();
    this.#alignment = {
      barrier,
      firstBarrierAt: now,
      received: new Set(),
      unaligned: barrier.alignment === 'UNALIGNED',
      processedBytes: 0,
      snapshotTaken: false,
    };
    // A newer barrier while the previous one was still aligning: Flink declines the older one.
    if (previous && !previous.snapshotTaken) {
      return { type: 'abort', checkpointId: previous.barrier.checkpointId, reason: 'CHECKPOINT_DECLINED_SUBSUMED' };
    }
    return { type: 'none' };
  }

  #maybeComplete(now: number): BarrierHandlerOutcome {
    const a = this.#alignment!;
    for (let g = 0; g < this.gates.length; g++) {
      for (const c of this.gates[g]!.channels) if (!c.finished && !a.received.has(`${g}:${c.index}`)) return { type: 'none' };
    }
    const alignmentDurationMs = now - a.firstBarrierAt;
    this.#reset();
    if (a.unaligned) return { type: 'unaligned-complete', checkpointId: a.barrier.checkpointId, alignmentDurationMs };
    this.#lastAlignment = { durationMs: alignmentDurationMs, processedBytes: a.processedBytes, startDelayMs: Math.max(0, a.firstBarrierAt - a.barrier.timestamp) };
    return { type: 'snapshot', barrier: a.barrier, startDelayMs: this.#lastAlignment.startDelayMs, unaligned: false };
  }

  #lastAlignment = { durationMs: 0, processedBytes: 0, startDelayMs: 0 };

  /** At-least-once pending ids (Flink's CheckpointBarrierTracker keeps up to 50). */
  #tracked = new Map<number, { barrier: CheckpointBarrier; firstBarrierAt: number; received: Set<string> }>();

  /**
   * At-least-once: count barriers per id without blocking; when one id has them all, trigger it
   * and forget the older ids (they can no longer complete here).
   */
  #track(gate: number, channel: number, barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome {
    const id = barrier.checkpointId;
    if (id <= this.#latestTriggered) return { type: 'none' };
    let t = this.#tracked.get(id);
    if (!t) {
      if (this.#tracked.size >= 50) this.#tracked.delete(Math.min(...this.#tracked.keys()));
      this.#tracked.set(id, (t = { barrier, firstBarrierAt: now, received: new Set() }));
    }
    t.received.add(`${gate}:${channel}`);
    for (let g = 0; g < this.gates.length; g++) {
      for (const c of this.gates[g]!.channels) if (!c.finished && !t.received.has(`${g}:${c.index}`)) return { type: 'none' };
    }
    for (const older of [...this.#tracked.keys()]) if (older <= id) this.#tracked.delete(older);
    this.#latestTriggered = id;
    this.#latestCheckpointId = Math.max(this.#latestCheckpointId, id);
    const startDelayMs = Math.max(0, t.firstBarrierAt - barrier.timestamp);
    this.#lastAlignment = { durationMs: now - t.firstBarrierAt, processedBytes: 0, startDelayMs };
    return { type: 'snapshot', barrier, startDelayMs, unaligned: false };
  }

  #latestTriggered = 0;

  /** Figures of the alignment that just completed (read right after a 'snapshot' outcome). */
  get lastAlignment(): { durationMs: number; processedBytes: number; startDelayMs: number } {
    return this.#lastAlignment;
  }

  #reset(): void {
    this.#alignment = undefined;
    for (const gate of this.gates) for (const c of gate.channels) c.blocked = false;
  }
}

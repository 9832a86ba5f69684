import type { CheckpointBarrier, NetworkBuffer } from '../protocol.ts';
import type { InputGate } from '../network/input-gate.ts';
import type { AlignmentFigures, BarrierHandler, BarrierHandlerOutcome } from './checkpoint-barrier-handler.ts';

/** Flink's MAX_CHECKPOINTS_TO_TRACK: pending ids beyond it are forgotten, oldest first. */
const MAX_CHECKPOINTS_TO_TRACK = 50;

/** One checkpoint some, not all, of whose barriers (or cancellation markers) arrived (Flink's CheckpointBarrierCount). */
interface BarrierCount {
  checkpointId: number;
  /** the barrier to trigger with; none when a cancellation marker was the first thing seen */
  barrier: CheckpointBarrier | undefined;
  /** channels (as gate:index) whose barrier or cancellation marker arrived */
  received: Set<string>;
  /** cancelled: still counted so the entry goes once every channel spoke, never triggered */
  aborted: boolean;
}

/** The alignment being measured: from the first barrier of the newest id (CheckpointBarrierHandler#markAlignmentStart). */
interface Alignment {
  checkpointId: number;
  startedAt: number;
  startDelayMs: number;
  /** bytes read from any channel since the first barrier (the tracker blocks none) */
  processedBytes: number;
}

const key = (gate: number, channel: number) => `${gate}:${channel}`;
const abort = (checkpointId: number): BarrierHandlerOutcome => ({ type: 'abort', checkpointId, reason: 'CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER' });
const NO_FIGURES: AlignmentFigures = { startDelayMs: 0, alignmentDurationMs: 0, processedBytes: 0 };

/**
 * At-least-once barrier handling, as Flink's CheckpointBarrierTracker: it never blocks a channel;
 * it counts barriers per checkpoint id and triggers a checkpoint once every open channel
 * delivered its barrier, forgetting the older ids (they can no longer complete here: each channel
 * sends ids in increasing order). Records after a barrier are processed before the snapshot, so
 * they are in it and are replayed again after a restore: at-least-once.
 *
 * It remembers the highest id it has seen, barrier or cancellation marker, and ignores a first
 * barrier for an id not newer than that. Flink's single-channel fast path skips that bookkeeping
 * and relies on the task (SubtaskCheckpointCoordinatorImpl keeps lastCheckpointId = max(…, id)
 * on a cancellation); here the tracker keeps it on every path, so a cancelled id is never
 * re-opened by its barrier arriving afterwards.
 */
export class CheckpointBarrierTracker implements BarrierHandler {
  /** oldest first, ids increasing (Flink's ArrayDeque pendingCheckpoints) */
  #pending: BarrierCount[] = [];
  /** Flink's latestPendingCheckpointID */
  #latestCheckpointId = 0;
  #alignment: Alignment | undefined;

  constructor(private readonly gates: readonly InputGate[]) {}

  /** The tracker never blocks an input. */
  readonly isAligning = false;
  readonly unalignedCheckpointId = undefined;
  readonly alignmentTimeoutAt = undefined;

  /** The highest checkpoint id seen (Flink's getLatestCheckpointId). */
  get currentCheckpointId(): number {
    return this.#latestCheckpointId;
  }

  /** Ids with some barriers in, oldest first (Flink's getPendingCheckpointIds). */
  get pendingCheckpointIds(): number[] {
    return this.#pending.map((c) => c.checkpointId);
  }

  /** Flink's addProcessedBytes: counted while an alignment is measured, from every channel. */
  onBufferProcessed(buffer: NetworkBuffer): void {
    if (this.#alignment) this.#alignment.processedBytes += buffer.sizeBytes;
  }

  onBarrier(gate: number, channel: number, barrier: CheckpointBarrier, now: number): BarrierHandlerOutcome[] {
    const id = barrier.checkpointId;
    const at = this.#pending.findIndex((c) => c.checkpointId === id);
    if (at >= 0) {
      this.#pending[at]!.received.add(key(gate, channel));
      return this.#completeAt(at, now);
    }
    // Not newer than an id already seen: there cannot be a successful checkpoint for it here.
    if (id <= this.#latestCheckpointId) return [];
    this.#latestCheckpointId = id;
    this.#alignment = { checkpointId: id, startedAt: now, startDelayMs: Math.max(0, now - barrier.timestamp), processedBytes: 0 };
    this.#pending.push({ checkpointId: id, barrier, received: new Set([key(gate, channel)]), aborted: false });
    // With a single open channel the first barrier is the last one.
    const outcomes = this.#completeAt(this.#pending.length - 1, now);
    if (this.#pending.length > MAX_CHECKPOINTS_TO_TRACK) this.#pending.shift();
    return outcomes;
  }

  /**
   * A cancellation marker for n aborts every older id still tracked and n itself, each notified
   * once (Flink's processCancellationBarrier); n stays tracked as aborted until every channel
   * delivered its barrier or marker, so its late barriers are counted, not re-opened.
   */
  onCancelMarker(gate: number, channel: number, checkpointId: number): BarrierHandlerOutcome[] {
    const outcomes: BarrierHandlerOutcome[] = [];
    while (this.#pending[0] && this.#pending[0].checkpointId < checkpointId) {
      const older = this.#pending.shift()!;
      if (this.#markAborted(older)) outcomes.push(abort(older.checkpointId));
    }
    const head = this.#pending[0];
    if (head?.checkpointId === checkpointId) {
      if (this.#markAborted(head)) outcomes.push(abort(checkpointId));
      head.received.add(key(gate, channel));
      if (this.#allReceived(head.received)) this.#pending.shift();
    } else if (checkpointId > this.#latestCheckpointId) {
      this.#latestCheckpointId = checkpointId;
      this.#alignment = undefined;
      outcomes.push(abort(checkpointId));
      const marker: BarrierCount = { checkpointId, barrier: undefined, received: new Set([key(gate, channel)]), aborted: true };
      if (!this.#allReceived(marker.received)) this.#pending.unshift(marker);
    }
    // else: a trailing marker of an id already given up
    return outcomes;
  }

  /**
   * A channel ended: it counts as aligned for every id still waiting. Walking from the newest id
   * to the oldest, the newest one that is now complete triggers and every older one is dropped
   * without a word (Flink's checkAlignmentOnEndOfPartitionIfEnabled).
   */
  onEndOfPartition(now: number): BarrierHandlerOutcome[] {
    for (let at = this.#pending.length - 1; at >= 0; at--) {
      if (this.#allReceived(this.#pending[at]!.received)) return this.#completeAt(at, now);
    }
    return [];
  }

  /** Nothing to align; a checkpoint aborted by the coordinator is still counted, and the task sends a marker for it. */
  onAlignmentTimeout(): BarrierHandlerOutcome[] {
    return [];
  }

  /** At-least-once has no aligned-checkpoint-timeout, so nothing to announce (the tracker ignores announcements). */
  onAnnouncement(): BarrierHandlerOutcome[] {
    return [];
  }

  abortCurrent(): boolean {
    return false;
  }

  /** Once the id at `at` has all its barriers: it and every older id leave; it triggers unless cancelled. */
  #completeAt(at: number, now: number): BarrierHandlerOutcome[] {
    const count = this.#pending[at]!;
    if (!this.#allReceived(count.received)) return [];
    this.#pending.splice(0, at + 1);
    if (count.aborted || !count.barrier) return [];
    return [{ type: 'snapshot', barrier: count.barrier, unaligned: false, figures: this.#endAlignment(count.checkpointId, now) }];
  }

  /**
   * Only the newest id's alignment is measured (Flink: "only one calculation of the alignment
   * time at once"); an older id that completes reports zeros, as CheckpointBarrierHandler#
   * notifyCheckpoint does for an id other than startAlignmentCheckpointId.
   */
  #endAlignment(checkpointId: number, now: number): AlignmentFigures {
    const a = this.#alignment;
    if (a?.checkpointId !== checkpointId) return NO_FIGURES;
    this.#alignment = undefined;
    return { startDelayMs: a.startDelayMs, alignmentDurationMs: now - a.startedAt, processedBytes: a.processedBytes };
  }

  /** Returns true the first time, so each id is notified as aborted once. */
  #markAborted(count: BarrierCount): boolean {
    const first = !count.aborted;
    count.aborted = true;
    if (this.#alignment?.checkpointId === count.checkpointId) this.#alignment = undefined;
    return first;
  }

  /** Every channel still open delivered its barrier (an ended channel counts as aligned). */
  #allReceived(received: ReadonlySet<string>): boolean {
    for (let g = 0; g < this.gates.length; g++) {
      for (const c of this.gates[g]!.channels) if (!c.finished && !received.has(key(g, c.index))) return false;
    }
    return true;
  }
}

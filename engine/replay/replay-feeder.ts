import type { DataBuffer, EventBuffer, NetworkBuffer } from '../protocol.ts';
import type { InputGate } from '../network/input-gate.ts';
import { eventKindOfCode, type SubtaskDelivery } from './delivery-log.ts';
import { ReplayDivergence } from './replay-divergence.ts';

/**
 * A subtask's inputs under replay: arriving buffers are held per channel, and handed to the input
 * gates in the recorded order, one unit at a time, only when the gate has nothing queued (so the
 * gate never chooses). Records are re-cut to the recorded runs, since buffer boundaries follow
 * the flush timer. A source's barriers go out at the recorded offsets. When the recording cannot
 * be followed, it throws a ReplayDivergence naming subtask, gate and position.
 */
export class ReplayFeeder {
  /** gate → channel → held buffers; `#taken[g][c]` records of the head data buffer already handed out */
  readonly #held: NetworkBuffer[][][];
  readonly #taken: number[][];
  /** per gate: index of the current run (a pair) and records of it still to hand out */
  readonly #cursor: number[];
  readonly #remaining: number[];
  /** per gate: records and events handed out so far (for divergence messages) */
  readonly #position: number[];
  /** recorded abort notifications: the next one's index, and those that arrived here */
  #nextAbort = 0;
  /** index of the next recorded source watermark (a pair) */
  #nextWatermark = 0;
  readonly #arrivedAborts = new Set<number>();

  constructor(
    readonly subtask: string,
    readonly delivery: SubtaskDelivery | undefined,
    channelsPerGate: readonly number[],
  ) {
    this.#held = channelsPerGate.map((n) => Array.from({ length: n }, () => []));
    this.#taken = channelsPerGate.map((n) => new Array<number>(n).fill(0));
    this.#cursor = channelsPerGate.map(() => 0);
    this.#remaining = channelsPerGate.map(() => -1);
    this.#position = channelsPerGate.map(() => 0);
  }

  absorb(gate: number, channel: number, buffer: NetworkBuffer): void {
    this.#held[gate]![channel]!.push(buffer);
  }

  /** The JobManager's notification that a checkpoint was aborted arrived: it takes effect at its recorded position. */
  abortArrived(checkpointId: number): void {
    this.#arrivedAborts.add(checkpointId);
  }

  /** Aborts due now: arrived, and the subtask has consumed up to their recorded position. */
  dueAborts(consumed: number): number[] {
    const a = this.delivery?.aborts ?? [];
    const due: number[] = [];
    while (this.#nextAbort < a.length && this.#arrivedAborts.has(a[this.#nextAbort]!) && a[this.#nextAbort + 1]! <= consumed) {
      due.push(a[this.#nextAbort]!);
      this.#nextAbort += 2;
    }
    return due;
  }

  /** Nothing is handed out past the position of the next recorded abort until it took effect. */
  #room(): number {
    const a = this.delivery?.aborts ?? [];
    if (this.#nextAbort >= a.length) return Infinity;
    return a[this.#nextAbort + 1]! - this.#position.reduce((n, p) => n + p, 0);
  }

  /** Hands the next recorded unit to every gate that has nothing queued; returns the buffers handed out. */
  release(gates: readonly InputGate[]): Array<{ gate: number; channel: number; buffer: NetworkBuffer }> {
    const out: Array<{ gate: number; channel: number; buffer: NetworkBuffer }> = [];
    gates.forEach((gate, g) => {
      if (gate.queuedBuffers > 0) return;
      const next = this.#next(g);
      if (next) out.push({ gate: g, ...next });
    });
    return out;
  }

  /** True when every gate handed out all its recorded runs. */
  get exhausted(): boolean {
    return this.#held.every((_, g) => this.#cursor[g]! >= this.#runs(g).length);
  }

  /** Where the recorded barrier of this checkpoint went out (records of the split before it), if recorded. */
  barrierOffset(checkpointId: number): number | undefined {
    const b = this.delivery?.barriers ?? [];
    for (let i = 0; i < b.length; i += 2) if (Math.abs(b[i]!) === checkpointId) return b[i + 1];
    return undefined;
  }

  /** How far a source may emit before its next recorded barrier (after `lastCheckpointId`). */
  sourceLimit(lastCheckpointId: number): number {
    const b = this.delivery?.barriers ?? [];
    for (let i = 0; i < b.length; i += 2) if (Math.abs(b[i]!) > lastCheckpointId) return b[i + 1]!;
    return Infinity;
  }

  /** Records a source may emit before its next recorded watermark goes out (at that offset). */
  watermarkLimit(): number {
    const w = this.delivery?.watermarks ?? [];
    return this.#nextWatermark < w.length ? w[this.#nextWatermark]! : Infinity;
  }

  /**
   * The next recorded watermark goes out now: the source is at its offset, after the same number
   * of barriers. A source that passed the offset, or injected more barriers first, diverged.
   */
  watermarkDue(offset: number, barriers: number): boolean {
    const w = this.delivery?.watermarks ?? [];
    if (this.#nextWatermark >= w.length) return false;
    const [at, before] = [w[this.#nextWatermark]!, w[this.#nextWatermark + 1]!];
    if (offset > at) throw new ReplayDivergence(`${this.subtask}: the recording puts a watermark after ${at} records, but the source had emitted ${offset}`);
    if (barriers > before) throw new ReplayDivergence(`${this.subtask}: the recording puts a watermark after ${at} records and ${before} barriers, but the source had injected ${barriers} barriers first`);
    if (offset < at || barriers !== before) return false;
    this.#nextWatermark += 2;
    return true;
  }

  /** A barrier must wait: the recorded watermark at this offset went out before it. */
  watermarkFirst(offset: number, barriers: number): boolean {
    const w = this.delivery?.watermarks ?? [];
    return this.#nextWatermark < w.length && w[this.#nextWatermark] === offset && w[this.#nextWatermark + 1] === barriers;
  }

  /** The recorded source sent a cancellation marker for this checkpoint instead of its barrier. */
  injectsCancel(checkpointId: number): boolean {
    const b = this.delivery?.barriers ?? [];
    for (let i = 0; i < b.length; i += 2) if (b[i] === -checkpointId) return true;
    return false;
  }

  /**
   * A source got a trigger when it had emitted `offset` records: false while it must emit more
   * first, or for good when the recording has no barrier of it (the recorded source ended its
   * input first, or its attempt ended first).
   */
  mayInjectBarrier(checkpointId: number, offset: number): boolean {
    const at = this.barrierOffset(checkpointId);
    if (at === undefined || offset < at) return false;
    if (offset === at) return true;
    throw new ReplayDivergence(`${this.subtask}: the recording puts the barrier of checkpoint ${checkpointId} after ${at} records, but the source had emitted ${offset} when it was triggered`);
  }

  #runs(g: number): readonly number[] {
    return this.delivery?.gates[g] ?? [];
  }

  #next(g: number): { channel: number; buffer: NetworkBuffer } | undefined {
    const runs = this.#runs(g);
    const at = this.#cursor[g]!;
    if (at >= runs.length) return undefined;
    const channel = runs[at]!;
    const count = runs[at + 1]!;
    const queue = this.#held[g]![channel];
    if (!queue) throw new ReplayDivergence(`${this.subtask}: input gate ${g}, position ${this.#position[g]} (run ${at / 2}): the recording names channel ${channel}, but the gate has ${this.#held[g]!.length} channels`);
    const head = queue[0];
    if (!head || this.#room() <= 0) return undefined;
    // A buffer carrying only a watermark consumes nothing the recording counts: it goes through.
    if (head.kind === 'data' && head.records.length - this.#taken[g]![channel]! === 0) return { channel, buffer: this.#takeRecords(g, channel, 0) };
    return count < 0 ? this.#nextEvent(g, channel, count) : this.#nextRecords(g, channel, count);
  }

  #nextEvent(g: number, channel: number, code: number): { channel: number; buffer: NetworkBuffer } {
    const kind = eventKindOfCode(code);
    const queue = this.#held[g]![channel]!;
    // An unaligned barrier overtook the data queued before it: it is taken from behind them.
    const at = queue.findIndex((b) => b.kind === 'event' && (b === queue[0] || b.priority));
    const event = at < 0 ? undefined : (queue[at] as EventBuffer);
    const cancelled = event && asCancelled(event, kind);
    if (!event || (event.event.kind !== kind && !cancelled)) this.#diverge(g, channel, `${kind ?? `event code ${code}`}`);
    queue.splice(at, 1);
    this.#cursor[g]! += 2;
    this.#position[g]!++;
    return { channel, buffer: cancelled ?? event };
  }

  #nextRecords(g: number, channel: number, count: number): { channel: number; buffer: NetworkBuffer } {
    const head = this.#held[g]![channel]![0]!;
    if (head.kind !== 'data') this.#diverge(g, channel, `${count} records`);
    if (this.#remaining[g]! < 0) this.#remaining[g] = count;
    const n = Math.min(this.#remaining[g]!, head.records.length - this.#taken[g]![channel]!, this.#room());
    const buffer = this.#takeRecords(g, channel, n);
    this.#remaining[g]! -= n;
    this.#position[g]! += n;
    if (this.#remaining[g] === 0) {
      this.#remaining[g] = -1;
      this.#cursor[g]! += 2;
    }
    return { channel, buffer };
  }

  /** The next `n` records of the channel's head data buffer, as a buffer of their own; its watermark goes with the last of them. */
  #takeRecords(g: number, channel: number, n: number): DataBuffer {
    const queue = this.#held[g]![channel]!;
    const head = queue[0] as DataBuffer;
    const from = this.#taken[g]![channel]!;
    const records = head.records.slice(from, from + n);
    const drained = from + n === head.records.length;
    this.#taken[g]![channel] = drained ? 0 : from + n;
    if (drained) queue.shift();
    const sizeBytes = head.records.length === 0 ? head.sizeBytes : Math.round((head.sizeBytes * n) / head.records.length);
    return drained && head.watermark !== undefined ? { kind: 'data', records, sizeBytes, watermark: head.watermark } : { kind: 'data', records, sizeBytes };
  }

  #diverge(g: number, channel: number, expected: string): never {
    const head = this.#held[g]![channel]?.[0];
    const actual = !head ? 'nothing' : head.kind === 'data' ? 'records' : head.event.kind;
    throw new ReplayDivergence(
      `${this.subtask}: input gate ${g}, position ${this.#position[g]} (run ${this.#cursor[g]! / 2}): the recording says ${expected} from channel ${channel} come next, but channel ${channel} has ${actual} next`,
    );
  }
}

/**
 * Live, the upstream task had been told the checkpoint was aborted before its barrier went out,
 * and sent a cancellation marker instead (when the abort arrived was timing): the barrier is read
 * as that marker here.
 */
function asCancelled(buffer: EventBuffer, recorded: string | undefined): EventBuffer | undefined {
  if (recorded !== 'cancel-checkpoint' || buffer.event.kind !== 'barrier') return undefined;
  return { kind: 'event', event: { kind: 'cancel-checkpoint', checkpointId: buffer.event.checkpointId }, sizeBytes: 16, priority: false };
}

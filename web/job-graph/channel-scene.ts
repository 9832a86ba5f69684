/**
 * One frame of the channel view: reads every channel's sender backlog (the ResultSubpartition's
 * queued buffers) and receiver queue (the InputChannel's queue) through a ChannelSnapshot (the
 * sim's tasks straight, or the live TaskManagers' network snapshots), and places each buffer on
 * its lane. A buffer keeps its identity from the sender's backlog to the
 * receiver's queue, so its drawn position eases from where it was to where it is now: records and
 * barriers visibly travel along the channel, and a barrier moves forward as the data ahead of it
 * drains.
 *
 * Per frame this reads the state once and writes into preallocated typed arrays (which double as
 * the hit list for clicks); nothing is allocated per buffer.
 */
import { eventItemKind, ItemKind, type ItemKindCode } from '../../engine/network/channel-item-kind.ts';
import type { NetworkBuffer } from '../../engine/protocol.ts';
import { pointOnLane, type ChannelLanes } from './channel-lanes.ts';
import type { SendLog } from '../playground/drivers/send-log.ts';
import type { ChannelSnapshot } from './channel-snapshot.ts';

export { ItemKind, type ItemKindCode };

/** Where a drawn buffer is: queued at the sender, queued at the receiver, or on the wire (animated). */
export const Side = { sender: 0, receiver: 1, wire: 2 } as const;

/** Figures of the frame, for the canvas's accessible summary and for tests. */
export interface SceneCounts {
  buffers: number;
  barriers: number;
  priorityBarriers: number;
  persisted: number;
  blocked: number;
  watermarks: number;
}

/** Ease time constant: a buffer covers ~63% of the way to its new place in this many wall ms. */
const EASE_MS = 70;
/** Wall ms a buffer takes to cross the wire in the animation (the simulated latency is far shorter). */
const WIRE_MS = 420;
/** A lane shows a new data buffer crossing at most this often; barriers and markers always cross. */
const WIRE_DATA_SPACING_MS = 120;
const WIRE_CAPACITY = 2048;

/** Where a buffer was drawn, and in which frame (so a buffer both queued and crossing is drawn once). */
interface Placement {
  s: number;
  frame: number;
}

export class ChannelScene {
  /** drawn items this frame; arrays grow when a frame has more */
  count = 0;
  x = new Float32Array(1024);
  y = new Float32Array(1024);
  /** lane direction at the item (unit vector), for drawing barriers across the lane */
  dx = new Float32Array(1024);
  dy = new Float32Array(1024);
  kind = new Uint8Array(1024);
  /** drawn size of the cell (the lane's) */
  size = new Float32Array(1024);
  /** 1 when a data buffer carries a watermark */
  watermark = new Uint8Array(1024);
  lane = new Int32Array(1024);
  side = new Uint8Array(1024);
  /** position in its queue (0 = next to go) */
  position = new Int32Array(1024);
  refs: (NetworkBuffer | null)[] = new Array<NetworkBuffer | null>(1024).fill(null);

  /** per lane: the receiving channel is blocked (aligning), it finished, it holds back its task's watermark */
  blocked = new Uint8Array(0);
  finished = new Uint8Array(0);
  holdsWatermark = new Uint8Array(0);

  readonly counts: SceneCounts = { buffers: 0, barriers: 0, priorityBarriers: 0, persisted: 0, blocked: 0, watermarks: 0 };

  #positions = new WeakMap<NetworkBuffer, Placement>();
  #frame = 0;
  #wallTime = 0;
  /** buffers crossing the wire: channel, wall time they left, the buffer */
  #wireChannel = new Int32Array(WIRE_CAPACITY);
  #wireStart = new Float64Array(WIRE_CAPACITY);
  #wireRefs: (NetworkBuffer | null)[] = new Array<NetworkBuffer | null>(WIRE_CAPACITY).fill(null);
  #wireCount = 0;
  /** per lane: wall time the last data buffer started crossing */
  #lastCrossing = new Float64Array(0);
  #sendCursor = 0;
  #sendLog: SendLog | null = null;
  #source: ChannelSnapshot | null = null;
  #point = new Float32Array(4);

  /**
   * Reads the queues and moves every buffer towards its place; `dtMs` is the wall time since the
   * last frame. Returns true while something is still moving.
   */
  update(source: ChannelSnapshot, lanes: ChannelLanes, dtMs: number, wallTime = performance.now()): boolean {
    this.#frame++;
    this.#wallTime = wallTime;
    this.#source = source;
    this.#resize(lanes.count);
    source.refresh(lanes.count);
    this.#takeSends(source.sends, lanes);
    source.markWatermarkHolders(this.holdsWatermark);
    const ease = dtMs <= 0 ? 0 : 1 - Math.exp(-dtMs / EASE_MS);
    const counts = this.counts;
    counts.buffers = counts.barriers = counts.priorityBarriers = counts.persisted = counts.blocked = counts.watermarks = 0;
    const previousCount = this.count;
    this.count = 0;
    let moving = false;
    for (let id = 0; id < lanes.count; id++) {
      if (!lanes.drawn[id]) continue;
      const blocked = source.isBlocked(id);
      this.blocked[id] = blocked ? 1 : 0;
      this.finished[id] = source.isFinished(id) ? 1 : 0;
      if (blocked) counts.blocked++;
      const total = lanes.lengths[id * 3 + 2]!;
      const pitch = lanes.pitch[id]!;
      const senderHead = Math.min(total * 0.42, lanes.lengths[id * 3]! + pitch * 1.5);
      const backlog = source.senderQueue(id);
      if (backlog) {
        for (let k = 0; k < backlog.length; k++) {
          moving = this.#place(lanes, id, backlog[k]!, Side.sender, k, senderHead - k * pitch, 0, ease) || moving;
        }
      }
      const queue = source.receiverQueue(id);
      if (queue) {
        const head = total - lanes.cell[id]! - 3;
        const floor = senderHead + pitch;
        for (let k = 0; k < queue.length; k++) {
          moving = this.#place(lanes, id, queue[k]!, Side.receiver, k, Math.max(floor, head - k * pitch), senderHead, ease) || moving;
        }
      }
    }
    moving = this.#placeCrossing(lanes) || moving;
    // Let go of the buffers drawn last frame but not in this one.
    if (previousCount > this.count) this.refs.fill(null, this.count, previousCount);
    return moving;
  }

  /** Starts a crossing for every buffer sent since the last frame (thinned out for data on busy lanes). */
  #takeSends(log: SendLog, lanes: ChannelLanes): void {
    if (log !== this.#sendLog) {
      this.#sendLog = log;
      this.#sendCursor = log.written;
      this.#wireCount = 0;
    }
    const from = Math.max(this.#sendCursor, log.written - log.capacity);
    for (let n = from; n < log.written; n++) {
      const i = n % log.capacity;
      const lane = log.channel[i]!;
      const buffer = log.buffers[i];
      log.release(n);
      if (!buffer || lane >= lanes.count || !lanes.drawn[lane]) continue;
      if (buffer.kind === 'data') {
        if (this.#wallTime - this.#lastCrossing[lane]! < WIRE_DATA_SPACING_MS) continue;
        this.#lastCrossing[lane] = this.#wallTime;
      }
      if (this.#wireCount >= WIRE_CAPACITY) break;
      const w = this.#wireCount++;
      this.#wireChannel[w] = lane;
      this.#wireStart[w] = this.#wallTime;
      this.#wireRefs[w] = buffer;
    }
    this.#sendCursor = log.written;
  }

  /**
   * Draws the buffers crossing the wire that are not queued anywhere this frame (most arrive and
   * are processed between two frames); a crossing ends when it reaches the receiver, or when its
   * buffer shows up in a queue (it is drawn there, easing on from where the crossing left it).
   */
  #placeCrossing(lanes: ChannelLanes): boolean {
    let kept = 0;
    for (let w = 0; w < this.#wireCount; w++) {
      const buffer = this.#wireRefs[w]!;
      const lane = this.#wireChannel[w]!;
      const progress = (this.#wallTime - this.#wireStart[w]!) / WIRE_MS;
      const placement = this.#positions.get(buffer);
      if (progress >= 1 || placement?.frame === this.#frame) continue;
      const total = lanes.lengths[lane * 3 + 2]!;
      const start = Math.min(total * 0.42, lanes.lengths[lane * 3]! + lanes.pitch[lane]! * 1.5);
      const end = total - lanes.cell[lane]! - 3;
      const eased = progress * progress * (3 - 2 * progress);
      this.#draw(lanes, lane, buffer, Side.wire, 0, start + (end - start) * eased);
      this.#wireChannel[kept] = lane;
      this.#wireStart[kept] = this.#wireStart[w]!;
      this.#wireRefs[kept] = buffer;
      kept++;
    }
    for (let w = kept; w < this.#wireCount; w++) this.#wireRefs[w] = null;
    this.#wireCount = kept;
    return kept > 0;
  }

  /** Places one buffer; returns true when it has not reached its place yet. */
  #place(lanes: ChannelLanes, lane: number, buffer: NetworkBuffer, side: number, position: number, target: number, enterAt: number, ease: number): boolean {
    const previous = this.#positions.get(buffer)?.s;
    let s = previous === undefined ? enterAt : previous + (target - previous) * ease;
    const moving = Math.abs(target - s) > 0.05;
    if (!moving) s = target;
    this.#draw(lanes, lane, buffer, side, position, s);
    return moving;
  }

  /** Records where the buffer is drawn this frame and adds it to the item arrays. */
  #draw(lanes: ChannelLanes, lane: number, buffer: NetworkBuffer, side: number, position: number, s: number): void {
    const placement = this.#positions.get(buffer);
    if (placement) {
      placement.s = s;
      placement.frame = this.#frame;
    } else {
      this.#positions.set(buffer, { s, frame: this.#frame });
    }
    const i = this.#grow();
    pointOnLane(lanes, lane, s, this.#point);
    this.x[i] = this.#point[0]!;
    this.y[i] = this.#point[1]!;
    this.dx[i] = this.#point[2]!;
    this.dy[i] = this.#point[3]!;
    this.lane[i] = lane;
    this.size[i] = lanes.cell[lane]!;
    this.side[i] = side;
    this.position[i] = position;
    this.refs[i] = buffer;
    this.watermark[i] = buffer.kind === 'data' && buffer.watermark !== undefined ? 1 : 0;
    this.kind[i] = this.#kindOf(buffer);
    this.#count(this.kind[i] as ItemKindCode, this.watermark[i] === 1);
  }

  #kindOf(buffer: NetworkBuffer): ItemKindCode {
    if (buffer.kind === 'data') return this.#source?.persistedIn(buffer) === undefined ? ItemKind.data : ItemKind.persisted;
    return eventItemKind(buffer);
  }

  #count(kind: ItemKindCode, watermark: boolean): void {
    const counts = this.counts;
    if (watermark) counts.watermarks++;
    if (kind === ItemKind.data) counts.buffers++;
    else if (kind === ItemKind.persisted) {
      counts.buffers++;
      counts.persisted++;
    } else if (kind === ItemKind.barrier) counts.barriers++;
    else if (kind === ItemKind.priorityBarrier) {
      counts.barriers++;
      counts.priorityBarriers++;
    }
  }

  /** Sizes the per-lane arrays to the lanes drawn. */
  #resize(laneCount: number): void {
    if (this.blocked.length === laneCount) return;
    this.blocked = new Uint8Array(laneCount);
    this.finished = new Uint8Array(laneCount);
    this.holdsWatermark = new Uint8Array(laneCount);
    this.#lastCrossing = new Float64Array(laneCount);
  }

  #grow(): number {
    const i = this.count++;
    if (i < this.x.length) return i;
    const size = this.x.length * 2;
    const grow = <T extends Float32Array | Uint8Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.x = grow(this.x, (n) => new Float32Array(n));
    this.y = grow(this.y, (n) => new Float32Array(n));
    this.dx = grow(this.dx, (n) => new Float32Array(n));
    this.dy = grow(this.dy, (n) => new Float32Array(n));
    this.kind = grow(this.kind, (n) => new Uint8Array(n));
    this.size = grow(this.size, (n) => new Float32Array(n));
    this.watermark = grow(this.watermark, (n) => new Uint8Array(n));
    this.lane = grow(this.lane, (n) => new Int32Array(n));
    this.side = grow(this.side, (n) => new Uint8Array(n));
    this.position = grow(this.position, (n) => new Int32Array(n));
    this.refs.length = size;
    this.refs.fill(null, i);
    return i;
  }

  /** The item nearest (x, y) within `radius`, or -1. */
  hit(x: number, y: number, radius: number): number {
    let best = -1;
    let bestDistance = radius;
    for (let i = 0; i < this.count; i++) {
      const d = Math.hypot(this.x[i]! - x, this.y[i]! - y);
      // Barriers win ties: they are what a learner is after.
      const bias = this.kind[i] === ItemKind.barrier || this.kind[i] === ItemKind.priorityBarrier ? 1.5 : 0;
      if (d - bias < bestDistance) {
        bestDistance = d - bias;
        best = i;
      }
    }
    return best;
  }

  /** The index of `buffer` among this frame's items, or -1. */
  indexOf(buffer: NetworkBuffer): number {
    for (let i = 0; i < this.count; i++) if (this.refs[i] === buffer) return i;
    return -1;
  }
}

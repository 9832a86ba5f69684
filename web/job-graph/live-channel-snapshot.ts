/**
 * The channel view's reader of a live run: the subtasks run in TaskManager workers, which send
 * their queues as NetworkSnapshots (workers/network-snapshot-encoder.ts) about ten times a second.
 * Each snapshot is decoded into NetworkBuffer-shaped items the scene and the inspector read as
 * they read the sim's: a barrier carries its checkpoint, a data buffer its watermark and size
 * (not its records: they stay in the worker). An item with the same sequence number as in the
 * TaskManager's previous snapshot is the same object, so the scene eases it forward.
 */
import { ItemKind } from '../../engine/network/channel-item-kind.ts';
import type { CheckpointBarrier, DataBuffer, NetworkBuffer } from '../../engine/protocol.ts';
import type { NetworkSnapshot } from '../../workers/protocol.ts';
import {
  NETWORK_END_BLOCKED,
  NETWORK_END_FINISHED,
  NETWORK_END_HOLDS_WATERMARK,
  NETWORK_END_SENDER,
  NETWORK_ITEM_AT_LEAST_ONCE,
  NETWORK_ITEM_SAVEPOINT,
} from '../../workers/network-snapshot-encoder.ts';
import { SendLog } from '../playground/drivers/send-log.ts';
import type { BufferRecords, ChannelSnapshot } from './channel-snapshot.ts';

/** One channel end of a decoded snapshot. */
export interface DecodedChannelEnd {
  channelId: number;
  end: 'sender' | 'receiver';
  blocked: boolean;
  finished: boolean;
  holdsWatermark: boolean;
  queue: NetworkBuffer[];
}

/** A TaskManager's snapshot as the page reads it. */
export interface DecodedNetworkSnapshot {
  attempt: number;
  time: number;
  ends: DecodedChannelEnd[];
  /** sequence number → item, for the next decode to keep identities */
  items: Map<number, NetworkBuffer>;
  /** persisted data → the unaligned checkpoint whose channel state holds it */
  persisted: Map<NetworkBuffer, number>;
  /** data → how many records it holds, its first and last (the records stay in the worker) */
  records: Map<NetworkBuffer, BufferRecords>;
}

/** Decodes one snapshot; items also in `previous` (same TaskManager and attempt) stay the same objects. */
export function decodeNetworkSnapshot(s: NetworkSnapshot, previous?: DecodedNetworkSnapshot): DecodedNetworkSnapshot {
  const known = previous?.attempt === s.attempt ? previous.items : undefined;
  const decoded: DecodedNetworkSnapshot = { attempt: s.attempt, time: s.time, ends: [], items: new Map(), persisted: new Map(), records: new Map() };
  for (let e = 0; e < s.channelIds.length; e++) {
    const flags = s.endFlags[e]!;
    const queue: NetworkBuffer[] = [];
    for (let i = s.itemStart[e]!; i < s.itemStart[e + 1]!; i++) {
      const seq = s.seqs[i]!;
      const item = known?.get(seq) ?? decodedItem(s, i);
      decoded.items.set(seq, item);
      if (s.kinds[i] === ItemKind.persisted) decoded.persisted.set(item, s.checkpointIds[i]!);
      if (item.kind === 'data') decoded.records.set(item, recordsOfItem(s, i));
      queue.push(item);
    }
    decoded.ends.push({
      channelId: s.channelIds[e]!,
      end: s.ends[e] === NETWORK_END_SENDER ? 'sender' : 'receiver',
      blocked: (flags & NETWORK_END_BLOCKED) !== 0,
      finished: (flags & NETWORK_END_FINISHED) !== 0,
      holdsWatermark: (flags & NETWORK_END_HOLDS_WATERMARK) !== 0,
      queue,
    });
  }
  return decoded;
}

function recordsOfItem(s: NetworkSnapshot, i: number): BufferRecords {
  const first = s.edgeRecords[2 * i];
  const last = s.edgeRecords[2 * i + 1];
  return { count: s.records[i]!, ...(first ? { first } : {}), ...(last ? { last } : {}) };
}

function decodedItem(s: NetworkSnapshot, i: number): NetworkBuffer {
  const kind = s.kinds[i]!;
  const sizeBytes = s.sizeBytes[i]!;
  if (kind === ItemKind.data || kind === ItemKind.persisted) {
    const watermark = s.values[i]!;
    return Number.isNaN(watermark) ? { kind: 'data', records: [], sizeBytes } : { kind: 'data', records: [], watermark, sizeBytes };
  }
  if (kind === ItemKind.endOfPartition) return { kind: 'event', event: { kind: 'end-of-partition' }, sizeBytes, priority: false };
  if (kind === ItemKind.endOfData) return { kind: 'event', event: { kind: 'end-of-data' }, sizeBytes, priority: false };
  if (kind === ItemKind.cancelMarker) return { kind: 'event', event: { kind: 'cancel-checkpoint', checkpointId: s.checkpointIds[i]! }, sizeBytes, priority: false };
  const priority = kind === ItemKind.priorityBarrier;
  const flags = s.itemFlags[i]!;
  const barrier: CheckpointBarrier = {
    kind: 'barrier',
    checkpointId: s.checkpointIds[i]!,
    timestamp: s.values[i]!,
    checkpointKind: flags & NETWORK_ITEM_SAVEPOINT ? 'SAVEPOINT' : priority ? 'UNALIGNED_CHECKPOINT' : 'CHECKPOINT',
    alignment: priority ? 'UNALIGNED' : flags & NETWORK_ITEM_AT_LEAST_ONCE ? 'AT_LEAST_ONCE' : 'ALIGNED',
  };
  return { kind: 'event', event: barrier, sizeBytes, priority };
}

export class LiveChannelSnapshot implements ChannelSnapshot {
  /** Buffers travel between workers, not through this thread: nothing is logged. */
  readonly sends = new SendLog(1);
  /** the attempt the job runs now: snapshots of another are dropped */
  readonly #attempt: () => number;
  readonly #latest = new Map<string, DecodedNetworkSnapshot>();
  #changed = true;
  #laneCount = -1;
  #shownAttempt = -1;
  #senders: (NetworkBuffer[] | undefined)[] = [];
  #receivers: (DecodedChannelEnd | undefined)[] = [];

  constructor(attempt: () => number) {
    this.#attempt = attempt;
  }

  /** A TaskManager's snapshot arrived. */
  receive(taskManagerId: string, snapshot: NetworkSnapshot): void {
    this.#latest.set(taskManagerId, decodeNetworkSnapshot(snapshot, this.#latest.get(taskManagerId)));
    this.#changed = true;
  }

  /** Rebuilds channel id → queues when a snapshot arrived since the last frame. */
  refresh(laneCount: number): void {
    const attempt = this.#attempt();
    if (!this.#changed && laneCount === this.#laneCount && attempt === this.#shownAttempt) return;
    this.#changed = false;
    this.#laneCount = laneCount;
    this.#shownAttempt = attempt;
    this.#senders = new Array<NetworkBuffer[] | undefined>(laneCount);
    this.#receivers = new Array<DecodedChannelEnd | undefined>(laneCount);
    for (const [id, snapshot] of this.#latest) {
      // A TaskManager of an attempt failed over from, or one that died with it.
      if (snapshot.attempt !== attempt) {
        this.#latest.delete(id);
        continue;
      }
      for (const end of snapshot.ends) {
        if (end.channelId >= laneCount) continue;
        if (end.end === 'sender') this.#senders[end.channelId] = end.queue;
        else this.#receivers[end.channelId] = end;
      }
    }
  }

  senderQueue(channelId: number): readonly NetworkBuffer[] | undefined {
    return this.#senders[channelId];
  }

  receiverQueue(channelId: number): readonly NetworkBuffer[] | undefined {
    return this.#receivers[channelId]?.queue;
  }

  isBlocked(channelId: number): boolean {
    return this.#receivers[channelId]?.blocked ?? false;
  }

  isFinished(channelId: number): boolean {
    return this.#receivers[channelId]?.finished ?? false;
  }

  markWatermarkHolders(out: Uint8Array): void {
    out.fill(0);
    for (let id = 0; id < out.length && id < this.#receivers.length; id++) if (this.#receivers[id]?.holdsWatermark) out[id] = 1;
  }

  persistedIn(buffer: NetworkBuffer): number | undefined {
    for (const snapshot of this.#latest.values()) {
      const id = snapshot.persisted.get(buffer);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  recordsOf(buffer: DataBuffer): BufferRecords {
    for (const snapshot of this.#latest.values()) {
      const records = snapshot.records.get(buffer);
      if (records) return records;
    }
    return { count: buffer.records.length };
  }
}

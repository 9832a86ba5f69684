/**
 * Takes a TaskManager's NetworkSnapshot (protocol.ts): the queues of its subtasks' channel ends,
 * in typed-array columns that travel transferred with a report batch. The TaskManager takes one
 * at most every NETWORK_SNAPSHOT_INTERVAL_MS, never per buffer, so the channel view costs the
 * data plane little.
 *
 * Identity: every queued buffer gets a sequence number the first time a snapshot sees it, kept
 * (a WeakMap) while it stays in this TaskManager; a buffer on a local channel keeps it from the
 * sender's backlog to the receiver's queue (the same object). The page eases a buffer with the
 * same number forward, as the sim's view does with the same object.
 *
 * Persisted marks: the InFlightTracker applies Flink's rules (which data an unaligned barrier
 * overtook, which data a subtask records after its snapshot) where the tasks run. A TaskManager
 * does not know the job's pending checkpoints, so the unaligned ones are those whose priority
 * barrier it saw, until it hears the checkpoint completed or was aborted.
 */
import type { NetworkBuffer, StreamRecord } from '../engine/protocol.ts';
import type { StreamTask } from '../engine/task/stream-task.ts';
import { eventItemKind, ItemKind } from '../engine/network/channel-item-kind.ts';
import { InFlightTracker } from '../engine/network/in-flight-tracker.ts';
import { watermarkHolder } from '../engine/network/watermark-holder.ts';
import type { NetworkSnapshot } from './protocol.ts';

/** Wall ms between two snapshots of one TaskManager (~10 Hz). */
export const NETWORK_SNAPSHOT_INTERVAL_MS = 100;

export const NETWORK_END_SENDER = 0;
export const NETWORK_END_RECEIVER = 1;
export const NETWORK_END_BLOCKED = 1;
export const NETWORK_END_FINISHED = 2;
export const NETWORK_END_HOLDS_WATERMARK = 4;
export const NETWORK_ITEM_SAVEPOINT = 1;
export const NETWORK_ITEM_AT_LEAST_ONCE = 2;

/** Unaligned checkpoints remembered at most (a missed notification must not grow the list). */
const MAX_UNALIGNED = 16;

export class NetworkSnapshotEncoder {
  readonly #seqs = new WeakMap<NetworkBuffer, number>();
  #nextSeq = 1;
  readonly #tracker = new InFlightTracker();
  readonly #unaligned = new Set<number>();

  /** The checkpoint completed or was aborted: its data is no longer in flight for it. */
  forget(checkpointId: number): void {
    this.#unaligned.delete(checkpointId);
  }

  encode(attempt: number, time: number, tasks: readonly StreamTask[]): NetworkSnapshot {
    let ends = 0;
    let items = 0;
    for (const task of tasks) {
      for (const s of task.router.subpartitions) { items += this.#count(s.queuedBuffers); ends++; }
      for (const gate of task.gates) for (const c of gate.channels) { items += this.#count(c.queue); ends++; }
    }
    this.#tracker.beginObservation(this.#unaligned);
    for (const task of tasks) {
      for (const s of task.router.subpartitions) this.#tracker.observeBacklog(s.queuedBuffers);
      this.#tracker.observeInputs(task);
    }
    const snapshot = emptySnapshot(attempt, time, ends, items);
    let end = 0;
    let item = 0;
    for (const task of tasks) {
      for (const s of task.router.subpartitions) item = this.#writeEnd(snapshot, end++, item, s.channelId, NETWORK_END_SENDER, 0, s.queuedBuffers);
      const holder = watermarkHolder(task);
      for (const gate of task.gates) {
        for (const c of gate.channels) {
          const flags = (c.blocked ? NETWORK_END_BLOCKED : 0) | (c.finished ? NETWORK_END_FINISHED : 0) | (c.channelId === holder ? NETWORK_END_HOLDS_WATERMARK : 0);
          item = this.#writeEnd(snapshot, end++, item, c.channelId, NETWORK_END_RECEIVER, flags, c.queue);
        }
      }
    }
    snapshot.itemStart[end] = item;
    return snapshot;
  }

  /** Counts the queue's items and remembers the unaligned checkpoints whose priority barriers it holds. */
  #count(queue: readonly NetworkBuffer[]): number {
    for (const buffer of queue) {
      if (buffer.kind !== 'event' || !buffer.priority || buffer.event.kind !== 'barrier') continue;
      this.#unaligned.add(buffer.event.checkpointId);
      if (this.#unaligned.size > MAX_UNALIGNED) this.#unaligned.delete(Math.min(...this.#unaligned));
    }
    return queue.length;
  }

  #writeEnd(snapshot: NetworkSnapshot, end: number, item: number, channelId: number, side: number, flags: number, queue: readonly NetworkBuffer[]): number {
    snapshot.channelIds[end] = channelId;
    snapshot.ends[end] = side;
    snapshot.endFlags[end] = flags;
    snapshot.itemStart[end] = item;
    for (const buffer of queue) this.#writeItem(snapshot, item++, buffer);
    return item;
  }

  #writeItem(snapshot: NetworkSnapshot, i: number, buffer: NetworkBuffer): void {
    let seq = this.#seqs.get(buffer);
    if (seq === undefined) {
      seq = this.#nextSeq++;
      this.#seqs.set(buffer, seq);
    }
    snapshot.seqs[i] = seq;
    snapshot.sizeBytes[i] = buffer.sizeBytes;
    if (buffer.kind === 'data') {
      const persistedIn = this.#tracker.checkpointOf(buffer);
      snapshot.kinds[i] = persistedIn === undefined ? ItemKind.data : ItemKind.persisted;
      snapshot.checkpointIds[i] = persistedIn ?? 0;
      snapshot.values[i] = buffer.watermark ?? NaN;
      snapshot.records[i] = buffer.records.length;
      // The first and last record only: the inspector shows them; the rest stay in the worker.
      snapshot.edgeRecords[2 * i] = buffer.records[0] ?? null;
      snapshot.edgeRecords[2 * i + 1] = buffer.records[buffer.records.length - 1] ?? null;
      return;
    }
    const event = buffer.event;
    snapshot.kinds[i] = eventItemKind(buffer);
    if (event.kind === 'end-of-partition' || event.kind === 'end-of-data') return;
    snapshot.checkpointIds[i] = event.checkpointId;
    if (event.kind !== 'barrier') return;
    snapshot.values[i] = event.timestamp;
    snapshot.itemFlags[i] = (event.checkpointKind === 'SAVEPOINT' ? NETWORK_ITEM_SAVEPOINT : 0) | (event.alignment === 'AT_LEAST_ONCE' ? NETWORK_ITEM_AT_LEAST_ONCE : 0);
  }
}

function emptySnapshot(attempt: number, time: number, ends: number, items: number): NetworkSnapshot {
  return {
    attempt,
    time,
    channelIds: new Int32Array(ends),
    ends: new Uint8Array(ends),
    endFlags: new Uint8Array(ends),
    itemStart: new Uint32Array(ends + 1),
    kinds: new Uint8Array(items),
    seqs: new Uint32Array(items),
    checkpointIds: new Uint32Array(items),
    values: new Float64Array(items),
    records: new Uint32Array(items),
    sizeBytes: new Uint32Array(items),
    itemFlags: new Uint8Array(items),
    edgeRecords: new Array<StreamRecord | null>(2 * items).fill(null),
  };
}

/** The snapshot's array buffers, to transfer with the message that carries it. */
export function networkSnapshotBuffers(s: NetworkSnapshot): ArrayBuffer[] {
  return [s.channelIds, s.ends, s.endFlags, s.itemStart, s.kinds, s.seqs, s.checkpointIds, s.values, s.records, s.sizeBytes, s.itemFlags].map((a) => a.buffer as ArrayBuffer);
}

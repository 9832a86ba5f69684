/**
 * Which queued data buffers are in-flight data of an unaligned checkpoint: the buffers its
 * snapshot persists as channel state (Flink's ChannelStateWriter), so the channel view can mark
 * them. The task keeps that list to itself until it acknowledges, so this observer applies
 * Flink's rules to what the queues show, frame by frame, and remembers every buffer it marked:
 *
 * - output side: a priority (unaligned) barrier at the head of a subpartition's backlog overtook
 *   the data behind it; that data is the sender's output channel state;
 * - input side: a priority barrier at the front of an input channel overtook the data queued
 *   there; and once a subtask took the snapshot of unaligned checkpoint N (a barrier N was read on
 *   one of its channels), the data on its other channels ahead of their barrier N is in flight;
 * - acknowledged snapshots name their channel state exactly: every buffer in it is marked.
 *
 * A mark stays with the buffer (a WeakMap, so consumed buffers are forgotten with them).
 */
import type { PendingCheckpoint } from '../checkpoint/pending-checkpoint.ts';
import type { DataBuffer, NetworkBuffer } from '../protocol.ts';
import type { StreamTask } from '../task/stream-task.ts';
import type { InputChannel } from './input-gate.ts';

export class InFlightTracker {
  readonly #marks = new WeakMap<DataBuffer, number>();
  /** ids of pending checkpoints that run unaligned */
  readonly #unaligned: number[] = [];
  /** changes when a pending checkpoint starts, ends or gets an acknowledgement */
  #ackSignature = -1;

  /** The unaligned checkpoint whose channel state holds this buffer, if any. */
  checkpointOf(buffer: NetworkBuffer): number | undefined {
    return buffer.kind === 'data' ? this.#marks.get(buffer) : undefined;
  }

  /** Once per frame, before the queues are observed. */
  beginFrame(pending: readonly PendingCheckpoint[]): void {
    this.#unaligned.length = 0;
    let signature = 0;
    for (const checkpoint of pending) {
      if (checkpoint.barrier.alignment === 'UNALIGNED') this.#unaligned.push(checkpoint.id);
      signature = (signature * 31 + checkpoint.id * 4099 + checkpoint.numAcknowledged) | 0;
    }
    if (signature === this.#ackSignature) return;
    this.#markAcknowledged(pending, signature);
  }

  /**
   * Once per observation where no pending checkpoints are known (a live TaskManager): the ids of
   * the unaligned checkpoints that may be running, from the priority barriers it saw.
   */
  beginObservation(unaligned: Iterable<number>): void {
    this.#unaligned.length = 0;
    for (const id of unaligned) this.#unaligned.push(id);
  }

  #markAcknowledged(pending: readonly PendingCheckpoint[], signature: number): void {
    this.#ackSignature = signature;
    for (const checkpoint of pending) {
      for (const ack of checkpoint.acknowledgements.values()) {
        const state = ack.snapshot.channelState;
        if (!state) continue;
        for (const input of state.inputs) this.#markAll(input.buffers, checkpoint.id);
        for (const output of state.outputs) this.#markAll(output.buffers, checkpoint.id);
      }
    }
  }

  /** A subpartition's backlog: data behind a priority barrier is output channel state. */
  observeBacklog(backlog: readonly NetworkBuffer[]): void {
    const head = backlog[0];
    if (!head || head.kind !== 'event' || !head.priority || head.event.kind !== 'barrier') return;
    const id = head.event.checkpointId;
    for (let i = 1; i < backlog.length; i++) this.#mark(backlog[i]!, id);
  }

  /** A receiving subtask's input channels. */
  observeInputs(task: StreamTask): void {
    for (const gate of task.gates) {
      for (const channel of gate.channels) this.#observeOvertaken(channel);
    }
    for (const id of this.#unaligned) {
      if (!this.#snapshotTaken(task, id)) continue;
      for (const gate of task.gates) {
        for (const channel of gate.channels) if (!channel.finished && channel.lastBarrierId < id) this.#markUntilBarrier(channel, id);
      }
    }
  }

  #observeOvertaken(channel: InputChannel): void {
    const queue = channel.queue;
    for (let i = 0; i < channel.priorityHead && i < queue.length; i++) {
      const buffer = queue[i]!;
      if (buffer.kind !== 'event' || buffer.event.kind !== 'barrier') continue;
      const id = buffer.event.checkpointId;
      for (let k = channel.priorityHead; k < queue.length; k++) this.#mark(queue[k]!, id);
      return;
    }
  }

  /** True once a barrier of checkpoint `id` was read on some input of the task. */
  #snapshotTaken(task: StreamTask, id: number): boolean {
    for (const gate of task.gates) for (const channel of gate.channels) if (channel.lastBarrierId >= id) return true;
    return false;
  }

  #markUntilBarrier(channel: InputChannel, id: number): void {
    for (const buffer of channel.queue) {
      if (buffer.kind === 'event' && buffer.event.kind === 'barrier' && buffer.event.checkpointId >= id) return;
      this.#mark(buffer, id);
    }
  }

  #markAll(buffers: readonly DataBuffer[], id: number): void {
    for (const buffer of buffers) this.#mark(buffer, id);
  }

  #mark(buffer: NetworkBuffer, id: number): void {
    if (buffer.kind === 'data' && !this.#marks.has(buffer)) this.#marks.set(buffer, id);
  }
}

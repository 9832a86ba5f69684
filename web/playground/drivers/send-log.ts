/**
 * Every buffer a subtask puts on the wire, newest last, in a fixed-size ring: what the channel
 * view animates as buffers travelling from sender to receiver, even those that arrive and are
 * processed between two frames (an unloaded job's queues are empty at every frame).
 *
 * The sim driver fills it by wrapping each subpartition's `pollSendable` (the one place a buffer
 * leaves a ResultSubpartition). Its one reader (the channel view) keeps a cursor, reads what came
 * since, and lets go of the buffers it read (`release`), so the ring holds few records alive.
 */
import type { NetworkBuffer } from '../../../engine/protocol.ts';
import type { ResultSubpartition } from '../../../engine/network/result-subpartition.ts';
import type { StreamTask } from '../../../engine/task/stream-task.ts';

export class SendLog {
  readonly capacity: number;
  readonly channel: Int32Array;
  readonly buffers: (NetworkBuffer | null)[];
  /** how many sends were ever recorded; entry i lives at i % capacity */
  written = 0;
  #tapped: readonly StreamTask[] | null = null;

  constructor(capacity = 1024) {
    this.capacity = capacity;
    this.channel = new Int32Array(capacity);
    this.buffers = new Array<NetworkBuffer | null>(capacity).fill(null);
  }

  record(channelId: number, buffer: NetworkBuffer): void {
    const i = this.written % this.capacity;
    this.channel[i] = channelId;
    this.buffers[i] = buffer;
    this.written++;
  }

  /** The reader is done with entry `n` (a count of `written`): the buffer is not kept alive for it. */
  release(n: number): void {
    this.buffers[n % this.capacity] = null;
  }

  /** Taps the subpartitions of these tasks, once per set of tasks (a restart deploys new ones). */
  tap(tasks: readonly StreamTask[]): void {
    if (tasks === this.#tapped) return;
    this.#tapped = tasks;
    for (const task of tasks) for (const s of task.router.subpartitions) this.#tapSubpartition(s);
  }

  #tapSubpartition(subpartition: ResultSubpartition): void {
    const poll = subpartition.pollSendable.bind(subpartition);
    subpartition.pollSendable = () => {
      const buffer = poll();
      if (buffer) this.record(subpartition.channelId, buffer);
      return buffer;
    };
  }
}

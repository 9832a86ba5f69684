/**
 * The channel view's reader of the simulation: the sim's StreamTasks live on this thread, so it
 * reads their subpartitions and input channels straight, every frame, without copying. Channel
 * id → sender and receiver is indexed once per set of tasks (a restart deploys new ones); the
 * InFlightTracker marks the data an unaligned checkpoint persists.
 */
import type { PendingCheckpoint } from '../../engine/checkpoint/pending-checkpoint.ts';
import { InFlightTracker } from '../../engine/network/in-flight-tracker.ts';
import type { InputChannel } from '../../engine/network/input-gate.ts';
import type { ResultSubpartition } from '../../engine/network/result-subpartition.ts';
import { watermarkHolder } from '../../engine/network/watermark-holder.ts';
import type { DataBuffer, NetworkBuffer } from '../../engine/protocol.ts';
import type { StreamTask } from '../../engine/task/stream-task.ts';
import type { SendLog } from '../playground/drivers/send-log.ts';
import { recordsIn, type BufferRecords, type ChannelSnapshot } from './channel-snapshot.ts';

/** What the reader needs of the sim driver. */
export interface SimChannelSource {
  readonly tasks: readonly StreamTask[];
  readonly pendingCheckpoints: readonly PendingCheckpoint[];
  readonly sends: SendLog;
}

export class SimChannelSnapshot implements ChannelSnapshot {
  readonly #source: SimChannelSource;
  readonly #tracker = new InFlightTracker();
  #tasks: readonly StreamTask[] | null = null;
  #senders: (ResultSubpartition | undefined)[] = [];
  #receivers: (InputChannel | undefined)[] = [];

  constructor(source: SimChannelSource) {
    this.#source = source;
  }

  get sends(): SendLog {
    return this.#source.sends;
  }

  refresh(_laneCount: number): void {
    this.#index();
    this.#tracker.beginFrame(this.#source.pendingCheckpoints);
    for (const task of this.#source.tasks) {
      for (const s of task.router.subpartitions) this.#tracker.observeBacklog(s.queuedBuffers);
      this.#tracker.observeInputs(task);
    }
  }

  senderQueue(channelId: number): readonly NetworkBuffer[] | undefined {
    this.#index();
    return this.#senders[channelId]?.queuedBuffers;
  }

  receiverQueue(channelId: number): readonly NetworkBuffer[] | undefined {
    this.#index();
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
    for (const task of this.#source.tasks) {
      const holder = watermarkHolder(task);
      if (holder >= 0 && holder < out.length) out[holder] = 1;
    }
  }

  persistedIn(buffer: NetworkBuffer): number | undefined {
    return this.#tracker.checkpointOf(buffer);
  }

  recordsOf(buffer: DataBuffer): BufferRecords {
    return recordsIn(buffer);
  }

  /** Channel id → sender and receiver, rebuilt when the tasks were replaced (readers outside the frame, like the inspector, call it too). */
  #index(): void {
    const tasks = this.#source.tasks;
    if (tasks === this.#tasks) return;
    this.#tasks = tasks;
    this.#senders = [];
    this.#receivers = [];
    for (const task of tasks) {
      for (const s of task.router.subpartitions) this.#senders[s.channelId] = s;
      for (const gate of task.gates) for (const c of gate.channels) this.#receivers[c.channelId] = c;
    }
  }
}

/**
 * Finds what the inspector shows in the running simulation: both ends of a channel, where a
 * buffer is queued now, the figures of a subtask. Pure reads of the driver's live objects.
 */
import type { ChannelSnapshot } from '../job-graph/channel-snapshot.ts';
import type { ChannelInfo } from '../../engine/job/execution-graph.ts';
import type { InputChannel } from '../../engine/network/input-gate.ts';
import type { ResultSubpartition } from '../../engine/network/result-subpartition.ts';
import type { NetworkBuffer } from '../../engine/protocol.ts';
import type { StreamTask } from '../../engine/task/stream-task.ts';

/** What the inspector reads: the sim driver satisfies it. */
export interface InspectSource {
  readonly tasks: readonly StreamTask[];
  readonly channels: readonly ChannelInfo[];
}

export interface ChannelEnds {
  info: ChannelInfo | undefined;
  sender: ResultSubpartition | undefined;
  receiver: InputChannel | undefined;
  senderTask: StreamTask | undefined;
  receiverTask: StreamTask | undefined;
}

export function channelEnds(source: InspectSource, channelId: number): ChannelEnds {
  const ends: ChannelEnds = { info: source.channels[channelId], sender: undefined, receiver: undefined, senderTask: undefined, receiverTask: undefined };
  for (const task of source.tasks) {
    for (const s of task.router.subpartitions) {
      if (s.channelId !== channelId) continue;
      ends.sender = s;
      ends.senderTask = task;
    }
    for (const gate of task.gates) {
      for (const c of gate.channels) {
        if (c.channelId !== channelId) continue;
        ends.receiver = c;
        ends.receiverTask = task;
      }
    }
  }
  return ends;
}

export type BufferLocation =
  | { side: 'sender' | 'receiver'; position: number; count: number }
  | { side: 'gone' };

/** Where `buffer` is queued on its channel now (position 1 = next to go). */
export function locateBuffer(queues: Pick<ChannelSnapshot, 'senderQueue' | 'receiverQueue'>, channelId: number, buffer: NetworkBuffer): BufferLocation {
  const backlog = queues.senderQueue(channelId) ?? [];
  const inBacklog = backlog.indexOf(buffer);
  if (inBacklog >= 0) return { side: 'sender', position: inBacklog + 1, count: backlog.length };
  const queue = queues.receiverQueue(channelId) ?? [];
  const inQueue = queue.indexOf(buffer);
  if (inQueue >= 0) return { side: 'receiver', position: inQueue + 1, count: queue.length };
  return { side: 'gone' };
}

export function taskOf(source: InspectSource, vertexId: string, subtaskIndex: number): StreamTask | undefined {
  return source.tasks.find((task) => task.id.vertexId === vertexId && task.id.subtaskIndex === subtaskIndex);
}

/** `vertex#index` of a channel's end, with the vertex's name when known. */
export function endLabel(id: { vertexId: string; subtaskIndex: number }, names: ReadonlyMap<string, string>): string {
  return `${names.get(id.vertexId) ?? id.vertexId} #${id.subtaskIndex}`;
}

/** The combined watermark of a task: the minimum over its open input channels. */
export function combinedWatermark(task: StreamTask): number {
  let min = Infinity;
  let open = 0;
  for (const gate of task.gates) {
    for (const channel of gate.channels) {
      if (channel.finished) continue;
      open++;
      min = Math.min(min, channel.watermark);
    }
  }
  return open === 0 ? Infinity : min;
}

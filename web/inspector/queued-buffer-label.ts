import type { NetworkBuffer } from '../../engine/protocol.ts';
import type { MessageKey } from '../i18n/messages.ts';

/** How a queued buffer is named in the channel view: a message key and its parameters. */
export interface QueuedBufferLabel {
  key: MessageKey;
  params: Record<string, number>;
  /** a longer explanation for a tooltip, when there is one */
  hint?: MessageKey;
}

/**
 * A barrier waiting in a receiver's queue for an aligned checkpoint with an
 * aligned-checkpoint-timeout is announced: the task was told of it on arrival (Flink's
 * EventAnnouncement), so its alignment timer runs although the barrier still waits behind data.
 * In a sender's backlog nothing is announced yet.
 */
export function queuedBufferLabel(buffer: NetworkBuffer, receiving: boolean): QueuedBufferLabel {
  if (buffer.kind === 'data') return { key: 'inspector.queued.records', params: { n: buffer.records.length } };
  const event = buffer.event;
  switch (event.kind) {
    case 'barrier':
      if (receiving && !buffer.priority && event.alignedTimeoutAt !== undefined) {
        return { key: 'inspector.queued.barrierAnnounced', params: { id: event.checkpointId }, hint: 'inspector.queued.announcedHint' };
      }
      return { key: 'inspector.queued.barrier', params: { id: event.checkpointId } };
    case 'cancel-checkpoint':
      return { key: 'inspector.queued.cancel', params: { id: event.checkpointId } };
    case 'end-of-data':
      return { key: 'inspector.queued.endOfData', params: {} };
    case 'end-of-partition':
      return { key: 'inspector.queued.end', params: {} };
  }
}

/**
 * What the channel view reads of a running job's network, whichever driver runs it: per channel
 * the sender's backlog (the ResultSubpartition's queued buffers, next to go first), the
 * receiver's queue (the InputChannel's), whether the receiver is blocked (aligning) or finished,
 * and which channel holds back its subtask's watermark. The sim reads its StreamTasks directly
 * (sim-channel-snapshot.ts); live reads the TaskManagers' periodic network snapshots
 * (live-channel-snapshot.ts). A buffer is the same object from frame to frame while it stays
 * queued, so the scene can ease it forward.
 */
import type { DataBuffer, NetworkBuffer, StreamRecord } from '../../engine/protocol.ts';
import type { SendLog } from '../playground/drivers/send-log.ts';

export interface BufferRecords {
  count: number;
  first?: StreamRecord;
  last?: StreamRecord;
}

/** A buffer whose records are at hand (the sim's): all of them. */
export function recordsIn(buffer: DataBuffer): BufferRecords {
  const { records } = buffer;
  return { count: records.length, ...(records.length > 0 ? { first: records[0]!, last: records[records.length - 1]! } : {}) };
}

export interface ChannelSnapshot {
  /** Once per frame, before any read: brings the per-channel view up to date. */
  refresh(laneCount: number): void;
  senderQueue(channelId: number): readonly NetworkBuffer[] | undefined;
  receiverQueue(channelId: number): readonly NetworkBuffer[] | undefined;
  /** the receiving channel is blocked: an aligned barrier arrived and alignment still runs */
  isBlocked(channelId: number): boolean;
  /** the receiving channel read end-of-partition */
  isFinished(channelId: number): boolean;
  /** Sets 1 for every channel with the lowest watermark of its receiving subtask (of several open ones). */
  markWatermarkHolders(out: Uint8Array): void;
  /** The unaligned checkpoint whose channel state holds this buffer, if any. */
  persistedIn(buffer: NetworkBuffer): number | undefined;
  /** How many records a data buffer holds, and its first and last (live: the rest stay in the worker). */
  recordsOf(buffer: DataBuffer): BufferRecords;
  /** buffers put on the wire (sim: every one; live: none reach this thread) */
  readonly sends: SendLog;
}

/**
 * Kinds of the items queued on a channel, as the channel view draws them. The live TaskManagers
 * send these codes in their network snapshots (workers/network-snapshot-encoder.ts), so both
 * drivers speak the same kinds.
 */
import type { EventBuffer } from '../protocol.ts';
export const ItemKind = {
  data: 0,
  /** in-flight data of an unaligned checkpoint (persisted as channel state) */
  persisted: 1,
  barrier: 2,
  /** an unaligned barrier: a priority event that overtakes the queued buffers */
  priorityBarrier: 3,
  cancelMarker: 4,
  endOfPartition: 5,
  /** Flink's EndOfData: the upstream's input ended; barriers still follow until its end-of-partition */
  endOfData: 6,
} as const;
export type ItemKindCode = (typeof ItemKind)[keyof typeof ItemKind];

/** The kind of an event buffer (a data buffer is data or persisted, which only the tracker knows). */
export function eventItemKind(buffer: EventBuffer): ItemKindCode {
  switch (buffer.event.kind) {
    case 'barrier':
      return buffer.priority ? ItemKind.priorityBarrier : ItemKind.barrier;
    case 'cancel-checkpoint':
      return ItemKind.cancelMarker;
    case 'end-of-data':
      return ItemKind.endOfData;
    case 'end-of-partition':
      return ItemKind.endOfPartition;
  }
}

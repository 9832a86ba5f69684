/**
 * Kinds of the items queued on a channel, as the channel view draws them. The live TaskManagers
 * send these codes in their network snapshots (workers/network-snapshot-encoder.ts), so both
 * drivers speak the same kinds.
 */
export const ItemKind = {
  data: 0,
  /** in-flight data of an unaligned checkpoint (persisted as channel state) */
  persisted: 1,
  barrier: 2,
  /** an unaligned barrier: a priority event that overtakes the queued buffers */
  priorityBarrier: 3,
  cancelMarker: 4,
  endOfPartition: 5,
} as const;
export type ItemKindCode = (typeof ItemKind)[keyof typeof ItemKind];

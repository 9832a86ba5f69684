/**
 * Virtual time the synchronous part of a snapshot blocks a subtask. The heap backend's sync part
 * is a copy-on-write shallow copy of its tables (Flink's CopyOnWriteStateMap snapshot), so it
 * costs a base plus a little per entry; the upload (asynchronous part) is charged by the driver's
 * storage cost model instead.
 */
export const SYNC_SNAPSHOT_BASE_MS = 0.05;
export const SYNC_SNAPSHOT_PER_ENTRY_MS = 0.00005;

/**
 * The rocksdb backend's sync part is a flush of the memtables (RocksDB's native checkpoint with the
 * WAL off) plus, with `state.backend.rocksdb.timer-service.factory: HEAP`, a synchronous copy of
 * every heap timer: the seed's warning that heap timers can lengthen checkpoints.
 */
export const FLUSH_MS_PER_MIB = 5;
export const HEAP_TIMER_SNAPSHOT_PER_ENTRY_MS = 0.002;

export function syncSnapshotMs(stateEntries: number): number {
  return SYNC_SNAPSHOT_BASE_MS + stateEntries * SYNC_SNAPSHOT_PER_ENTRY_MS;
}

export function rocksDbSyncSnapshotMs(memtableBytes: number, heapTimerEntries: number): number {
  return SYNC_SNAPSHOT_BASE_MS + (memtableBytes / (1024 * 1024)) * FLUSH_MS_PER_MIB + heapTimerEntries * HEAP_TIMER_SNAPSHOT_PER_ENTRY_MS;
}

/** Bytes of a snapshot's small private parts (offsets, metadata) beyond keyed and channel state. */
export const SNAPSHOT_METADATA_BYTES = 64;

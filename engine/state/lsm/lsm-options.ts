import type { FlinkConfig, TimerServiceFactory } from '../../config/flink-config.ts';
import type { LsmSharedResources } from './lsm-shared-resources.ts';

/**
 * When flushes and compactions run. RocksDB runs them on background threads; this engine has
 * none, so either
 * - `inline`: a full memtable is flushed (and the tree compacted) right in the write that filled
 *   it, as if background threads were infinitely fast: writes never stall (unless the
 *   write-buffer count is 1, where RocksDB stalls on every flush too);
 * - `deferred`: full memtables wait as immutables until the driver flushes them
 *   (`runBackgroundJobs()`, or `flushColumnFamily()` when its model of
 *   `state.backend.rocksdb.thread.num` threads says a flush job is done; the sim's
 *   RocksDbBackgroundThreads). A write that finds the active memtable full while the write-buffer
 *   count is used up stalls: it flushes inline, counts a write stall and leaves it for the driver
 *   (`drainWriteStalls()`), which charges the wait to the task in its own time.
 */
export type LsmBackgroundMode = 'inline' | 'deferred';

export interface LsmOptions {
  /** Names this backend's files (`<name>-000042-<hash>.sst`); make it unique per subtask. */
  name: string;
  /** `state.backend.rocksdb.writebuffer.size`, per column family */
  writeBufferSizeBytes: number;
  /** `state.backend.rocksdb.writebuffer.count` (max_write_buffer_number) */
  writeBufferCount: number;
  /** `state.backend.rocksdb.block.blocksize` */
  blockSizeBytes: number;
  /** `state.backend.rocksdb.block.cache-size`, per column family; unused with shared resources */
  blockCacheSizeBytes: number;
  /** level0_file_num_compaction_trigger */
  level0CompactionTrigger: number;
  /** `state.backend.rocksdb.compaction.level.max-size-level-base` */
  maxBytesForLevelBase: number;
  /** max_bytes_for_level_multiplier */
  levelSizeMultiplier: number;
  /** `state.backend.rocksdb.compaction.level.target-file-size-base` */
  targetFileSizeBytes: number;
  /** num_levels */
  numLevels: number;
  /**
   * level_compaction_dynamic_file_size (RocksDB ≥ 7.8, default true): compaction outputs are cut
   * early at the next level's file boundaries, so later compactions rewrite no partial files.
   */
  levelCompactionDynamicFileSize: boolean;
  /** `state.backend.rocksdb.timer-service.factory`: HEAP keeps `heapStates` out of the tree */
  timerService: TimerServiceFactory;
  /** States kept on the heap when `timerService` is HEAP (the timer state). */
  timerStates: readonly string[];
  background: LsmBackgroundMode;
  /**
   * `exact`: every put and delete reads the old value first, so entryCount() and
   * stateSizeBytes() match the heap backend exactly. `estimate`: blind writes, as RocksDB does;
   * the two become RocksDB's estimate-num-keys and estimate-live-data-size.
   */
  statistics: 'exact' | 'estimate';
  /** Managed memory: the slot's shared block cache and write buffer manager. */
  sharedResources: LsmSharedResources | undefined;
}

const MiB = 1024 * 1024;

/** The timer state of keyed operators (engine/operators/event-time-timers.ts, TIMER_STATE). */
export const TIMER_SERVICE_STATE = '_timer_service';

/**
 * RocksDB's and Flink's defaults; level sizes and file sizes follow the write buffer size in
 * RocksDB's proportions (256 MiB level base and 64 MiB files for 64 MiB memtables), so a
 * playground that shrinks the write buffer keeps the tree's shape.
 */
export function lsmOptions(overrides: Partial<LsmOptions> = {}): LsmOptions {
  const writeBufferSizeBytes = overrides.writeBufferSizeBytes ?? 64 * MiB;
  return {
    name: 'db',
    writeBufferSizeBytes,
    writeBufferCount: 2,
    blockSizeBytes: 4 * 1024,
    blockCacheSizeBytes: 8 * MiB,
    level0CompactionTrigger: 4,
    maxBytesForLevelBase: 4 * writeBufferSizeBytes,
    levelSizeMultiplier: 10,
    targetFileSizeBytes: writeBufferSizeBytes,
    numLevels: 7,
    levelCompactionDynamicFileSize: true,
    timerService: 'ROCKSDB',
    timerStates: [TIMER_SERVICE_STATE],
    background: 'inline',
    statistics: 'exact',
    sharedResources: undefined,
    ...overrides,
  };
}

/**
 * Options from the Flink configuration. With managed (or fixed per-slot) memory pass the slot's
 * LsmSharedResources (one per slot, shared by its backends; size it with
 * rocksDbMemoryBudgetPerSlot); without, every column family gets its own write buffers and cache.
 */
export function lsmOptionsFromConfig(
  config: Pick<
    FlinkConfig,
    'rocksdbWriteBufferSizeBytes' | 'rocksdbWriteBufferCount' | 'rocksdbBlockCacheSizeBytes' | 'timerServiceFactory'
  >,
  overrides: Partial<LsmOptions> = {},
): LsmOptions {
  return lsmOptions({
    writeBufferSizeBytes: config.rocksdbWriteBufferSizeBytes,
    writeBufferCount: config.rocksdbWriteBufferCount,
    blockCacheSizeBytes: config.rocksdbBlockCacheSizeBytes,
    timerService: config.timerServiceFactory,
    ...overrides,
  });
}

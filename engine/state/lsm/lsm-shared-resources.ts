import type { FlinkConfig } from '../../config/flink-config.ts';
import { LruBlockCache } from './block-cache.ts';
import { WriteBufferManager } from './write-buffer-manager.ts';

/**
 * One memory budget shared by every LSM backend of a slot, as Flink's RocksDBSharedResources:
 * one block cache and one write buffer manager that charges memtables to that cache. Sized by
 * Flink's RocksDBMemoryControllerUtils:
 *   cache capacity        = (3 − writeBufferRatio) · budget / 3
 *   write buffer capacity = 2 · budget · writeBufferRatio / 3
 * (the write buffer manager may overshoot its capacity by half before it flushes, so memtables
 * can reach budget · ratio, and cache plus memtables stay within the budget).
 */
export class LsmSharedResources {
  readonly blockCache: LruBlockCache;
  readonly writeBufferManager: WriteBufferManager;

  constructor(
    readonly budgetBytes: number,
    readonly writeBufferRatio: number,
  ) {
    if (!(budgetBytes > 0)) throw new Error(`RocksDB memory budget must be positive, got ${budgetBytes}`);
    if (!(writeBufferRatio > 0 && writeBufferRatio < 1)) throw new Error(`write-buffer-ratio must be in (0, 1)`);
    this.blockCache = new LruBlockCache(Math.floor(((3 - writeBufferRatio) * budgetBytes) / 3));
    this.writeBufferManager = new WriteBufferManager(
      Math.floor((2 * budgetBytes * writeBufferRatio) / 3),
      this.blockCache,
    );
  }
}

/**
 * Flink's default total Flink memory for a TaskManager whose size is not configured: the
 * distribution's config sets `taskmanager.memory.process.size: 1728m`, which leaves 1280 MiB of
 * total Flink memory. The playground's FlinkConfig has no process-size option, so this stands in.
 */
export const DEFAULT_TOTAL_FLINK_MEMORY_BYTES = 1280 * 1024 * 1024;

/**
 * The RocksDB memory budget of one slot, or undefined when each column family sizes its own
 * memtables and cache (`state.backend.rocksdb.memory.managed: false`, nothing fixed):
 * `…memory.fixed-per-slot` wins; otherwise managed memory (`taskmanager.memory.managed.size`,
 * else `managed.fraction` × total Flink memory) split evenly across the TaskManager's slots.
 */
export function rocksDbMemoryBudgetPerSlot(
  config: Pick<
    FlinkConfig,
    | 'rocksdbMemoryManaged'
    | 'rocksdbFixedMemoryPerSlotBytes'
    | 'managedMemorySizeBytes'
    | 'managedMemoryFraction'
    | 'numberOfTaskSlots'
  >,
  totalFlinkMemoryBytes = DEFAULT_TOTAL_FLINK_MEMORY_BYTES,
): number | undefined {
  if (config.rocksdbFixedMemoryPerSlotBytes !== undefined) return config.rocksdbFixedMemoryPerSlotBytes;
  if (!config.rocksdbMemoryManaged) return undefined;
  const managed = config.managedMemorySizeBytes ?? Math.floor(config.managedMemoryFraction * totalFlinkMemoryBytes);
  return Math.floor(managed / Math.max(1, config.numberOfTaskSlots));
}

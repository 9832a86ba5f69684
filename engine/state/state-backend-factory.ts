import type { FlinkConfig } from '../config/flink-config.ts';
import { HeapKeyedStateBackend } from './heap-keyed-state-backend.ts';
import type { KeyedStateBackend } from './keyed-state-backend.ts';
import type { KeyGroupRange } from './key-group-range.ts';
import { lsmOptionsFromConfig, type LsmBackgroundMode } from './lsm/lsm-options.ts';
import type { LsmStorageFactory } from './lsm/lsm-storage-factory.ts';
import { LsmSharedResources, rocksDbMemoryBudgetPerSlot } from './lsm/lsm-shared-resources.ts';

export type { LsmStorageFactory } from './lsm/lsm-storage-factory.ts';

/**
 * The keyed state backend `state.backend.type` selects: `hashmap` (heap) or `rocksdb` (the LSM tree
 * on wa-sqlite). There is no quiet fallback: rocksdb without wa-sqlite storage is an error.
 */
export function createKeyedStateBackend(
  config: FlinkConfig,
  range: KeyGroupRange,
  backendName: string,
  lsmStorage: LsmStorageFactory | undefined,
  slotResources?: LsmSharedResources,
): KeyedStateBackend {
  if (config.stateBackend === 'hashmap') return new HeapKeyedStateBackend(range);
  if (!lsmStorage) throw new Error('state.backend.type: rocksdb needs wa-sqlite storage, and this driver was started without it');
  const options = lsmOptionsFromConfig(config, { name: backendName, background: lsmBackgroundMode(config), ...(slotResources ? { sharedResources: slotResources } : {}) });
  return lsmStorage.createBackend(range, backendName, options);
}

/**
 * With `state.backend.rocksdb.memory.managed` (Flink's default) every slot gets one memory budget
 * (its managed memory), shared by all rocksdb backends in the slot and split between memtables
 * and block cache by `memory.write-buffer-ratio`; undefined when each backend sizes its own.
 */
export function slotMemoryResources(config: FlinkConfig): LsmSharedResources | undefined {
  if (config.stateBackend !== 'rocksdb') return undefined;
  const budget = rocksDbMemoryBudgetPerSlot(config);
  return budget === undefined ? undefined : new LsmSharedResources(budget, config.rocksdbWriteBufferRatio);
}

/**
 * Timed flushes (state.backend.rocksdb.thread.num set) leave full memtables to the runtime's
 * RocksDbBackgroundThreads; otherwise they are flushed inline, in the write that filled them.
 */
function lsmBackgroundMode(config: FlinkConfig): LsmBackgroundMode {
  return config.rocksdbFlushesTimed ? 'deferred' : 'inline';
}

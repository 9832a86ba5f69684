import type { KeyGroupRange } from '../key-group-range.ts';
import type { KeyedStateBackend } from '../keyed-state-backend.ts';
import { LsmKeyedStateBackend } from './lsm-keyed-state-backend.ts';
import type { LsmOptions } from './lsm-options.ts';
import type { LsmStorage } from './lsm-storage.ts';

/**
 * What a driver gives its runtime for `state.backend.type: rocksdb`: the storage of each backend
 * (a wa-sqlite database or tables of one) and the LSM tree built on it. The tree's code comes
 * with the storage, where the driver loads wa-sqlite: a page that runs only hashmap jobs (the
 * first page) loads neither.
 */
export interface LsmStorageFactory {
  /** the storage of the backend named `backendName`, its own as a RocksDB instance's directory is */
  open(backendName: string): LsmStorage;
  /** a rocksdb keyed state backend for `range` on the storage `open(backendName)` gives */
  createBackend(range: KeyGroupRange, backendName: string, options: Partial<LsmOptions>): KeyedStateBackend;
}

/** The factory whose backends live on the storage `open` gives. */
export function lsmStorageFactory(open: (backendName: string) => LsmStorage): LsmStorageFactory {
  return { open, createBackend: (range, backendName, options) => new LsmKeyedStateBackend(range, open(backendName), options) };
}

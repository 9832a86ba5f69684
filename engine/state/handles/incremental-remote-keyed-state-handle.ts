import type { SharedFileHandle } from '../../protocol.ts';
import type { KeyGroupRange } from '../key-group-range.ts';

/**
 * Flink's IncrementalRemoteKeyedStateHandle: the keyed state of an incremental (RocksDB-style)
 * snapshot, as private state (the backend's own metadata, here its LSM manifest) and shared
 * files (the SST runs), each uploaded once and referenced by every later checkpoint that keeps it.
 * It is restored as one handle: a local alternative (Flink's IncrementalLocalKeyedStateHandle, the
 * native checkpoint directory) that lacks or fails one run falls back to the remote handle whole.
 */
export interface IncrementalRemoteKeyedStateHandle {
  kind: 'incremental';
  keyGroupRange: KeyGroupRange;
  privateState: unknown;
  sharedState: readonly SharedFileHandle[];
  /** bytes of every file it refers to (state size) */
  stateSize: number;
}

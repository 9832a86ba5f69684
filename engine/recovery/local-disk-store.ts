/**
 * Where a host's local disk persists its task-local copies: an asynchronous key-value store
 * (IndexedDB in the browser, workers/storage/indexeddb-local-disk-store.ts). The copy's snapshot
 * is stored as snapshot-codec bytes beside the checksum it was written with, so a restore that
 * reads it back verifies what is really on the disk.
 */
import type { TaskLocalStateStoreKey } from './host-local-disk.ts';
import type { LocalKeyGroupsHandle } from './local-key-groups-handles.ts';

/** What a stored run's checksum is of, and how: see StoredLocalRun.checksumOf. */
export type LocalRunChecksumKind = 'bytes' | 'xxh64';

/** What a stored copy's checksum is of, and how: see StoredLocalCopy.checksumOf. */
export type LocalCopyChecksumKind = 'bytes' | 'xxh64' | 'sha-256';

/** One task-local copy as stored: `path` is its key (`aid_…/jid_…/vtx_…_sti_…/chk_<id>`). */
export interface StoredLocalCopy {
  path: string;
  key: TaskLocalStateStoreKey;
  checkpointId: number;
  /** bytes the copy takes on the disk (the state size, or what a partial write got to) */
  bytes: number;
  checksum: string;
  /**
   * 'bytes': `checksum` is of `snapshot` as stored (fnv1a32Bytes); 'xxh64': it is the XXH64 of
   * those bytes, which the live TaskManager that wrote it computed and the one that reads it checks
   * (workers/local-copy-digest.ts); 'sha-256': their SHA-256 digest, as live TaskManagers wrote
   * copies before XXH64 (checked the same way); absent: of the decoded snapshot (checksum.ts)
   */
  checksumOf?: LocalCopyChecksumKind;
  complete: boolean;
  /** the snapshot, encoded by encodeTaskStateSnapshot: its shared files as handles, their contents are runs */
  snapshot: Uint8Array;
  /** names of the shared runs the copy references (absent: none) */
  runs?: string[];
  /** the copy's key-group handles once one was lost or damaged (absent: all there, as written) */
  keyGroupHandles?: LocalKeyGroupsHandle[];
}

/** A shared run of a store, kept once for every copy that references it: `path` is its key (`aid_…/…/shared/<name>`). */
export interface StoredLocalRun {
  path: string;
  key: TaskLocalStateStoreKey;
  name: string;
  bytes: number;
  checksum: string;
  /**
   * 'bytes': `checksum` is of `contents` as stored (fnv1a32Bytes); 'xxh64': their XXH64, computed by
   * the live TaskManager that wrote the run and checked by the one that reads it
   * (workers/local-copy-digest.ts); absent: of the decoded contents (checksum.ts)
   */
  checksumOf?: LocalRunChecksumKind;
  /** the run, encoded by encodeSharedFile */
  contents: Uint8Array;
}

/** A TaskLocalStateStore's highest confirmed checkpoint; `directory` is its key. */
export interface StoredConfirmation {
  directory: string;
  key: TaskLocalStateStoreKey;
  lastConfirmed: number;
}

/** What a lost or damaged key-group handle changes in a stored copy (its snapshot stays as stored). */
export interface StoredLocalCopyPatch {
  path: string;
  complete: boolean;
  bytes: number;
  keyGroupHandles: LocalKeyGroupsHandle[];
}

/** Changes applied together, atomically, in this order: clear, delete, put, patch, put runs, confirm. */
export interface LocalDiskBatch {
  /** everything goes first (the host was lost) */
  clear?: boolean;
  /** paths of copies and of runs */
  delete?: string[];
  put?: StoredLocalCopy[];
  /** copies whose handles changed; a path the store does not hold is skipped */
  patch?: StoredLocalCopyPatch[];
  putRuns?: StoredLocalRun[];
  confirm?: StoredConfirmation[];
}

export interface LocalDiskStore {
  /** the database (or directory) holding the disk */
  readonly name: string;
  apply(batch: LocalDiskBatch): Promise<void>;
  read(): Promise<{ copies: StoredLocalCopy[]; confirmations: StoredConfirmation[]; runs?: StoredLocalRun[] }>;
  /** Releases the store; the data stays. */
  close(): Promise<void>;
  /** Releases the store and deletes its data (the host is gone for good). */
  destroy(): Promise<void>;
}

/**
 * Checkpoint storage in memory: the reference implementation of the CheckpointStorage contract
 * and the oracle the IndexedDB implementation is tested against. Every request completes in one
 * synchronous step, so each is atomic; bytes are copied in and out, as a real store would.
 */
import {
  checkBytes,
  checkPath,
  checkQuota,
  exclusiveDirectoryPrefix,
  injectedError,
  lastWriteWins,
  usageAfterWrite,
  type CheckpointFile,
  type CheckpointLocation,
  type CheckpointStorage,
  type CheckpointStorageOptions,
  type FaultInjector,
  type StorageError,
  type StoredFile,
  type StorageUsage,
} from './checkpoint-storage.ts';
import { normalizeDirectory } from './checkpoint-layout.ts';

export class MemoryCheckpointStorage implements CheckpointStorage {
  readonly location: CheckpointLocation;
  readonly #files = new Map<string, Uint8Array>();
  readonly #injectFault: FaultInjector | undefined;
  #quotaBytes: number;
  #closed = false;

  constructor(options: CheckpointStorageOptions) {
    this.location = { ...options.location };
    normalizeDirectory(this.location.checkpointDir);
    this.#quotaBytes = options.quotaBytes ?? Infinity;
    checkQuota(this.#quotaBytes);
    this.#injectFault = options.injectFault;
  }

  get quotaBytes(): number {
    return this.#quotaBytes;
  }

  set quotaBytes(bytes: number) {
    checkQuota(bytes);
    this.#quotaBytes = bytes;
  }

  async writeFile(path: string, bytes: Uint8Array): Promise<StorageError | undefined> {
    return this.#write([{ path, bytes }]);
  }

  async readFile(path: string): Promise<Uint8Array | undefined> {
    this.#open();
    checkPath(path);
    return this.#files.get(path)?.slice();
  }

  async deleteFile(path: string): Promise<StorageError | undefined> {
    this.#open();
    checkPath(path);
    return this.#delete([path]);
  }

  async list(prefix: string): Promise<StoredFile[]> {
    this.#open();
    const out: StoredFile[] = [];
    for (const [path, bytes] of this.#files) if (path.startsWith(prefix)) out.push({ path, sizeBytes: bytes.byteLength });
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async writeCheckpoint(_checkpointId: number, files: readonly CheckpointFile[]): Promise<StorageError | undefined> {
    return this.#write(files);
  }

  async discardCheckpoint(checkpointId: number): Promise<StorageError | undefined> {
    this.#open();
    const prefix = exclusiveDirectoryPrefix(this.location, checkpointId);
    return this.#delete([...this.#files.keys()].filter((p) => p.startsWith(prefix)));
  }

  async usage(): Promise<StorageUsage> {
    this.#open();
    return this.#usage();
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #usage(): StorageUsage {
    let bytes = 0;
    for (const b of this.#files.values()) bytes += b.byteLength;
    return { fileCount: this.#files.size, bytes };
  }

  #write(files: readonly CheckpointFile[]): StorageError | undefined {
    this.#open();
    for (const f of files) {
      checkPath(f.path);
      checkBytes(f.bytes);
    }
    for (const f of files) {
      const fault = this.#injectFault?.({ op: 'write', path: f.path });
      if (fault !== undefined) return injectedError(f.path, fault);
    }
    const sizes = lastWriteWins(files);
    const old = new Map([...sizes.keys()].map((p) => [p, this.#files.get(p)?.byteLength]));
    const after = usageAfterWrite(this.#usage(), sizes, old, this.#quotaBytes, normalizeDirectory(this.location.checkpointDir));
    if ('reason' in after) return after;
    for (const f of files) this.#files.set(f.path, f.bytes.slice());
    return undefined;
  }

  #delete(paths: readonly string[]): StorageError | undefined {
    for (const path of paths) {
      const fault = this.#injectFault?.({ op: 'delete', path });
      if (fault !== undefined) return injectedError(path, fault, 'delete');
    }
    for (const path of paths) this.#files.delete(path);
    return undefined;
  }

  #open(): void {
    if (this.#closed) throw new Error('the checkpoint storage is closed');
  }
}

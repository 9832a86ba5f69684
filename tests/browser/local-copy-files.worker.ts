/**
 * A worker of local-copy-files.test.ts: reads a copy as a TaskManager does, through a store opened
 * without `files` (a reader), where OPFS gives a synchronous access handle.
 */
import { IndexedDbLocalDiskStore } from '../../workers/storage/indexeddb-local-disk-store.ts';

export interface ReadInWorker {
  found: boolean;
  byteLength: number;
  sum: number;
  syncAccessHandles: boolean;
}

self.onmessage = async (event: MessageEvent<{ name: string; path: string }>) => {
  const store = new IndexedDbLocalDiskStore(event.data.name);
  const read = await store.readCopy(event.data.path);
  await store.close();
  const snapshot = read?.copy.snapshot ?? new Uint8Array();
  const result: ReadInWorker = {
    found: read !== undefined,
    byteLength: snapshot.byteLength,
    sum: snapshot.reduce((n, b) => n + b, 0),
    syncAccessHandles: typeof FileSystemFileHandle !== 'undefined' && typeof FileSystemFileHandle.prototype.createSyncAccessHandle === 'function',
  };
  self.postMessage(result);
};

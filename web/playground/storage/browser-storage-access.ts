/**
 * Whether the browser lets this page keep data: IndexedDB is the live runtime's checkpoint storage
 * (Flink's DFS) and the sim's mirror of it. A browser may deny it: Chromium and Safari deny
 * storage to a third-party iframe (a docs page on another site embedding the playground) as they
 * block third-party cookies; `indexedDB.open` then fails with "The user denied permission to
 * access the database". The page asks once, by opening a small database of its own, so that it
 * can say so before a run fails on it.
 */

/** The database the probe opens; it holds nothing, and the run-storage sweep leaves it alone. */
export const STORAGE_PROBE_DATABASE = 'checkpoint-playground/storage-probe';

export type BrowserStorageAccess = { granted: true } | { granted: false; reason: string };

let probing: Promise<BrowserStorageAccess> | undefined;

/** The browser's answer, asked once per page. */
export function browserStorageAccess(): Promise<BrowserStorageAccess> {
  probing ??= probe();
  return probing;
}

function probe(): Promise<BrowserStorageAccess> {
  if (typeof indexedDB === 'undefined') return Promise.resolve({ granted: false, reason: 'this browser has no IndexedDB' });
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      // An opaque origin (a sandboxed iframe) throws here instead of failing the request.
      request = indexedDB.open(STORAGE_PROBE_DATABASE);
    } catch (error) {
      resolve({ granted: false, reason: describe(error) });
      return;
    }
    request.onsuccess = () => {
      request.result.close();
      resolve({ granted: true });
    };
    request.onerror = (event) => {
      // Handled here: without preventDefault the failed request also reaches window.onerror.
      event.preventDefault();
      resolve({ granted: false, reason: describe(request.error) });
    };
  });
}

function describe(error: unknown): string {
  if (error instanceof DOMException) return `${error.name}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

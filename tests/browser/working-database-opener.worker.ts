/**
 * A worker of live-rocksdb-local-dir.test.ts: opens rocksdb working databases as a TaskManager
 * process does (workers/task-manager-lsm-storage.ts) in a TaskManager directory that already holds
 * a predecessor's database, its files still locked (a killed worker's, not yet released), and a
 * leftover under this process's own incarnation (an earlier page's), and reports what it found.
 */
import { listOpfsFiles, openOpfsDirectory } from '../../workers/storage/rocksdb-local-dir.ts';
import { openTaskManagerLsmStorage } from '../../workers/task-manager-lsm-storage.ts';

export interface OpenerOutcome {
  /** the first open resolved while the predecessor's file was still locked */
  openedWhilePredecessorLocked: boolean;
  /** the earlier page's file was still in the own incarnation once the first database was open */
  earlierPageFileAtOpen: boolean;
  /** the first database's directory holds its files */
  openHasFiles: boolean;
  /** an attempt's directory reopened by a retried deployment: what of the earlier try is left */
  retriedLeftovers: string[];
  /** the predecessor's incarnation once its lock was released */
  predecessorGone: boolean;
}

async function writeFile(path: string, name: string): Promise<void> {
  const dir = (await openOpfsDirectory(path, true))!;
  const writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
  await writable.write(new Uint8Array([1, 2, 3]));
  await writable.close();
}

async function until(condition: () => Promise<boolean>): Promise<boolean> {
  for (let delay = 5; delay < 20_000; delay *= 2) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  return condition();
}

self.onmessage = async (event: MessageEvent<string>) => {
  const tmDir = event.data;
  // The predecessor (incarnation 1) holds its database file; an earlier page left attempt-0 of incarnation 2.
  await writeFile(`${tmDir}/incarnation-1/attempt-0`, 'rocksdb.db');
  const held = await (await (await openOpfsDirectory(`${tmDir}/incarnation-1/attempt-0`))!.getFileHandle('rocksdb.db')).createSyncAccessHandle();
  await writeFile(`${tmDir}/incarnation-2/attempt-0`, 'leftover-of-an-earlier-page');

  const open = openTaskManagerLsmStorage({ taskManagerDir: tmDir, incarnation: 2 });
  let opened = false;
  const opening = open(0).then((db) => ((opened = true), db));
  // The predecessor's removal waits up to 10 s for the lock: an open waiting for it would still be waiting at 8 s, and is let go then.
  await Promise.race([opening, new Promise((resolve) => setTimeout(resolve, 8_000))]);
  const openedWhilePredecessorLocked = opened;
  if (!opened) held.close();
  const first = await opening;
  const own = (await listOpfsFiles(`${tmDir}/incarnation-2`)).map((f) => f.path);
  const earlierPageFileAtOpen = own.includes('attempt-0/leftover-of-an-earlier-page');
  const openHasFiles = own.some((f) => f.startsWith('attempt-0/'));
  await first.dispose();

  // A retried deployment of attempt 1: its first try's directory kept a file (its removal cut short).
  await (await open(1)).dispose();
  await writeFile(`${tmDir}/incarnation-2/attempt-1`, 'of-the-first-try');
  const retried = await open(1);
  const retriedLeftovers = (await listOpfsFiles(`${tmDir}/incarnation-2/attempt-1`)).map((f) => f.path).filter((p) => p === 'of-the-first-try');
  await retried.dispose();

  if (openedWhilePredecessorLocked) held.close();
  const predecessorGone = await until(async () => (await openOpfsDirectory(`${tmDir}/incarnation-1`)) === undefined);
  const outcome: OpenerOutcome = { openedWhilePredecessorLocked, earlierPageFileAtOpen, openHasFiles, retriedLeftovers, predecessorGone };
  self.postMessage(outcome);
};

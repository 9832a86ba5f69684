/**
 * `state.backend.rocksdb.localdir` in the live runtime, in real Chromium: each TaskManager worker
 * keeps its rocksdb working database (the wa-sqlite LSM tree) in an OPFS directory of its host,
 * `<checkpoint database>/hosts/<host>/<tm>/incarnation-<n>/attempt-<a>/`, like RocksDB's instance
 * directories on a TaskManager's local disk: a replacement process deletes its killed
 * predecessor's (not waiting for it), a lost host takes its directory with it, cancelling
 * deletes the attempt's instance directories and disposing the cluster deletes the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type BrowserSession } from './browser-session.ts';
import { closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, liveStatus, openLiveTestPage, startLive, waitForLive } from './live-test-page.ts';

function rocksdbScenario(name: string, count: number): object {
  const base = keyedCounts({
    name,
    count,
    rate: 1500,
    config: { 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true, 'execution.checkpointing.num-retained': 2 },
  }) as { job: { vertices: Array<{ id: string; source?: object }> } };
  // Many keys: the state grows over the run, so the working databases do.
  const vertices = base.job.vertices.map((v) => (v.id === 'source' ? { ...v, source: { kind: 'random', keys: 20_000, skew: 0.6, rate_per_s: 1500, count } } : v));
  return { ...base, job: { ...base.job, vertices } };
}

interface WorkingDb {
  host: string;
  taskManager: string;
  path: string;
  bytes: number;
}

/** What the live driver reports for each host's disk: its TaskManagers' rocksdb working databases. */
function workingDbs(session: BrowserSession): Promise<WorkingDb[]> {
  return session.page.evaluate(() => window.liveDriver!.localDisks().flatMap((d) => (d.rocksdbWorkingDbs ?? []).map((w) => ({ host: d.host, ...w }))));
}

function databaseName(session: BrowserSession): Promise<string> {
  return session.page.evaluate(() => window.liveDriver!.checkpointStorageSpec.databaseName);
}

function opfsFiles(session: BrowserSession, path: string): Promise<Array<{ path: string; bytes: number }>> {
  return session.page.evaluate((p) => window.liveTest!.opfsFiles(p), path);
}

/** Waits until every TaskManager of the running attempt reported its working database. */
async function waitForWorkingDbs(session: BrowserSession, count: number, predicate = 'true'): Promise<WorkingDb[]> {
  await session.page.waitForFunction(
    ([n, p]) => {
      const dbs = window.liveDriver!.localDisks().flatMap((d) => d.rocksdbWorkingDbs ?? []);
      return dbs.length === n && new Function('dbs', `return ${p}`)(dbs);
    },
    [count, predicate] as const,
    { timeout: 60_000, polling: 50 },
  );
  return workingDbs(session);
}

function opfsDirectoryExists(session: BrowserSession, path: string): Promise<boolean> {
  return session.page.evaluate(async (p) => {
    let dir = await navigator.storage.getDirectory();
    for (const name of p.split('/')) {
      try {
        dir = await dir.getDirectoryHandle(name);
      } catch {
        return false;
      }
    }
    return true;
  }, path);
}

/** Waits until `path` in OPFS holds no file (a deletion retried while Chromium releases a dead worker's handles). */
async function waitForNoFiles(session: BrowserSession, path: string): Promise<void> {
  await session.page.waitForFunction((p) => window.liveTest!.opfsFiles(p).then((files) => files.length === 0), path, { timeout: 30_000, polling: 100 });
}

describe('state.backend.rocksdb.localdir: the TaskManagers\' working databases on their hosts\' disks (OPFS)', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('keeps each TaskManager\'s working database in OPFS under its host\'s directory, growing with its state, with the failure-free output', async () => {
    await startLive(session, rocksdbScenario('Live rocksdb local dir', 24_000));
    const db = await databaseName(session);
    const early = await waitForWorkingDbs(session, 4);
    await waitForLive(session, `s.completedCheckpoints >= 2 || s.jobStatus !== 'RUNNING'`, 60_000);
    const taskManagers = (await liveStatus(session)).taskManagers;
    // Started from the rocksdb entry: the working database's modules load with the process, not inside its first deployment.
    const entries = session.page.workers().map((w) => w.url()).filter((url) => url.includes('task-manager.worker'));
    expect(entries.map((url) => url.includes('/rocksdb.task-manager.worker')), entries.join(', ')).toEqual(taskManagers.map(() => true));
    for (const tm of taskManagers) {
      const reported = early.find((w) => w.taskManager === tm.id)!;
      expect(reported.path).toMatch(new RegExp(`^${db}/hosts/${tm.host}/${tm.id}/incarnation-\\d+/attempt-0$`));
      const files = await opfsFiles(session, reported.path);
      // The pool VFS's files, one of them the database (SQLite page size 16 KiB, behind a 4 KiB header).
      expect(files.length, JSON.stringify(files)).toBeGreaterThan(0);
      expect(Math.max(...files.map((f) => f.bytes)), JSON.stringify(files)).toBeGreaterThan(16 * 1024);
    }
    const mid = await workingDbs(session);
    const midHostBytes = await opfsFiles(session, `${db}/hosts`).then((files) => files.reduce((n, f) => n + f.bytes, 0));
    const later = await waitForLive(session, `s.completedCheckpoints >= 10 || s.jobStatus !== 'RUNNING'`, 60_000);
    expect(later.jobStatus).toBe('RUNNING');
    // Every count subtask's state grew (new keys go on arriving): so did its database, on the disk too.
    const late = await waitForWorkingDbs(session, 4, `dbs.every((w) => w.bytes > 0)`);
    const lateHostBytes = await opfsFiles(session, `${db}/hosts`).then((files) => files.reduce((n, f) => n + f.bytes, 0));
    const sizes = JSON.stringify({ mid, late, midHostBytes, lateHostBytes });
    for (const w of late) expect(w.bytes, sizes).toBeGreaterThan(mid.find((m) => m.taskManager === w.taskManager)!.bytes);
    expect(lateHostBytes, sizes).toBeGreaterThan(midHostBytes);

    await waitForLive(session, `s.jobStatus === 'FINISHED'`, 90_000);
    const output = await compareLiveWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(output.liveRecords).toBe(output.simRecords);
    expect(session.errors).toEqual([]);
  }, 180_000);

  it('gives a killed TaskManager\'s replacement a fresh working database, deletes its predecessor\'s, and restores exactly-once', async () => {
    await startLive(session, rocksdbScenario('Live rocksdb kill', 16_000));
    const db = await databaseName(session);
    await waitForLive(session, `s.completedCheckpoints >= 3 || s.jobStatus !== 'RUNNING'`, 60_000);
    const before = (await waitForWorkingDbs(session, 4)).find((w) => w.taskManager === 'tm-1')!;
    const tmDir = `${db}/hosts/${before.host}/tm-1`;
    expect((await opfsFiles(session, before.path)).length).toBeGreaterThan(0);
    expect(await session.page.evaluate(() => window.liveDriver!.killTaskManager('tm-1'))).toBeUndefined();
    // The replacement (same id, same host, a new process) deployed the restored attempt.
    const after = (await waitForWorkingDbs(session, 4, `window.liveDriver.attempt >= 1 && dbs.every((w) => w.path.endsWith('/attempt-' + window.liveDriver.attempt))`)).find((w) => w.taskManager === 'tm-1')!;
    const paths = JSON.stringify({ before: before.path, after: after.path });
    expect(after.path.startsWith(`${tmDir}/incarnation-`), paths).toBe(true);
    expect(after.path.split('/').at(-2), paths).not.toBe(before.path.split('/').at(-2));
    // Only the replacement's incarnation is left in the TaskManager's directory.
    const left = await opfsFiles(session, tmDir);
    const incarnations = new Set(left.map((f) => f.path.split('/')[0]));
    expect([...incarnations], JSON.stringify(left)).toEqual([after.path.split('/').at(-2)]);
    expect(await opfsFiles(session, before.path)).toEqual([]);

    const finished = await waitForLive(session, `s.jobStatus === 'FINISHED'`, 90_000);
    expect(finished.restarts).toBe(1);
    const restores = eventsOfType(finished.events, 'restore');
    expect(restores).toHaveLength(1);
    expect(restores[0]!.restore.subtasks.filter((s) => s.vertexId === 'count' && s.bytes > 0)).toHaveLength(4);
    const output = await compareLiveWithSim(session);
    expect(output).toMatchObject({ liveStatus: 'FINISHED', simStatus: 'FINISHED', duplicates: 0, missing: 0, differingKeys: [] });
    expect(session.errors).toEqual([]);
  }, 180_000);

  it('waits for a worker holding a working database open to be terminated, then deletes its directory', async () => {
    const outcome = await session.page.evaluate(async (moduleUrl) => {
      const path = 'release-probe/hosts/host-0/tm-0/incarnation-1';
      // Through Function: vitest's transform would rewrite a plain import() in this callback.
      const importInPage = new Function('url', 'return import(url)') as (url: string) => Promise<typeof import('../../workers/storage/rocksdb-local-dir.ts')>;
      const { openOpfsDirectory, removeOpfsDirectory } = await importInPage(moduleUrl);
      // A TaskManager stand-in: it holds the file through a sync access handle until it is terminated.
      const source = `onmessage = async (e) => {
        let dir = await navigator.storage.getDirectory();
        for (const name of e.data.split('/')) dir = await dir.getDirectoryHandle(name, { create: true });
        const file = await dir.getFileHandle('rocksdb.db', { create: true });
        const handle = await file.createSyncAccessHandle();
        handle.write(new Uint8Array(65536), { at: 0 });
        handle.flush();
        postMessage('open');
      };`;
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      await new Promise<void>((resolve) => {
        worker.onmessage = () => resolve();
        worker.postMessage(path);
      });
      // Every refused attempt to remove the probe's directory is counted: the removal has retried once two were refused.
      const removeEntry = FileSystemDirectoryHandle.prototype.removeEntry;
      let retried!: () => void;
      const twoRefused = new Promise<void>((resolve) => (retried = resolve));
      let refused = 0;
      FileSystemDirectoryHandle.prototype.removeEntry = async function (this: FileSystemDirectoryHandle, ...args: Parameters<typeof removeEntry>) {
        try {
          return await removeEntry.apply(this, args);
        } catch (error) {
          if (args[0] === 'release-probe' && ++refused === 2) retried();
          throw error;
        }
      };
      let settled = false;
      const removal = removeOpfsDirectory('release-probe').finally(() => (settled = true));
      await Promise.race([twoRefused, removal.catch(() => undefined)]);
      const settledWhileHeld = settled;
      worker.terminate();
      await removal;
      FileSystemDirectoryHandle.prototype.removeEntry = removeEntry;
      return { settledWhileHeld, left: (await openOpfsDirectory('release-probe')) !== undefined };
    }, `/@fs${REPO_ROOT}/workers/storage/rocksdb-local-dir.ts`);
    // The locked file made the removal retry rather than fail; once the handle was released it went through.
    expect(outcome).toEqual({ settledWhileHeld: false, left: false });
  });

  it('opens a TaskManager process\'s working database without waiting for a killed predecessor\'s files, from an emptied incarnation directory, and a retried attempt from an empty one', async () => {
    const outcome = await session.page.evaluate(async (workerUrl) => {
      const worker = new Worker(workerUrl, { type: 'module' });
      try {
        return await new Promise((resolve, reject) => {
          worker.onmessage = (event) => resolve(event.data);
          worker.onerror = (event) => reject(new Error(event.message || 'the opener worker failed'));
          worker.postMessage('opener-probe/hosts/host-0/tm-0');
        });
      } finally {
        worker.terminate();
        await (await navigator.storage.getDirectory()).removeEntry('opener-probe', { recursive: true }).catch(() => undefined);
      }
    }, `/@fs${REPO_ROOT}/tests/browser/working-database-opener.worker.ts`);
    expect(outcome).toEqual({ openedWhilePredecessorLocked: true, earlierPageFileAtOpen: false, openHasFiles: true, retriedLeftovers: [], predecessorGone: true });
  });

  it('removes an emptied parent whose removal first meets a sibling removal\'s passing lock, and leaves one whose lock stays', async () => {
    const outcome = await session.page.evaluate(async (moduleUrl) => {
      const importInPage = new Function('url', 'return import(url)') as (url: string) => Promise<typeof import('../../workers/storage/rocksdb-local-dir.ts')>;
      const { openOpfsDirectory, removeOpfsDirectoryAndEmptyParents } = await importInPage(moduleUrl);
      const removeEntry = FileSystemDirectoryHandle.prototype.removeEntry;
      // Chromium refuses a removal while a concurrent one under the same parent holds its lock: `locked` such refusals of `run`.
      const climb = async (locked: number) => {
        await openOpfsDirectory('climb-probe/run/hosts/host-0', true);
        let refused = 0;
        FileSystemDirectoryHandle.prototype.removeEntry = async function (this: FileSystemDirectoryHandle, ...args: Parameters<typeof removeEntry>) {
          if (args[0] === 'run' && refused < locked) {
            refused++;
            throw new DOMException('A concurrent removal holds the lock', 'NoModificationAllowedError');
          }
          return removeEntry.apply(this, args);
        };
        try {
          await removeOpfsDirectoryAndEmptyParents('climb-probe/run/hosts', 2);
        } finally {
          FileSystemDirectoryHandle.prototype.removeEntry = removeEntry;
        }
        return { refused, runLeft: (await openOpfsDirectory('climb-probe/run')) !== undefined, probeLeft: (await openOpfsDirectory('climb-probe')) !== undefined };
      };
      const passing = await climb(2);
      const staying = await climb(Number.MAX_SAFE_INTEGER);
      await (await navigator.storage.getDirectory()).removeEntry('climb-probe', { recursive: true });
      return { passing, staying: { runLeft: staying.runLeft, probeLeft: staying.probeLeft } };
    }, `/@fs${REPO_ROOT}/workers/storage/rocksdb-local-dir.ts`);
    expect(outcome).toEqual({ passing: { refused: 2, runLeft: false, probeLeft: false }, staying: { runLeft: true, probeLeft: true } });
  });

  it('deletes a lost host\'s whole directory, and on cancel and dispose leaves no working database behind', async () => {
    await startLive(session, rocksdbScenario('Live rocksdb lose host', 200_000));
    const db = await databaseName(session);
    await waitForLive(session, `s.completedCheckpoints >= 2 || s.jobStatus !== 'RUNNING'`, 60_000);
    await waitForWorkingDbs(session, 4);
    expect((await opfsFiles(session, `${db}/hosts/host-0`)).length).toBeGreaterThan(0);
    expect(await session.page.evaluate(() => window.liveDriver!.loseHost('host-0'))).toBeUndefined();
    await session.page.evaluate(() => window.liveDriver!.localDirsDeleted());
    expect(await opfsDirectoryExists(session, `${db}/hosts/host-0`)).toBe(false);
    expect(await opfsDirectoryExists(session, `${db}/hosts/host-1`)).toBe(true);
    // The job goes on with its TaskManagers on host-1: their working databases are there.
    const moved = await waitForWorkingDbs(session, 4, `window.liveDriver.attempt >= 1 && dbs.every((w) => w.path.endsWith('/attempt-' + window.liveDriver.attempt))`);
    expect(moved.every((w) => w.host === 'host-1' && w.path.startsWith(`${db}/hosts/host-1/`)), JSON.stringify(moved)).toBe(true);
    expect((await liveStatus(session)).jobStatus).toBe('RUNNING');

    // Cancelling disposes every attempt's instance directory (the processes stay up until dispose).
    expect(await session.page.evaluate(() => window.liveDriver!.cancel())).toBeUndefined();
    await waitForNoFiles(session, `${db}/hosts`);
    await session.page.evaluate(() => {
      const driver = window.liveDriver!;
      window.liveTest!.dispose();
      return driver.localDirsDeleted();
    });
    // Nothing of the run is left in OPFS, not even its empty directories.
    expect(await opfsDirectoryExists(session, db.split('/').slice(0, 2).join('/'))).toBe(false);
    expect(session.errors).toEqual([]);
  }, 180_000);
});

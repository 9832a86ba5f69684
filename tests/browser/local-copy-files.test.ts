/**
 * The host disk's large task-local copies in OPFS files (workers/storage/local-copy-files.ts), in
 * real Chromium: the writer keeps a snapshot (or a shared run) over 64 KiB in a file of the host's
 * directory and a smaller one in the database; every read gives the bytes back (a worker's through a synchronous
 * access handle); a file goes once no record names it (rewritten, deleted, cleared, an aborted
 * batch's, a crash's leftover at the next open); a copy whose file is gone is not on the disk; the
 * disk's destroy takes its directory with it. And a live job whose keyed subtasks hold over 64 KiB
 * each restores them after a kill from those files, exactly once.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type BrowserSession } from './browser-session.ts';
import { closeLiveTestPage, compareLiveWithSim, eventsOfType, keyedCounts, openLiveTestPage, playRestFast, startLive, waitForLive } from './live-test-page.ts';
import { keyedCountsJob } from './scenarios.ts';
import type * as InPage from './local-copy-files-in-page.ts';

/** Keyed counts of 40,000 keys over four subtasks: each subtask's copy is over 64 KiB, so it is a file. */
const LARGE_STATE = {
  ...(keyedCounts({ name: 'Live local copies in OPFS files', config: { 'execution.checkpointing.local-backup.enabled': true } }) as object),
  job: keyedCountsJob({ keys: 40_000, rate: 20_000, count: 80_000 }),
};

const PAGE_MODULE = join(REPO_ROOT, 'tests', 'browser', 'local-copy-files-in-page.ts');

type Exports = typeof InPage;

async function inPage<K extends keyof Exports>(session: BrowserSession, name: K): Promise<Awaited<ReturnType<Exports[K]>>> {
  const url = `/@fs${PAGE_MODULE}`;
  return (await session.page.evaluate(`import(${JSON.stringify(url)}).then((m) => m[${JSON.stringify(name)}]())`)) as Awaited<ReturnType<Exports[K]>>;
}

describe('task-local copies in the host disk OPFS directory', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('keeps a snapshot over 64 KiB in a file and reads it back byte for byte, in the page and in a worker', async () => {
    const result = await inPage(session, 'writeAndRead');
    expect(result).toMatchObject({ large: 'file', small: 'bytes', fileHoldsSnapshot: true, readCopy: true, read: true });
    expect(result.files).toHaveLength(1);
    expect(result.inWorker).toEqual({ found: true, byteLength: 64 * 1024 + 1, sum: result.expectedSum, syncAccessHandles: true });
  });

  it('keeps a shared run over 64 KiB in a file, reads it with its copy, removes it with the run, and drops a run whose file is gone', async () => {
    expect(await inPage(session, 'runsInFiles')).toEqual({ large: 'file', small: 'bytes', readCopy: true, read: true, filesAfterDelete: 1, readAfterFileGone: ['b.sst'] });
  });

  it('removes a file once no record names it: rewritten, deleted, or cleared with the disk', async () => {
    expect(await inPage(session, 'filesThroughChanges')).toEqual({ steps: [1, 1, 2, 1, 1], replacedGone: true, clearedKeepsNew: true });
  });

  it('removes the file of a batch whose transaction aborted, and names none', async () => {
    expect(await inPage(session, 'abortedBatch')).toEqual({ error: 'AbortError', held: 'absent', files: 0 });
  });

  it('sweeps a file no record names when the writer opens the disk again, and keeps the named ones', async () => {
    expect(await inPage(session, 'sweptAtOpen')).toEqual({ before: 2, after: 1, readsBack: true });
  });

  it('reads a copy whose file is gone as not on the disk', async () => {
    expect(await inPage(session, 'fileGone')).toEqual({ readCopy: 'undefined', listed: 0 });
  });

  it('lets a store opened without files replace a file-backed copy, removing the file', async () => {
    expect(await inPage(session, 'replacedByReader')).toEqual({ held: 'blob', files: 0, readsBack: true });
  });

  it('deletes the disk directory and its emptied parents with the disk', async () => {
    expect(await inPage(session, 'destroyed')).toEqual({ before: true, dir: false, top: false });
    expect(session.errors).toEqual([]);
  });

  it('restores a live job\'s large keyed subtasks after a kill from the files on their hosts\' disks, exactly once, and leaves no file', async () => {
    await startLive(session, LARGE_STATE);
    // A hashmap job's TaskManagers start from the default entry: no wa-sqlite in them.
    const entries = session.page.workers().map((w) => w.url()).filter((url) => url.includes('task-manager.worker'));
    expect(entries.length, entries.join(', ')).toBeGreaterThan(0);
    expect(entries.filter((url) => url.includes('rocksdb.task-manager.worker')), entries.join(', ')).toEqual([]);
    // every key counted once (2 s of input) and checkpointed after (every 400 ms)
    await waitForLive(session, 's.latestCheckpointId !== null && s.latestCheckpointId >= 7', 120_000);
    const database = await session.page.evaluate(() => window.liveDriver!.checkpointStorageSpec.databaseName);
    const files = await session.page.evaluate((db) => window.liveTest!.opfsFiles(`${db}/local-disk`), database);
    // count's copies on each host (sink and source copies are small: in the database)
    expect(files.filter((f) => f.path.includes('vtx_count_sti_') && f.bytes > 64 * 1024).map((f) => f.path.split('/')[0]).sort()).toEqual(expect.arrayContaining(['host-0', 'host-0', 'host-1', 'host-1']));

    expect(await session.page.evaluate(() => window.liveDriver!.killTaskManager('tm-1'))).toBeUndefined();
    const restored = await waitForLive(session, `s.events.some((e) => e.type === 'restore') && s.jobStatus === 'RUNNING'`, 120_000);
    const restore = eventsOfType(restored.events, 'restore')[0]!.restore;
    const keyed = restore.subtasks.filter((t) => t.vertexId === 'count');
    expect(keyed.map((t) => [t.subtaskIndex, t.source])).toEqual([[0, 'local'], [1, 'local'], [2, 'local'], [3, 'local']]);
    expect(keyed.every((t) => t.bytes > 64 * 1024)).toBe(true);

    await playRestFast(session);
    await waitForLive(session, `s.jobStatus === 'FINISHED'`, 120_000);
    expect(await compareLiveWithSim(session)).toMatchObject({ duplicates: 0, missing: 0, differingKeys: [] });
    // once the run let go of its storage (the hosts' disks deleted)
    expect(await session.page.evaluate(() => (window.liveTest!.dispose(), window.liveTest!.disposed()))).toEqual([]);
    expect((await session.page.evaluate((db) => window.liveTest!.storageLeft(db), database)).opfsFiles).toEqual([]);
    expect(session.errors).toEqual([]);
  }, 300_000);
});

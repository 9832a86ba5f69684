/**
 * Each host's local disk in the live runtime is an IndexedDB database in Chromium: a worker
 * terminated by a kill leaves its task-local copies in its host's database, and the restore reads
 * them back from there (a copy damaged in the database, not in memory, makes that subtask fall
 * back to remote with reason `corrupt` while the others restore locally); losing the host empties
 * its database. With incremental rocksdb checkpoints a copy holds every SST run its checkpoint
 * references (each run stored once per subtask), so a local restore reads no state of its subtask
 * from remote storage, the runs reused from earlier checkpoints included.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobEvent, RestoreRecord } from '../../engine/run/job-events.ts';
import type { LiveTestStatus } from '../../web/live/live-test.ts';
import { REPO_ROOT, type BrowserSession } from './browser-session.ts';
import type { CopyOnDisk, RunOnDisk } from './live-local-disk-in-page.ts';
import { closeLiveTestPage, openLiveTestPage, playRestFast } from './live-test-page.ts';

const PAGE_MODULE = join(REPO_ROOT, 'tests', 'browser', 'live-local-disk-in-page.ts');

/** Keyed counts with task-local recovery, parallelism 4 on four single-slot TaskManagers over two hosts (tm-0, tm-1 on host-0). */
const SCENARIO = {
  version: 1,
  name: 'Live local disks',
  seed: 5,
  job: {
    vertices: [
      { id: 'source', type: 'source', source: { kind: 'sequence', keys: 400, rate_per_s: 2000, count: 40000 } },
      { id: 'count', type: 'keyed-aggregate', aggregate: 'count' },
      { id: 'sink', type: 'sink', sink: 'two-phase-commit' },
    ],
    edges: [
      { from: 'source', to: 'count', partitioning: 'hash' },
      { from: 'count', to: 'sink', partitioning: 'forward' },
    ],
  },
  config: {
    'parallelism.default': 4,
    'execution.checkpointing.interval': '500 ms',
    'execution.checkpointing.local-backup.enabled': true,
    'execution.state-recovery.from-local': true,
    // Every subtask's state in a file of its own (Flink's default 20 kb would put these small
    // states inside `_metadata`), so the files each restore reads remotely can be told apart.
    'execution.checkpointing.data-inline-threshold': 0,
    'heartbeat.interval': '2 s',
    'heartbeat.timeout': '20 s',
    'restart-strategy.type': 'fixed-delay',
    'restart-strategy.fixed-delay.attempts': 5,
    'restart-strategy.fixed-delay.delay': '200 ms',
  },
  cluster: { hosts: 2, task_managers_per_host: 2, slots_per_task_manager: 1 },
};

async function inPage<T>(session: BrowserSession, name: string, ...args: unknown[]): Promise<T> {
  const url = `/@fs${PAGE_MODULE}`;
  return (await session.page.evaluate(`import(${JSON.stringify(url)}).then((m) => m[${JSON.stringify(name)}](...${JSON.stringify(args)}))`)) as T;
}

async function waitForStatus(session: BrowserSession, predicate: string, timeout = 60_000): Promise<LiveTestStatus> {
  await session.page.waitForFunction(`(() => { const s = window.liveTest.status(); return ${predicate}; })()`, null, { timeout, polling: 20 });
  return session.page.evaluate(() => window.liveTest!.status());
}

function restores(events: JobEvent[]): RestoreRecord[] {
  return events.flatMap((e) => (e.type === 'restore' ? [e.restore] : []));
}

function sourceOf(record: RestoreRecord, vertexId: string, subtaskIndex: number) {
  const s = record.subtasks.find((x) => x.vertexId === vertexId && x.subtaskIndex === subtaskIndex)!;
  return { source: s.source, ...('reason' in s && s.reason ? { reason: s.reason } : {}) };
}

describe('live runtime: each host local disk is an IndexedDB database', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openLiveTestPage();
  });

  afterAll(async () => {
    await closeLiveTestPage(session);
  });

  it('keeps a killed worker’s copies in its host database and restores from them; a lost host’s database is empty', async () => {
    await session.page.evaluate(([s, o]) => window.liveTest!.start(s, o).then(() => undefined), [SCENARIO, { heartbeatScale: 1 / 20 }] as const);
    await waitForStatus(session, `s.latestCheckpointId !== null && s.latestCheckpointId >= 2`);
    // The page module loaded before the kill: damaging the copy must not wait for Vite while the restart's 200 ms delay runs.
    await inPage<CopyOnDisk[]>(session, 'copiesOnDisk', 'host-0');

    expect(await session.page.evaluate(() => window.liveDriver!.killTaskManager('tm-1'))).toBeUndefined();
    await waitForStatus(session, `s.jobStatus === 'RESTARTING'`);
    // The worker is gone; count#1's copy (tm-1's slot) is still in host-0's database.
    const onHost0 = await inPage<CopyOnDisk[]>(session, 'copiesOnDisk', 'host-0');
    expect(onHost0.filter((c) => c.subtask === 'count#1').length).toBeGreaterThan(0);
    expect(onHost0.every((c) => c.path.startsWith('aid_tm-0/') || c.path.startsWith('aid_tm-1/'))).toBe(true);
    // Damage it in the database only: the JobManager's memory still holds the good copy.
    expect((await inPage<string[]>(session, 'damageCopies', 'host-0', 'count', 1)).length).toBeGreaterThan(0);

    const afterKill = await waitForStatus(session, `s.events.some((e) => e.type === 'restore')`);
    const first = restores(afterKill.events)[0]!;
    expect(sourceOf(first, 'count', 1)).toEqual({ source: 'remote', reason: 'corrupt' });
    for (const index of [0, 2, 3]) expect(sourceOf(first, 'count', index)).toEqual({ source: 'local' });
    // The JobManager read `_metadata` and the state files of the subtasks that restored remotely,
    // nothing of those that restored from their local copies (as Flink's tasks download only their own state).
    const read = await session.page.evaluate(async (checkpointId) => {
      const driver = window.liveDriver!;
      const files = await driver.checkpointStorage!.list(`${driver.checkpointStorageSpec.location.checkpointDir}/`);
      return { reads: driver.remoteRestoreReads, files: files.filter((f) => f.path.includes(`/chk-${checkpointId}/`)) };
    }, first.checkpointId);
    const locallyRestored = [0, 2, 3].map((i) => `/chk-${first.checkpointId}/op-count-${i}`);
    const remoteFiles = read.files.filter((f) => !locallyRestored.some((suffix) => f.path.endsWith(suffix)));
    expect(read.files.length - remoteFiles.length).toBe(3);
    expect(read.reads[0]).toMatchObject({ checkpointId: first.checkpointId, bytes: remoteFiles.reduce((n, f) => n + f.sizeBytes, 0) });

    await waitForStatus(session, `s.jobStatus === 'RUNNING' && s.latestCheckpointId >= ${first.checkpointId + 2}`);
    expect((await inPage<CopyOnDisk[]>(session, 'copiesOnDisk', 'host-1')).length).toBeGreaterThan(0);
    expect(await session.page.evaluate(() => window.liveDriver!.loseHost('host-1'))).toBeUndefined();
    await waitForStatus(session, `s.jobStatus === 'RESTARTING'`);
    expect(await inPage<CopyOnDisk[]>(session, 'copiesOnDisk', 'host-1')).toEqual([]);

    const afterLoss = await waitForStatus(session, `s.events.filter((e) => e.type === 'restore').length >= 2`);
    const second = restores(afterLoss.events)[1]!;
    for (const index of [2, 3]) expect(sourceOf(second, 'count', index).source).toBe('remote');
    for (const index of [0, 1]) expect(sourceOf(second, 'count', index)).toEqual({ source: 'local' });
    await playRestFast(session);
    const finished = await waitForStatus(session, `s.jobStatus === 'FINISHED'`, 120_000);
    expect(finished.restarts).toBe(2);
    expect(await session.page.evaluate(() => window.liveTest!.compareWithSim())).toMatchObject({ duplicates: 0, missing: 0, differingKeys: [] });
    expect(session.errors).toEqual([]);
  }, 180_000);

  it('restores every keyed subtask of an incremental rocksdb checkpoint from its local copy, reading none of their state or runs remotely', async () => {
    await session.page.evaluate(() => window.liveTest?.dispose());
    const scenario = {
      ...SCENARIO,
      name: 'Live local disks, incremental rocksdb',
      job: { ...SCENARIO.job, vertices: SCENARIO.job.vertices.map((v) => (v.id === 'source' ? { ...v, source: { kind: 'sequence', keys: 4000, rate_per_s: 1000, count: 40000 } } : v)) },
      config: { ...SCENARIO.config, 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true, 'state.backend.rocksdb.writebuffer.size': '16kb' },
    };
    await session.page.evaluate(([s, o]) => window.liveTest!.start(s, o).then(() => undefined), [scenario, { heartbeatScale: 1 / 20 }] as const);
    // Kill tm-1 as soon as the latest completed checkpoint reuses runs of earlier ones for every
    // count subtask (checked and killed in one task of the page, so no checkpoint completes between).
    // The source is slow enough (1,000 records/s) that few writes land between two checkpoints and
    // compactions stay rare, so such a checkpoint comes on a loaded machine too.
    const killed = await session.page.waitForFunction(
      () => {
        const driver = window.liveDriver!;
        const latest = driver.coordinator.latestCheckpoint();
        if (!latest || driver.job.status !== 'RUNNING') return false;
        const created = new Map(driver.coordinator.sharedState.files().map((f) => [f.name, f.createdByCheckpointId]));
        const reused = [0, 1, 2, 3].map((i) => (latest.taskStates.get(`count#${i}`)?.sharedFiles ?? []).filter((f) => (created.get(f.name) ?? latest.id) < latest.id).length);
        if (reused.some((n) => n === 0)) return false;
        return { checkpointId: latest.id, reused, killed: driver.killTaskManager('tm-1') ?? 'ok' };
      },
      null,
      { timeout: 90_000, polling: 10 },
    );
    const kill = (await killed.jsonValue()) as { checkpointId: number; reused: number[]; killed: string };
    expect(kill.killed).toBe('ok');
    // Each host's database holds runs, each once.
    const runs = [...(await inPage<RunOnDisk[]>(session, 'runsOnDisk', 'host-0')), ...(await inPage<RunOnDisk[]>(session, 'runsOnDisk', 'host-1'))];
    expect(runs.filter((r) => r.subtask.startsWith('count#')).length).toBeGreaterThan(0);
    expect(new Set(runs.map((r) => r.path)).size).toBe(runs.length);

    const afterKill = await waitForStatus(session, `s.events.some((e) => e.type === 'restore')`, 90_000);
    const first = restores(afterKill.events)[0]!;
    expect(first.checkpointId).toBe(kill.checkpointId);
    for (const index of [0, 1, 2, 3]) expect(sourceOf(first, 'count', index), `count#${index}`).toEqual({ source: 'local' });
    for (const s of first.subtasks.filter((x) => x.vertexId === 'count')) expect(s.remoteBytes).toBe(0);
    // Remote reads: `_metadata` and the state files of the subtasks without keyed state (sources'
    // offsets, the sink's pending transactions); nothing of count: no state file, no shared run.
    const read = await session.page.evaluate(async (checkpointId) => {
      const driver = window.liveDriver!;
      const files = await driver.checkpointStorage!.list(`${driver.checkpointStorageSpec.location.checkpointDir}/`);
      return { reads: driver.remoteRestoreReads, files: files.filter((f) => f.path.includes(`/chk-${checkpointId}/`)).map((f) => ({ path: f.path, sizeBytes: f.sizeBytes })) };
    }, first.checkpointId);
    const remoteFiles = read.files.filter((f) => !/\/op-count-\d+$/.test(f.path));
    expect(remoteFiles.map((f) => f.path.split('/').pop()).sort()).toEqual(['_metadata', 'op-sink-0', 'op-sink-1', 'op-sink-2', 'op-sink-3', 'op-source-0', 'op-source-1', 'op-source-2', 'op-source-3']);
    expect(read.reads).toHaveLength(1);
    expect(read.reads[0]).toMatchObject({ checkpointId: first.checkpointId, bytes: remoteFiles.reduce((n, f) => n + f.sizeBytes, 0) });

    await playRestFast(session);
    const finished = await waitForStatus(session, `s.jobStatus === 'FINISHED'`, 120_000);
    expect(finished.restarts).toBe(1);
    expect(await session.page.evaluate(() => window.liveTest!.compareWithSim())).toMatchObject({ duplicates: 0, missing: 0, differingKeys: [] });
    expect(session.errors).toEqual([]);
  }, 240_000);
});

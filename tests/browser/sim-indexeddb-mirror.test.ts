/**
 * The page's sim driver writes its checkpoints to Chromium's real IndexedDB (one database per
 * playground, named from `execution.checkpointing.dir`): while a scenario with failures runs, the
 * database's chk-N directories are exactly the simulation's retained checkpoints and read back
 * equal to them, and the leak checker over the database finds nothing; when the run ends or the
 * page lets go of it, Flink's retention decides what stays (and nothing is orphaned). The
 * playground page shows what the database holds. Each host's local disk is written through to
 * its own database, which holds exactly the task-local copies the simulation keeps.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../engine/scenario/scenario-validator.ts';
import { openBrowserSession, REPO_ROOT, type BrowserSession } from './browser-session.ts';
import { loadAndRunUntil, openPlayground } from './channel-view-helpers.ts';
import type { MirroredRunResult } from './sim-indexeddb-in-page.ts';

const PAGE_MODULE = join(REPO_ROOT, 'tests', 'browser', 'sim-indexeddb-in-page.ts');
const NO_LEAKS = { orphaned: [], missing: [], unreadable: [] };

/** The incremental-checkpoints example (rocksdb, incremental, TaskManager killed at 6.5 s), with a failed task too and its own directory. */
async function scenario(dir: string, retention: string, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const parsed = parseScenarioText(await readFile(join(REPO_ROOT, 'public', 'scenarios', 'incremental-checkpoints.yaml'), 'utf8'));
  if (!parsed.ok) throw new Error('incremental-checkpoints.yaml does not parse');
  const base = parsed.value as Record<string, any>;
  return {
    ...base,
    config: {
      ...base.config,
      'execution.checkpointing.dir': dir,
      'execution.checkpointing.externalized-checkpoint-retention': retention,
      'execution.checkpointing.local-backup.enabled': true,
      'execution.state-recovery.from-local': true,
      ...extra,
    },
    faults: [...base.faults, { at: '2 s', type: 'fail-task', vertex: 'count', subtask: 1 }],
  };
}

async function runMirrored(session: BrowserSession, input: object, options: object): Promise<MirroredRunResult> {
  const url = `/@fs${PAGE_MODULE}`;
  return (await session.page.evaluate(`import(${JSON.stringify(url)}).then((m) => m.runMirrored(${JSON.stringify(input)}, ${JSON.stringify(options)}))`)) as MirroredRunResult;
}

function expectMirroredWhileRunning(result: MirroredRunResult): void {
  expect(result.mirrorErrors).toEqual([]);
  expect(result.restores).toBeGreaterThanOrEqual(2);
  expect(result.sharedFilesSeen).toBeGreaterThan(0);
  expect(result.checks.filter((c) => c.retained.length > 0).length).toBeGreaterThan(4);
  expect(result.checks.some((c) => c.localCopies > 0)).toBe(true);
  expect(result.restoreSources).toContain('local');
  for (const check of result.checks) {
    expect(check.localDisksPersisted, `at ${check.time} ms`).toBe(true);
    expect(check.stored, `at ${check.time} ms`).toEqual(check.retained);
    expect(check.readBackEqual, `at ${check.time} ms`).toBe(true);
    expect(check.leaks, `at ${check.time} ms`).toEqual(NO_LEAKS);
  }
}

describe('the page simulation mirrors its checkpoint storage into IndexedDB', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession();
    await openPlayground(session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('holds exactly the retained checkpoints through failures, and keeps them after a cancel with RETAIN_ON_CANCELLATION', async () => {
    const input = await scenario('indexeddb://mirror-retain', 'RETAIN_ON_CANCELLATION');
    const result = await runMirrored(session, input, { untilMs: 9000, checkEveryMs: 500, end: 'dispose' });
    expect(result.databaseName).toBe('checkpoint-playground/indexeddb://mirror-retain/checkpoints');
    expectMirroredWhileRunning(result);
    expect(result.jobStatus).toBe('CANCELED');
    expect(result.afterEnd.retainedBeforeEnd.length).toBeGreaterThan(0);
    expect(result.afterEnd.stored).toEqual(result.afterEnd.retainedBeforeEnd);
    expect(result.afterEnd.files.some((f) => f.includes('/shared/'))).toBe(true);
    expect(result.afterEnd.leaks).toEqual(NO_LEAKS);
    // One database per host while the cluster ran; none once the page let go of it.
    expect(result.afterEnd.localDiskDatabasesDuringRun).toBe(2);
    expect(result.afterEnd.localDiskDatabasesLeft).toEqual([]);
    expect(session.errors).toEqual([]);
  }, 240_000);

  it('deletes every checkpoint of a cancelled job with DELETE_ON_CANCELLATION, and of a finished one whatever the policy', async () => {
    const cancelled = await runMirrored(session, await scenario('indexeddb://mirror-delete', 'DELETE_ON_CANCELLATION'), { untilMs: 9000, checkEveryMs: 1000, end: 'dispose' });
    expectMirroredWhileRunning(cancelled);
    expect(cancelled.jobStatus).toBe('CANCELED');
    expect(cancelled.afterEnd.retainedBeforeEnd.length).toBeGreaterThan(0);
    expect(cancelled.afterEnd.files).toEqual([]);
    expect(cancelled.afterEnd.leaks).toEqual(NO_LEAKS);

    const finished = await runMirrored(session, await scenario('indexeddb://mirror-finish', 'RETAIN_ON_CANCELLATION'), { untilMs: 9000, checkEveryMs: 1000, end: 'run-to-end' });
    expectMirroredWhileRunning(finished);
    expect(finished.jobStatus).toBe('FINISHED');
    expect(finished.afterEnd.files).toEqual([]);
    expect(finished.afterEnd.leaks).toEqual(NO_LEAKS);
    expect(session.errors).toEqual([]);
  }, 240_000);

  it('shows in the storage view which chk-N directories the IndexedDB database holds, the same as the retained ones', async () => {
    const page = session.page;
    await loadAndRunUntil(session, await scenario('indexeddb://mirror-page', 'RETAIN_ON_CANCELLATION'), 7000);
    const database = page.getByTestId('remote-database');
    await expect.poll(() => database.getAttribute('data-behind'), { timeout: 30_000 }).toBe('false');
    const retained = await page.locator('[data-testid="remote-storage"] [data-checkpoint-id]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-checkpoint-id')));
    expect(retained.length).toBeGreaterThan(0);
    await expect.poll(() => database.getAttribute('data-checkpoints'), { timeout: 30_000 }).toBe(retained.join(','));
    expect(await database.getAttribute('data-database')).toBe('checkpoint-playground/indexeddb://mirror-page/checkpoints');
    await expect(database.textContent()).resolves.toContain('In IndexedDB');
    expect(session.errors).toEqual([]);
  }, 240_000);
});

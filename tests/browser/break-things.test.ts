/**
 * The "Break things" actions added for issues 5 and 6, in real Chromium: in sim through the
 * panel's buttons (stall a TaskManager, delete a local copy, fail / heal / slow remote storage,
 * restart from the newest savepoint, a FULL checkpoint, stop with savepoint, cancel with Flink's retention), each with its effect in the
 * dashboard, the timeline and the stats; then the same operations through `window.playground` on
 * live Web Worker TaskManagers. Screenshots of the panel (en, zh-CN, 390 px) land in
 * test-artifacts/screenshots/.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { DEFAULT_HEARTBEAT_SCALE } from '../../workers/live/live-driver.ts';
import type { JobEvent, PlaygroundApi, PlaygroundStats } from '../../web/playground/api/playground-api-types.ts';
import { openPlaygroundSession, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';
import { keyedCountsJob } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
    liveFailures?: Extract<JobEvent, { type: 'task-failed' }>[];
  }
}

const HEARTBEAT_TIMEOUT_MS = 5000;

/** Keyed counts into a two-phase-commit sink on two hosts with one single-slot TaskManager each. */
function scenario(name: string, config: Record<string, string | number | boolean> = {}) {
  return {
    version: 1,
    name,
    seed: 5,
    job: keyedCountsJob({ keys: 16, rate: 500 }),
    config: {
      'parallelism.default': 2,
      'execution.checkpointing.interval': '1 s',
      // Task-local recovery (execution.checkpointing.local-backup.enabled follows it).
      'execution.state-recovery.from-local': true,
      // A failing remote storage fails checkpoints; the job itself keeps running.
      'execution.checkpointing.tolerable-failed-checkpoints': 1000,
      'heartbeat.interval': '1 s',
      'heartbeat.timeout': `${HEARTBEAT_TIMEOUT_MS} ms`,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 10,
      'restart-strategy.fixed-delay.delay': '200 ms',
      ...config,
    },
    cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 1 },
    run: { until: '10 min' },
  };
}

function api<T>(page: Page, body: string): Promise<T> {
  return page.evaluate(`(async (api) => { ${body} })(window.playground)`) as Promise<T>;
}

const stats = (page: Page) => api<PlaygroundStats>(page, 'return api.stats();');
const now = (page: Page) => api<number>(page, 'return (await api.status()).time;');
/** Runs the job `ms` further, then pauses (sim: as fast as possible; live: on the wall clock). */
const runFor = (page: Page, ms: number) => api(page, `const t = (await api.status()).time; await api.runUntil(t + ${ms});`);

async function load(page: Page, scenarioObject: object): Promise<void> {
  await page.evaluate((s) => window.playground!.load(s), scenarioObject);
}

/** The descriptions of the fault marks drawn on the timeline. */
function timelineFaults(page: Page): Promise<string[]> {
  return page.locator('[data-testid="checkpoint-timeline"] g.fault title').allTextContents();
}

async function feedback(page: Page): Promise<string> {
  return (await page.getByTestId('action-feedback').textContent()) ?? '';
}

describe('break things in sim, through the panel', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    session = await openPlaygroundSession({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  const panel = () => page.getByTestId('break-things');

  it('stall TaskManager: nothing restarts before heartbeat.timeout, then its tasks restore', async () => {
    await load(page, scenario('Stall'));
    await runFor(page, 3000);
    await panel().getByLabel(en['break.taskManager'], { exact: true }).selectOption('tm-1');
    const stalledAt = await now(page);
    await panel().getByRole('button', { name: en['break.stallTm'] }).click();
    await expect.poll(() => feedback(page)).toContain('TaskManager tm-1 stopped answering');

    await runFor(page, HEARTBEAT_TIMEOUT_MS - 1000);
    expect((await stats(page)).job).toMatchObject({ status: 'RUNNING', restarts: 0 });
    await runFor(page, 3000);
    const after = await stats(page);
    expect(after.job.restarts).toBe(1);
    expect(after.restores).toHaveLength(1);
    expect(after.restores[0]!.time).toBeGreaterThanOrEqual(stalledAt + HEARTBEAT_TIMEOUT_MS);
    await expect.poll(() => page.getByTestId('latest-restore-type').textContent()).toBe(en['checkpoints.type.checkpoint']);
    expect((await timelineFaults(page)).some((f) => f.includes('stall TaskManager tm-1'))).toBe(true);
  }, 60_000);

  it('delete local copy, then kill its TaskManager: that subtask restores from remote with reason "missing"', async () => {
    await load(page, scenario('Delete local copy'));
    await runFor(page, 3000);
    await panel().getByLabel(en['break.task'], { exact: true }).selectOption('count#1');
    await expect.poll(() => page.getByTestId('local-copy-target').textContent()).toContain('count#1 on host-1');
    await panel().getByRole('button', { name: en['break.deleteLocalCopy'] }).click();
    // It also says the next completed checkpoint writes a fresh copy (issue 12: say so in the feedback).
    await expect.poll(() => feedback(page)).toBe(
      'Deleted the local copy of count#1 on host-1. The next completed checkpoint writes a fresh copy: fail the task before it to see the restore fall back to remote storage.',
    );
    await panel().getByLabel(en['break.taskManager'], { exact: true }).selectOption('tm-1');
    await panel().getByRole('button', { name: en['break.killTm'] }).click();
    await runFor(page, 2000);

    const restore = (await stats(page)).restores.at(-1)!;
    const count = restore.subtasks.filter((s) => s.vertexId === 'count');
    expect(count.find((s) => s.subtaskIndex === 1)).toMatchObject({ source: 'remote', reason: 'missing' });
    // The untouched subtask on the other host still reads its local copy: the difference is the deletion.
    expect(count.find((s) => s.subtaskIndex === 0), JSON.stringify(count)).toMatchObject({ source: 'local' });
    await expect.poll(() => page.getByTestId('latest-restore').textContent()).toMatch(/[1-9]\d* from remote storage/);
    expect((await timelineFaults(page)).some((f) => f.includes('delete local copy of count#1 on host-1'))).toBe(true);
  }, 60_000);

  it('failing remote storage fails checkpoints with the IO reason; heal lets them complete again', async () => {
    await load(page, scenario('Remote storage failing'));
    await runFor(page, 2500);
    const before = (await stats(page)).checkpoints.counts;
    const failedAt = await now(page);
    await panel().getByRole('button', { name: en['break.failRemote'] }).click();
    await expect.poll(() => feedback(page)).toBe(en['break.done.failRemote']);
    await runFor(page, 3000);
    const failing = await stats(page);
    expect(failing.checkpoints.counts.failed).toBeGreaterThan(before.failed);
    // A checkpoint whose upload was already done may still complete; every one triggered later fails.
    const laterOnes = Object.values(failing.checkpointDetails).filter((c) => c.trigger_timestamp > failedAt).map((c) => c.status);
    expect(laterOnes).toContain('FAILED');
    expect(laterOnes).not.toContain('COMPLETED');
    expect(failing.checkpoints.latest.failed?.failure_message).toMatch(/Asynchronous task checkpoint failed/);
    expect(failing.job.status).toBe('RUNNING');
    await expect.poll(() => page.getByTestId('latest-failed').textContent()).toContain('Asynchronous task checkpoint failed');

    await panel().getByRole('button', { name: en['break.healRemote'] }).click();
    await expect.poll(() => feedback(page)).toBe(en['break.done.healRemote']);
    await runFor(page, 3000);
    const healed = await stats(page);
    expect(healed.checkpoints.counts.completed).toBeGreaterThan(failing.checkpoints.counts.completed);
    const faults = await timelineFaults(page);
    expect(faults.some((f) => f.includes('remote storage fails every request'))).toBe(true);
    expect(faults.some((f) => f.includes('remote storage works again'))).toBe(true);

    // Recorded on the branch, so time travel replays them: back to 1 s and forward again gives the same run.
    const branch = (await api<{ current: boolean; operations: { operation: { type: string; failing?: boolean } }[] }[]>(page, 'return api.branches();')).find((b) => b.current)!;
    expect(branch.operations.map((o) => o.operation)).toEqual([
      { type: 'fail-remote-storage', failing: true },
      { type: 'fail-remote-storage', failing: false },
    ]);
    const reached = await now(page);
    await api(page, `await api.seek(1000); await api.seek(${reached});`);
    expect((await stats(page)).checkpoints.counts).toEqual(healed.checkpoints.counts);
  }, 60_000);

  it('slow remote storage ×50 makes checkpoints take longer (the async upload)', async () => {
    await load(page, scenario('Remote storage slow'));
    await runFor(page, 4000);
    const normal = await stats(page);
    const lastNormal = normal.checkpoints.latest.completed!;
    await panel().getByLabel(en['break.remoteFactor']).selectOption('50');
    await panel().getByRole('button', { name: en['break.slowRemote'] }).click();
    await expect.poll(() => feedback(page)).toBe('Remote storage is now 50× slower.');
    await runFor(page, 6000);
    const slow = await stats(page);
    const slowed = Object.values(slow.checkpointDetails).filter((c) => c.id > lastNormal.id && c.status === 'COMPLETED');
    expect(slowed.length).toBeGreaterThan(0);
    const normalDurations = Object.values(normal.checkpointDetails).filter((c) => c.status === 'COMPLETED').map((c) => c.end_to_end_duration);
    expect(Math.min(...slowed.map((c) => c.end_to_end_duration))).toBeGreaterThan(Math.max(...normalDurations));
    expect((await timelineFaults(page)).some((f) => f.includes('remote storage ×50 slower'))).toBe(true);
  }, 60_000);

  it('restart from the newest savepoint: the restore is of type savepoint', async () => {
    await load(page, scenario('Restart from savepoint'));
    await runFor(page, 2000);
    await panel().getByRole('button', { name: en['break.restartFromSavepoint'] }).click();
    await expect.poll(() => feedback(page)).toBe('no savepoint has completed yet');
    await panel().getByRole('button', { name: en['break.triggerSavepoint'] }).click();
    await runFor(page, 2500);
    const savepointId = (await stats(page)).checkpoints.latest.savepoint!.id;
    await panel().getByRole('button', { name: en['break.restartFromSavepoint'] }).click();
    await expect.poll(() => feedback(page)).toBe(en['break.done.restartFromSavepoint']);
    await runFor(page, 1500);
    const restore = (await stats(page)).restores.at(-1)!;
    expect(restore).toMatchObject({ checkpointId: savepointId, isSavepoint: true });
    await expect.poll(() => page.getByTestId('latest-restore-type').textContent()).toBe(en['checkpoints.type.savepoint']);
    expect((await timelineFaults(page)).some((f) => f.includes(`restart from savepoint ${savepointId}`))).toBe(true);
  }, 60_000);

  it('trigger FULL checkpoint: with incremental RocksDB that checkpoint uploads its whole state, the ones around it only their changes', async () => {
    await load(page, scenario('Full checkpoint', { 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true, 'execution.checkpointing.interval': '2 s' }));
    await runFor(page, 4500);
    const before = new Set((await stats(page)).checkpoints.history.map((c) => c.id));
    await panel().getByRole('button', { name: en['break.triggerFullCheckpoint'] }).click();
    await expect.poll(() => feedback(page)).toBe(en['break.done.fullCheckpoint']);
    await runFor(page, 1500);
    const history = (await stats(page)).checkpoints.history.filter((c) => c.status === 'COMPLETED');
    const full = history.filter((c) => !before.has(c.id)).sort((a, b) => a.id - b.id)[0]!;
    expect(full.checkpointed_size).toBe(full.state_size);
    const incremental = history.filter((c) => before.has(c.id) && c.id > 1);
    expect(incremental.length).toBeGreaterThan(0);
    for (const c of incremental) expect(c.checkpointed_size).toBeLessThan(c.state_size);
  }, 60_000);

  it('stop with savepoint (drain): a synchronous savepoint completes and the job ends FINISHED', async () => {
    await load(page, scenario('Stop with savepoint'));
    await runFor(page, 2500);
    await panel().getByTestId('stop-drain').check();
    await panel().getByRole('button', { name: en['break.stopWithSavepoint'] }).click();
    await expect.poll(() => feedback(page)).toBe(en['break.done.stopWithSavepointDrain']);
    await runFor(page, 3000);
    const after = await stats(page);
    expect(after.job.status).toBe('FINISHED');
    expect(after.checkpoints.history.find((c) => c.checkpoint_type === 'SYNC_SAVEPOINT')).toMatchObject({ status: 'COMPLETED', is_savepoint: true });
  }, 60_000);

  it('cancel: the job is CANCELED and RETAIN_ON_CANCELLATION keeps its checkpoints in storage', async () => {
    await load(page, scenario('Cancel retained', { 'execution.checkpointing.externalized-checkpoint-retention': 'RETAIN_ON_CANCELLATION' }));
    await runFor(page, 3000);
    await panel().getByRole('button', { name: en['break.cancelJob'] }).click();
    await expect.poll(() => feedback(page)).toBe('Job cancelled: its completed checkpoints are retained (RETAIN_ON_CANCELLATION).');
    expect((await stats(page)).job.status).toBe('CANCELED');
    const database = page.getByTestId('remote-database');
    await expect.poll(() => database.getAttribute('data-behind')).toBe('false');
    expect(await database.getAttribute('data-checkpoints')).not.toBe('');
    // The timeline shades the job as down from the cancel on.
    expect(await page.locator('[data-testid="checkpoint-timeline"] rect.outage title').allTextContents()).toContainEqual(expect.stringMatching(/^Job CANCEL/));
  }, 60_000);

  it('cancel: with DELETE_ON_CANCELLATION the completed checkpoints are deleted from storage', async () => {
    await load(page, scenario('Cancel deleted', { 'execution.checkpointing.externalized-checkpoint-retention': 'DELETE_ON_CANCELLATION' }));
    await runFor(page, 3000);
    const database = page.getByTestId('remote-database');
    await expect.poll(() => database.getAttribute('data-checkpoints')).not.toBe('');
    await panel().getByRole('button', { name: en['break.cancelJob'] }).click();
    await expect.poll(() => feedback(page)).toBe('Job cancelled: its completed checkpoints are deleted (DELETE_ON_CANCELLATION).');
    await expect.poll(() => database.getAttribute('data-checkpoints')).toBe('');
    expect(await rejection(page, 'api.cancel()')).toBe('Error: the job is already CANCELED');
  }, 60_000);

  it('stall and delete-local-copy have shortcuts (T, D) listed in the ? overlay', async () => {
    await load(page, scenario('Shortcuts'));
    await runFor(page, 2000);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('t');
    await expect.poll(() => feedback(page)).toMatch(/TaskManager tm-\d stopped answering/);
    await page.keyboard.press('d');
    await expect.poll(() => feedback(page)).toMatch(/^Deleted the local copy of /);
    await page.keyboard.press('?');
    const help = page.getByTestId('shortcut-help');
    await expect.poll(() => help.isVisible()).toBe(true);
    const text = (await help.textContent()) ?? '';
    expect(text).toContain(en['shortcuts.stallTm']);
    expect(text).toContain(en['shortcuts.deleteLocalCopy']);
    await page.keyboard.press('Escape');
    await expect.poll(() => help.isVisible()).toBe(false);
  }, 60_000);

  it('keeps the panel tidy at 1280×800 and 390 px, in English and Chinese (screenshots)', async () => {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await load(page, scenario('Panel'));
    const overflows = () => panel().evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(await overflows()).toBeLessThanOrEqual(0);
    await panel().screenshot({ path: join(SCREENSHOT_DIR, 'break-things-en.png') });
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(() => panel().getByRole('button', { name: zhCN['break.stallTm'] }).isVisible()).toBe(true);
    expect(await overflows()).toBeLessThanOrEqual(0);
    // A refusal is shown in the reader's language too, rendered from the JobMaster's message code.
    await panel().getByRole('button', { name: zhCN['break.restartFromSavepoint'] }).click();
    await expect.poll(() => feedback(page)).toBe('还没有完成任何 savepoint');
    await panel().screenshot({ path: join(SCREENSHOT_DIR, 'break-things-zh.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    // the charts and the job graph re-measure after the resize (ResizeObserver, ELK in a worker)
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await overflows()).toBeLessThanOrEqual(0);
    await panel().screenshot({ path: join(SCREENSHOT_DIR, 'break-things-zh-narrow.png') });
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(session.errors).toEqual([]);
  }, 60_000);
});

/** The message a call rejects with, or 'resolved'. */
function rejection(page: Page, call: string): Promise<string> {
  return api(page, `try { await ${call}; return 'resolved'; } catch (error) { return error instanceof Error ? 'Error: ' + error.message : 'not an Error'; }`);
}

describe('break things in live, through window.playground', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    session = await openPlaygroundSession();
    page = session.page;
    await api(page, `await api.setDriver('live');`);
  }, 60_000);

  afterAll(async () => {
    await session?.close();
  });

  it('stallTaskManager: the JobManager fails its tasks on the heartbeat timeout, then they restore', async () => {
    await load(page, scenario('Live stall', { 'heartbeat.timeout': '3 s' }));
    await runFor(page, 2500);
    await api(page, `window.liveFailures = []; api.on('task-failed', (e) => window.liveFailures.push(e));`);
    const stalledAt = await now(page);
    await api(page, `await api.stallTaskManager('tm-1');`);
    await api(page, `await api.start();`);
    await expect.poll(async () => (await stats(page)).restores.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await api(page, `await api.pause();`);
    const after = await stats(page);
    const failures = await page.evaluate(() => window.liveFailures!);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toMatchObject({ cause: expect.stringContaining('Heartbeat of TaskManager with id tm-1 timed out.') });
    // Live heartbeats run on the wall clock scaled by DEFAULT_HEARTBEAT_SCALE, and job time is wall
    // time × speed; the last heartbeat may have arrived up to one heartbeat.interval before the stall.
    const speed = await api<number>(page, 'return (await api.status()).speed;');
    expect(failures[0]!.time - stalledAt).toBeGreaterThanOrEqual((3000 - 1000) * DEFAULT_HEARTBEAT_SCALE * speed);
    expect(after.restores[0]!.time).toBeGreaterThan(failures[0]!.time);
    expect(after.job.restarts).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('deleteLocalCopy then killTaskManager: that subtask restores from remote with reason "missing"', async () => {
    await load(page, scenario('Live delete local copy'));
    await runFor(page, 2500);
    await api(page, `await api.deleteLocalCopy('host-1', 'count', 1); await api.killTaskManager('tm-1');`);
    await api(page, `await api.start();`);
    await expect.poll(async () => (await stats(page)).restores.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await api(page, `await api.pause();`);
    const count = (await stats(page)).restores[0]!.subtasks.filter((s) => s.vertexId === 'count');
    expect(count.find((s) => s.subtaskIndex === 1)).toMatchObject({ source: 'remote', reason: 'missing' });
  }, 60_000);

  it('failRemoteStorage(true) fails checkpoints with CHECKPOINT_ASYNC_EXCEPTION; failRemoteStorage(false) heals', async () => {
    await load(page, scenario('Live remote failing'));
    await runFor(page, 2500);
    await api(page, `await api.failRemoteStorage(true);`);
    await runFor(page, 3000);
    const failing = await stats(page);
    expect(failing.checkpoints.counts.failed).toBeGreaterThan(0);
    expect(failing.checkpoints.latest.failed?.failure_message).toMatch(/Asynchronous task checkpoint failed/);
    await api(page, `await api.failRemoteStorage(false);`);
    await runFor(page, 3000);
    expect((await stats(page)).checkpoints.counts.completed).toBeGreaterThan(failing.checkpoints.counts.completed);
    expect(await rejection(page, `api.failRemoteStorage('yes')`)).toBe('Error: failRemoteStorage(failing): failing must be true or false, got "yes".');
  }, 60_000);

  it('cancel: the live job is CANCELED', async () => {
    await load(page, scenario('Live cancel'));
    await runFor(page, 1500);
    await api(page, `await api.cancel();`);
    expect((await stats(page)).job.status).toBe('CANCELED');
    expect(await api(page, 'return (await api.status()).jobStatus;')).toBe('CANCELED');
    expect(session.errors).toEqual([]);
  }, 60_000);
});

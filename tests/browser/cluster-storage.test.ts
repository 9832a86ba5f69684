/**
 * Hosts, TaskManagers and slots with each host's local disk, and the remote checkpoint storage
 * apart: what the page lists is checked against the same scenario run in Node (the engine's
 * local disks and completed checkpoint store), and every file opens in the inspector.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { openBrowserSession, REPO_ROOT, type BrowserSession } from './browser-session.ts';
import { loadAndRunUntil, openPlayground } from './channel-view-helpers.ts';

async function scenarioText(file: string): Promise<string> {
  return readFile(join(REPO_ROOT, 'public', 'scenarios', file), 'utf8');
}

/** The scenario run in Node to `untilMs`: what each host's disk and the remote store hold then. */
async function runInNode(file: string, untilMs: number) {
  const parsed = parseScenarioText(await scenarioText(file));
  if (!parsed.ok) throw new Error(`${file} does not parse`);
  const validated = validateScenario(parsed.value);
  if (!validated.ok) throw new Error(`${file} is invalid`);
  const simulation = new Simulation(validated.scenario);
  simulation.runUntil(untilMs);
  return {
    copies: Object.fromEntries(simulation.localDisks().map((d) => [d.host, d.stores.reduce((n, s) => n + s.copies.length, 0)])),
    retained: simulation.coordinator.store.getAllCheckpoints().map((c) => c.id),
  };
}

describe('cluster and checkpoint storage', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 800 } });
    await openPlayground(session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lists on each host the task-local copies its disk holds, and the retained chk-N directories in remote storage', async () => {
    const page = session.page;
    const expected = await runInNode('local-recovery.yaml', 6000);
    await loadAndRunUntil(session, await scenarioText('local-recovery.yaml'), 6000);
    for (const [host, copies] of Object.entries(expected.copies)) {
      await expect(page.locator(`[data-testid="local-disk"][data-host="${host}"]`).getAttribute('data-copies')).resolves.toBe(String(copies));
    }
    expect(Object.values(expected.copies).some((n) => n > 0)).toBe(true);
    const dirs = await page.locator('[data-testid="remote-storage"] [data-checkpoint-id]').evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-checkpoint-id'))));
    expect(dirs).toEqual(expected.retained);
    await page.locator('.cluster-panel').scrollIntoViewIfNeeded();
    await session.screenshot('storage-local-recovery');
  });

  it('opens a local copy and a checkpoint directory in the inspector', async () => {
    const page = session.page;
    await page.locator('[data-testid="local-disk"] button.copy').first().click();
    const inspector = page.getByTestId('inspector');
    await expect(inspector.getByTestId('inspect-storage').getAttribute('data-storage-kind')).resolves.toBe('local-copy');
    await expect(inspector.getByTestId('inspect-path').textContent()).resolves.toMatch(/^aid_tm-\d+\/slot-\d+\/jid_job\/vtx_\w+_sti_\d+\/chk_\d+$/);
    await page.locator('[data-testid="remote-storage"] [data-checkpoint-id]').last().click();
    await expect(inspector.getByTestId('inspect-storage').getAttribute('data-storage-kind')).resolves.toBe('checkpoint-dir');
    await expect(inspector.getByTestId('inspect-path').textContent()).resolves.toMatch(/\/chk-\d+$/);
    await session.screenshot('storage-inspect-checkpoint');
    await page.getByTestId('inspector-close').click();
  });

  it('empties a lost host’s local disk while the remote checkpoints stay', async () => {
    const page = session.page;
    await page.evaluate(() => window.playground!.loseHost('host-1'));
    await expect.poll(() => page.locator('[data-testid="local-disk"][data-host="host-1"]').getAttribute('data-copies')).toBe('0');
    expect(await page.locator('[data-testid="remote-storage"] [data-checkpoint-id]').count()).toBeGreaterThan(0);
  });

  it('lists the shared files of incremental checkpoints and opens one', async () => {
    const page = session.page;
    await loadAndRunUntil(session, await scenarioText('incremental-checkpoints.yaml'), 5000);
    const remote = page.getByTestId('remote-storage');
    const checkpoints = Number(await remote.getAttribute('data-checkpoints'));
    expect(checkpoints).toBe(2); // execution.checkpointing.num-retained: 2
    expect(Number(await remote.getAttribute('data-shared'))).toBeGreaterThan(0);
    await page.getByTestId('shared-files').locator('summary').click();
    await page.getByTestId('shared-files').locator('button').first().click();
    const inspector = page.getByTestId('inspector');
    await expect(inspector.getByTestId('inspect-storage').getAttribute('data-storage-kind')).resolves.toBe('shared-file');
    await expect(inspector.getByTestId('inspect-path').textContent()).resolves.toMatch(/^shared\//);
    await page.locator('.cluster-panel').scrollIntoViewIfNeeded();
    await session.screenshot('storage-incremental-shared');
  });

  it('shows remote storage’s cost model beside it, with a slow-down and a failure as faults change it', async () => {
    const page = session.page;
    const cost = page.getByTestId('remote-cost');
    // incremental-checkpoints.yaml gives no costs: the defaults of an object store (50 ms per request, 100 MB/s).
    await expect(cost.getAttribute('data-latency-ms')).resolves.toBe('50');
    await expect(cost.getAttribute('data-bandwidth-mb-per-s')).resolves.toBe('100');
    await expect(cost.textContent()).resolves.toContain('50 ms per request, 100 MB/s');
    await page.evaluate(() => window.playground!.slowRemoteStorage(4));
    await page.evaluate(() => window.playground!.failRemoteStorage(true));
    await page.waitForFunction(() => document.querySelector('[data-testid="remote-cost"]')?.getAttribute('data-failing') === 'true');
    await expect(cost.getAttribute('data-slow-factor')).resolves.toBe('4');
    await expect(cost.textContent()).resolves.toMatch(/slowed ×4 by a fault[\s\S]*failing: writes are refused/);
    await page.locator('.cluster-panel').scrollIntoViewIfNeeded();
    await session.screenshot('storage-remote-cost-model');
  });

  it('logs no errors', () => {
    expect(session.errors).toEqual([]);
  });
});

/**
 * The page's simulator with `state.backend.type: rocksdb`: the LSM backend on real wa-sqlite
 * (loaded in Chromium from the bundled wasm), incremental checkpoints, and a TaskManager kill
 * restored from shared runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { nodeLsmStorage } from '../../engine/cli/wa-sqlite-node.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { openPlaygroundSession, type BrowserSession } from './browser-session.ts';
import { loadAndRunUntil } from './channel-view-helpers.ts';

/** The RocksDB metrics of `count#0` when the scenario runs in Node to `untilMs` (the sim is deterministic). */
async function rocksDbMetricsInNode(yaml: string, untilMs: number): Promise<Record<string, number>> {
  const parsed = parseScenarioText(yaml);
  if (!parsed.ok) throw new Error('the scenario does not parse');
  const validated = validateScenario(parsed.value);
  if (!validated.ok) throw new Error('the scenario is invalid');
  const simulation = new Simulation(validated.scenario, { lsmStorage: await nodeLsmStorage() });
  simulation.runUntil(untilMs);
  const metrics = simulation.metrics().subtasks.find((m) => m.vertexId === 'count' && m.subtaskIndex === 0)?.rocksdb;
  if (!metrics) throw new Error('count#0 reports no RocksDB metrics');
  return metrics;
}

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

describe('the rocksdb backend in the page', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openPlaygroundSession();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('runs the incremental-checkpoints scenario on wa-sqlite and restores after the kill', async () => {
    const yaml = readFileSync('public/scenarios/incremental-checkpoints.yaml', 'utf8');
    const stats = await session.page.evaluate(async (text) => {
      const p = window.playground!;
      await p.load(text);
      await p.runUntil('15 s');
      return p.stats();
    }, yaml);
    const history = stats.checkpoints.history as Array<{ status: string; checkpointed_size: number; state_size: number }>;
    expect(stats.job.status).toBe('FINISHED');
    expect(stats.restores.length).toBe(1);
    expect(history.filter((h) => h.status === 'COMPLETED').some((h) => h.checkpointed_size < h.state_size)).toBe(true);
    expect(session.errors).toEqual([]);
  }, 120_000);

  it('shows a subtask’s flushes, compactions, SST files per level, block cache and write stalls in the inspector', async () => {
    const yaml = readFileSync('public/scenarios/incremental-checkpoints.yaml', 'utf8');
    const expected = await rocksDbMetricsInNode(yaml, 6000);
    await loadAndRunUntil(session, yaml, 6000);
    const page = session.page;
    await page.locator('[data-vertex-id="count"] [data-subtask="0"]').click();
    const section = page.getByTestId('inspect-rocksdb');
    await expect(section.getAttribute('data-flushes')).resolves.toBe(String(expected['lsm.flush.count']));
    await expect(section.getAttribute('data-compactions')).resolves.toBe(String(expected['lsm.compaction.count']));
    await expect(section.getAttribute('data-write-stalls')).resolves.toBe(String(expected['lsm.write-stall.count']));
    expect(expected['lsm.flush.count']).toBeGreaterThan(0);
    const levels = Object.keys(expected).filter((k) => k.startsWith('rocksdb.num-files-at-level')).length;
    await expect(section.getByTestId('rocksdb-levels').textContent()).resolves.toContain(`L0: ${expected['rocksdb.num-files-at-level0']}`);
    await expect(section.getByTestId('rocksdb-levels').textContent()).resolves.toContain(`L${levels - 1}: `);
    await expect(section.getByTestId('rocksdb-block-cache').textContent()).resolves.toMatch(/hits \(/);
    await session.screenshot('inspect-subtask-rocksdb');
    expect(session.errors).toEqual([]);
  }, 120_000);
});

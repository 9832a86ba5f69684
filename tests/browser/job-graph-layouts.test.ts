/**
 * The job graph's layouts in real Chromium: the first page draws its graph from the layouts the
 * site was built with (node/pre-laid-out-graphs.ts; the dev server answers them too), so ELK's
 * worker never starts; a graph the build did not lay out (a scenario at a parallelism no bundled
 * one has) is laid out by ELK, whose worker starts then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxHeight } from '../../web/job-graph/graph-geometry.ts';
import { elkGraphOf } from '../../web/job-graph/elk-graph.ts';
import { preLaidOutKey } from '../../web/job-graph/pre-laid-out-graphs.ts';
import { jobGraphShape, preLaidOutGraphs } from '../../node/pre-laid-out-graphs.ts';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { parseScenarioText } from '../../engine/scenario/scenario-text.ts';
import { openPlaygroundSession, REPO_ROOT, type BrowserSession } from './browser-session.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const elkWorkers = (session: BrowserSession) => session.page.workers().filter((worker) => worker.url().includes('elk-worker'));
const countBoxHeight = (session: BrowserSession) => session.page.locator('[data-testid="job-graph"] [data-vertex-id="count"] rect.vertex-box').getAttribute('height');

describe('job graph layouts', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openPlaygroundSession({ viewport: { width: 1280, height: 800 } });
    await session.page.locator('[data-testid="job-graph"] [data-vertex-id="count"]').waitFor();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('draws the first page’s job graph without starting ELK’s worker', async () => {
    // lesson 1 runs: its first checkpoint, so the page is well past drawing its first screen
    await expect.poll(() => session.page.evaluate(() => window.playground!.stats().then((s) => s.checkpoints.counts.completed)), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(Number(await countBoxHeight(session))).toBe(boxHeight(2));
    expect(elkWorkers(session)).toEqual([]);
  });

  it('lays a graph the build did not lay out out with ELK, starting its worker then', async () => {
    // lesson 1's job at parallelism 3, which no bundled scenario has
    const lesson = parseScenarioText(await readFile(join(REPO_ROOT, 'public', LESSONS[0]!.scenario), 'utf8'));
    if (!lesson.ok) throw new Error('lesson 1 does not parse');
    const input = lesson.value as Record<string, unknown>;
    const scenario = { ...input, config: { ...(input['config'] as object), 'parallelism.default': 3 }, cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 } };
    const shape = jobGraphShape(scenario)!;
    const built = new Set((await preLaidOutGraphs(join(REPO_ROOT, 'public'))).map(([key]) => key));
    // so the layout can only come from ELK
    expect(built.has(preLaidOutKey(elkGraphOf(shape, 'RIGHT', false)))).toBe(false);
    await session.page.evaluate((s) => window.playground!.load(s), scenario);
    await expect.poll(() => countBoxHeight(session), { timeout: 30_000 }).toBe(String(boxHeight(3)));
    expect(elkWorkers(session)).toHaveLength(1);
    expect(session.errors).toEqual([]);
  });
});
